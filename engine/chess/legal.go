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
