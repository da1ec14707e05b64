package chess

// AppendSAN appends the SAN of the legal move m (as SAN formats it) to b and
// returns the extended slice. It lets bulk readers such as the PGN parser
// compare a move's text against its canonical form without allocating.
func (p *Position) AppendSAN(b []byte, m Move) []byte {
	b = p.appendSANBody(b, m)
	var u Undo
	p.MakeMove(m, &u)
	if p.checkers != 0 {
		if p.HasLegalMoves() {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	p.UnmakeMove(m, &u)
	return b
}
