package chess

// seeValue is the material value of each piece type used by static exchange
// evaluation, indexed by PieceType. The king's value is larger than all other
// material together so that capturing into a defended square with the king
// is never counted as a gain.
var seeValue = [...]int{NoPieceType: 0, Pawn: 100, Knight: 320, Bishop: 330, Rook: 500, Queen: 900, King: 20000}

// SEEValue is the material value of a piece type used by SEE, exported so
// that search scores captures on the same scale.
func SEEValue(t PieceType) int { return seeValue[t] }

// SEE reports whether the static exchange evaluation of m is at least
// threshold centipawns: whether, when both sides recapture on m's target
// square with their least valuable attacker for as long as it pays, the side
// making m comes out at least threshold ahead. X-ray attackers behind
// sliders join the exchange as the pieces in front of them leave. Pins are
// ignored (a pinned piece is assumed free to recapture), as a fast
// approximation that search can tolerate.
func (p *Position) SEE(m Move, threshold int) bool {
	if m.IsCastle() {
		return threshold <= 0
	}
	from, to := m.From(), m.To()
	swap := seeValue[m.Captured().Type()] - threshold
	next := m.Piece().Type()
	if pr := m.Promotion(); pr != NoPieceType {
		swap += seeValue[pr] - seeValue[Pawn]
		next = pr
	}
	if swap < 0 {
		return false
	}
	swap = seeValue[next] - swap
	if swap <= 0 {
		return true
	}
	occ := p.Occupied() ^ SquareBB(from) | SquareBB(to)
	if m.IsEnPassant() {
		// The captured pawn stands beside the target square, on the mover's rank.
		occ ^= SquareBB(MakeSquare(to.File(), from.Rank()))
	}
	stm := m.Piece().Color()
	attackers := p.AttackersTo(to, occ) & occ
	diag := p.byType[Bishop] | p.byType[Queen]
	orth := p.byType[Rook] | p.byType[Queen]
	res := 1
	for {
		stm = stm.Other()
		attackers &= occ
		mine := attackers & p.byColor[stm]
		if mine == 0 {
			break
		}
		res ^= 1
		var pt PieceType
		var bb Bitboard
		for pt = Pawn; pt <= King; pt++ {
			if bb = mine & p.byType[pt]; bb != 0 {
				break
			}
		}
		if pt == King {
			// The king may only take last: if the opponent still has an
			// attacker, the king capture is illegal and the side to move loses.
			if attackers&^p.byColor[stm] != 0 {
				return res^1 != 0
			}
			return res != 0
		}
		swap = seeValue[pt] - swap
		if swap < res {
			break
		}
		occ ^= SquareBB(bb.LSB())
		if pt == Pawn || pt == Bishop || pt == Queen {
			attackers |= BishopAttacks(to, occ) & diag
		}
		if pt == Rook || pt == Queen {
			attackers |= RookAttacks(to, occ) & orth
		}
	}
	return res != 0
}
