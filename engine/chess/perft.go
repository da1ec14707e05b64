package chess

// Perft counts the leaf nodes of the legal move tree to the given depth. The
// last ply is bulk-counted: moves are counted by popcount, never made.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.countLegal())
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	var u Undo
	var total uint64
	for _, m := range ml.Moves[:ml.N] {
		p.MakeMove(m, &u)
		total += p.Perft(depth - 1)
		p.UnmakeMove(m, &u)
	}
	return total
}

// DivideEntry is one root move's share of a perft count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count below each legal root move.
func (p *Position) Divide(depth int) []DivideEntry {
	var ml MoveList
	p.GenerateLegal(&ml)
	out := make([]DivideEntry, 0, ml.N)
	var u Undo
	for _, m := range ml.Slice() {
		p.MakeMove(m, &u)
		out = append(out, DivideEntry{m, p.Perft(depth - 1)})
		p.UnmakeMove(m, &u)
	}
	return out
}

// countLegal counts the legal moves without listing them. It follows
// generate step by step, replacing each loop over targets by a popcount.
func (p *Position) countLegal() int {
	us := p.side
	them := us ^ 1
	ours, theirs, occ := p.byColor[us], p.byColor[them], p.byType[0]
	ksq := p.KingSquare(us)

	n := 0
	occNoKing := occ ^ SquareBB(ksq)
	for kt := kingAttacks[ksq] &^ ours; kt != 0; {
		if !p.Attacked(kt.PopLSB(), us, occNoKing) {
			n++
		}
	}
	if p.checkers.Several() {
		return n
	}
	target := ^ours
	if p.checkers != 0 {
		target = between[ksq][p.checkers.LSB()] | p.checkers
	} else {
		for _, i := range [2]int{castleIndex(us, true), castleIndex(us, false)} {
			if _, ok := p.castleLegal(i, ksq); ok {
				n++
			}
		}
	}
	pinned := p.Pinned(us)

	// Pawns: unpinned ones set-wise, pinned ones one by one.
	pawns := p.Pieces(us, Pawn)
	empty := ^occ
	promoRank, thirdRank := Rank8, Rank3
	if us == Black {
		promoRank, thirdRank = Rank1, Rank6
	}
	free := pawns &^ pinned
	single := free.Forward(us) & empty
	double := (single & thirdRank).Forward(us) & empty & target
	single &= target
	fwd := free.Forward(us)
	caps := (fwd.West() & theirs & target).Count() + (fwd.East() & theirs & target).Count()
	promos := (single & promoRank).Count() + (fwd.West() & theirs & target & promoRank).Count() +
		(fwd.East() & theirs & target & promoRank).Count()
	n += single.Count() + double.Count() + caps + 3*promos
	for b := pawns & pinned; b != 0; {
		from := b.PopLSB()
		l := line[ksq][from]
		s1 := SquareBB(from).Forward(us) & empty
		d := (s1 & thirdRank).Forward(us) & empty & target & l
		s1 &= target & l
		c := pawnAttacks[us][from] & theirs & target & l
		moves := s1 | d | c
		n += moves.Count() + 3*(moves&promoRank).Count()
	}
	if p.ep != NoSquare {
		for b := pawnAttacks[them][p.ep] & pawns; b != 0; {
			if p.epLegal(b.PopLSB(), ksq) {
				n++
			}
		}
	}

	for b := p.Pieces(us, Knight) &^ pinned; b != 0; {
		n += (knightAttacks[b.PopLSB()] & target).Count()
	}
	diag := (p.byType[Bishop] | p.byType[Queen]) & ours
	for b := diag; b != 0; {
		f := b.PopLSB()
		att := BishopAttacks(f, occ) & target
		if pinned.Has(f) {
			att &= line[ksq][f]
		}
		n += att.Count()
	}
	orth := (p.byType[Rook] | p.byType[Queen]) & ours
	for b := orth; b != 0; {
		f := b.PopLSB()
		att := RookAttacks(f, occ) & target
		if pinned.Has(f) {
			att &= line[ksq][f]
		}
		n += att.Count()
	}
	return n
}
