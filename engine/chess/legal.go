package chess

// IsPseudoLegal reports whether m could be played here ignoring only
// whether it leaves the king in check: the moving and captured pieces match
// the board, the geometry is right and the path is clear. Search uses it to
// validate hash-table and killer moves, which may come from another
// position, without generating moves.
func (p *Position) IsPseudoLegal(m Move) bool {
	if m == NullMove {
		return false
	}
	us := p.side
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc != m.Piece() || pc.Color() != us {
		return false
	}
	if m.IsCastle() {
		if pc.Type() != King || p.checkers != 0 {
			return false
		}
		for _, kingside := range [2]bool{true, false} {
			if c, ok := p.castleLegal(castleIndex(us, kingside), from); ok && c == m {
				return true
			}
		}
		return false
	}
	if m.IsEnPassant() {
		return pc.Type() == Pawn && to == p.ep && m.Captured() == MakePiece(us^1, Pawn) &&
			pawnAttacks[us][from].Has(to) && m.Promotion() == NoPieceType && m&flagDoublePush == 0
	}
	captured := p.board[to]
	if captured != m.Captured() || (captured != NoPiece && (captured.Color() == us || captured.Type() == King)) {
		return false
	}
	occ := p.byType[0]
	if pc.Type() != Pawn {
		return m.Promotion() == NoPieceType && m&flagDoublePush == 0 &&
			PieceAttacks(pc.Type(), from, occ).Has(to)
	}
	lastRank := to.RelativeRank(us) == 7
	if pr := m.Promotion(); (pr != NoPieceType) != lastRank || (pr != NoPieceType && (pr < Knight || pr > Queen)) {
		return false
	}
	fwd := SquareBB(from).Forward(us)
	switch {
	case captured != NoPiece:
		return m&flagDoublePush == 0 && pawnAttacks[us][from].Has(to)
	case m.IsDoublePush():
		return from.RelativeRank(us) == 1 && fwd&occ == 0 && fwd.Forward(us) == SquareBB(to) && !occ.Has(to)
	default:
		return fwd == SquareBB(to) && !occ.Has(to)
	}
}

// IsLegal reports whether m is a legal move in this position.
func (p *Position) IsLegal(m Move) bool {
	if !p.IsPseudoLegal(m) {
		return false
	}
	if m.IsCastle() {
		return true // castleLegal checked it fully
	}
	us := p.side
	ksq := p.KingSquare(us)
	from, to := m.From(), m.To()
	if m.Piece().Type() == King {
		return !p.Attacked(to, us, p.byType[0]^SquareBB(from))
	}
	if m.IsEnPassant() {
		return p.epLegal(from, ksq)
	}
	if p.checkers != 0 {
		if p.checkers.Several() || !(between[ksq][p.checkers.LSB()] | p.checkers).Has(to) {
			return false
		}
	}
	return !p.Pinned(us).Has(from) || line[ksq][from].Has(to)
}

// GenerateTo fills ml with the legal moves of the side to move's pieces of
// type t that land on to, castling excluded, in no particular order (the
// four promotions of one pawn queen first). It finds the candidates from
// the attacks of to, the way a SAN reader needs them ("which knight can go
// to f3?"), without generating every move.
func (p *Position) GenerateTo(ml *MoveList, t PieceType, to Square) {
	ml.N = 0
	us := p.side
	target := p.board[to]
	if target != NoPiece && (target.Color() == us || target.Type() == King) {
		return
	}
	ours := p.byColor[us] & p.byType[t]
	occ := p.byType[0]
	ksq := p.KingSquare(us)
	pc := MakePiece(us, t)
	switch t {
	case King:
		if kingAttacks[ksq].Has(to) && ours.Has(ksq) && !p.Attacked(to, us, occ^SquareBB(ksq)) {
			ml.add(newMove(ksq, to, pc, target))
		}
		return
	case Knight, Bishop, Rook, Queen:
	case Pawn:
		p.pawnMovesTo(ml, to, ksq)
		return
	default:
		return
	}
	from := PieceAttacks(t, to, occ) & ours
	if from == 0 || !p.canReach(to, ksq) {
		return
	}
	pinned := p.Pinned(us)
	for from != 0 {
		f := from.PopLSB()
		if !pinned.Has(f) || line[ksq][f].Has(to) {
			ml.add(newMove(f, to, pc, target))
		}
	}
}

// canReach reports whether a piece other than the king may legally land on
// to as far as checks go: anywhere out of check, on the checker or the
// squares between it and the king in single check, nowhere in double check.
func (p *Position) canReach(to, ksq Square) bool {
	switch {
	case p.checkers == 0:
		return true
	case p.checkers.Several():
		return false
	}
	return (between[ksq][p.checkers.LSB()] | p.checkers).Has(to)
}

// pawnMovesTo is GenerateTo for pawns: pushes from behind to, captures from
// its diagonals and en passant onto it.
func (p *Position) pawnMovesTo(ml *MoveList, to, ksq Square) {
	us := p.side
	pawn := MakePiece(us, Pawn)
	pawns := p.Pieces(us, Pawn)
	if pawns == 0 || p.checkers.Several() {
		return
	}
	if to == p.ep && p.ep != NoSquare {
		for b := pawnAttacks[us^1][to] & pawns; b != 0; {
			from := b.PopLSB()
			if p.epLegal(from, ksq) {
				ml.add(newMove(from, to, pawn, MakePiece(us^1, Pawn)) | flagEnPassant)
			}
		}
	}
	if !p.canReach(to, ksq) {
		return
	}
	target := p.board[to]
	var from [2]Square
	var flags [2]Move
	n := 0
	if target != NoPiece {
		for b := pawnAttacks[us^1][to] & pawns; b != 0; {
			from[n] = b.PopLSB()
			n++
		}
	} else {
		back := SquareBB(to).Forward(us ^ 1)
		switch {
		case back&pawns != 0:
			from[0], n = back.LSB(), 1
		case back != 0 && back&p.byType[0] == 0 && to.RelativeRank(us) == 3 && back.Forward(us^1)&pawns != 0:
			from[0], flags[0], n = back.Forward(us^1).LSB(), flagDoublePush, 1
		}
	}
	var pinned Bitboard
	if n > 0 {
		pinned = p.Pinned(us)
	}
	promote := to.RelativeRank(us) == 7
	for i := range n {
		f := from[i]
		if pinned.Has(f) && !line[ksq][f].Has(to) {
			continue
		}
		m := newMove(f, to, pawn, target) | flags[i]
		if !promote {
			ml.add(m)
			continue
		}
		for pr := Queen; pr >= Knight; pr-- {
			ml.add(m | Move(pr)<<20)
		}
	}
}

// CastlingMove returns the castling move on the given side if it is legal
// here.
func (p *Position) CastlingMove(kingside bool) (Move, bool) {
	if p.checkers != 0 {
		return NullMove, false
	}
	return p.castleLegal(castleIndex(p.side, kingside), p.KingSquare(p.side))
}
