package chess

// Legal move generation. Moves are generated legal directly: pins restrict a
// piece to the line through its king, a check restricts the targets to the
// checker and the squares between, and only king moves, en passant and
// castling need an attack test. Generators write into a caller-owned
// MoveList and never allocate.

type genKind uint8

const (
	genAll      genKind = iota
	genCaptures         // captures and all promotions
	genQuiets           // neither captures nor promotions (castling included)
)

// GenerateLegal fills ml with every legal move.
func (p *Position) GenerateLegal(ml *MoveList) { ml.N = 0; p.generate(ml, genAll) }

// GenerateCaptures fills ml with legal captures (en passant included) and
// all promotions, capturing or not.
func (p *Position) GenerateCaptures(ml *MoveList) { ml.N = 0; p.generate(ml, genCaptures) }

// GenerateQuiets fills ml with the legal moves that neither capture nor
// promote, castling included. With GenerateCaptures it partitions the
// legal moves.
func (p *Position) GenerateQuiets(ml *MoveList) { ml.N = 0; p.generate(ml, genQuiets) }

// GenerateEvasions fills ml with the legal replies to a check. Out of check
// it generates nothing.
func (p *Position) GenerateEvasions(ml *MoveList) {
	ml.N = 0
	if p.checkers != 0 {
		p.generate(ml, genAll)
	}
}

// Pinned returns c's pieces pinned to c's king.
func (p *Position) Pinned(c Color) Bitboard {
	ksq := p.KingSquare(c)
	them := p.byColor[c^1]
	snipers := ((RookAttacks(ksq, 0) & (p.byType[Rook] | p.byType[Queen])) |
		(BishopAttacks(ksq, 0) & (p.byType[Bishop] | p.byType[Queen]))) & them
	occ := p.byType[0]
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.PopLSB()
		b := between[ksq][s] & occ
		if b != 0 && !b.Several() {
			pinned |= b & p.byColor[c]
		}
	}
	return pinned
}

// epLegal tests an en-passant capture by playing it on the occupancy: it is
// the one move that removes two pieces from a line through the king.
func (p *Position) epLegal(from Square, ksq Square) bool {
	us := p.side
	capSq := p.ep ^ 8
	occ := p.byType[0] ^ SquareBB(from) ^ SquareBB(capSq) | SquareBB(p.ep)
	them := p.byColor[us^1]
	return (BishopAttacks(ksq, occ)&(p.byType[Bishop]|p.byType[Queen])&them) == 0 &&
		(RookAttacks(ksq, occ)&(p.byType[Rook]|p.byType[Queen])&them) == 0 &&
		(p.checkers&^SquareBB(capSq))&(p.byType[Knight]|p.byType[Pawn]) == 0
}

// castleLegal checks right i (not in check assumed): empty path, no attacked
// square on the king's way, and a safe king square once the rook has moved
// (a Chess960 rook can shield its own king along the back rank).
func (p *Position) castleLegal(i int, ksq Square) (Move, bool) {
	if p.castle&(1<<i) == 0 {
		return NullMove, false
	}
	rsq := p.castleRook[i]
	m := newMove(ksq, rsq, p.board[ksq], NoPiece) | flagCastle
	kto, rto := m.KingTo(), m.RookTo()
	occ := p.byType[0]
	path := (between[ksq][kto] | SquareBB(kto) | between[rsq][rto] | SquareBB(rto)) &^ (SquareBB(ksq) | SquareBB(rsq))
	if occ&path != 0 {
		return NullMove, false
	}
	us := p.side
	for walk := between[ksq][kto]; walk != 0; {
		if p.Attacked(walk.PopLSB(), us, occ) {
			return NullMove, false
		}
	}
	after := occ&^(SquareBB(ksq)|SquareBB(rsq)) | SquareBB(kto) | SquareBB(rto)
	if p.Attacked(kto, us, after) {
		return NullMove, false
	}
	return m, true
}

func (p *Position) generate(ml *MoveList, kind genKind) {
	us := p.side
	them := us ^ 1
	ours, theirs, occ := p.byColor[us], p.byColor[them], p.byType[0]
	ksq := p.KingSquare(us)
	king := MakePiece(us, King)

	// King moves, tested with the king lifted so it cannot hide behind itself.
	kt := kingAttacks[ksq] &^ ours
	switch kind {
	case genCaptures:
		kt &= theirs
	case genQuiets:
		kt &^= theirs
	}
	occNoKing := occ ^ SquareBB(ksq)
	for kt != 0 {
		to := kt.PopLSB()
		if !p.Attacked(to, us, occNoKing) {
			ml.add(newMove(ksq, to, king, p.board[to]))
		}
	}
	if p.checkers.Several() {
		return
	}

	target := ^ours
	if p.checkers != 0 {
		target = between[ksq][p.checkers.LSB()] | p.checkers
	} else if kind != genCaptures {
		for _, i := range [2]int{castleIndex(us, true), castleIndex(us, false)} {
			if m, ok := p.castleLegal(i, ksq); ok {
				ml.add(m)
			}
		}
	}
	pieceTarget := target
	switch kind {
	case genCaptures:
		pieceTarget &= theirs
	case genQuiets:
		pieceTarget &^= theirs
	}
	pinned := p.Pinned(us)

	p.genPawns(ml, kind, target, pinned, ksq)

	for t := Knight; t <= Queen; t++ {
		pc := MakePiece(us, t)
		from := p.byColor[us] & p.byType[t]
		if t == Knight {
			from &^= pinned // a pinned knight can never move
		}
		for from != 0 {
			f := from.PopLSB()
			att := PieceAttacks(t, f, occ) & pieceTarget
			if pinned.Has(f) {
				att &= line[ksq][f]
			}
			for att != 0 {
				to := att.PopLSB()
				ml.add(newMove(f, to, pc, p.board[to]))
			}
		}
	}
}

func (p *Position) genPawns(ml *MoveList, kind genKind, target, pinned Bitboard, ksq Square) {
	us := p.side
	pawn := MakePiece(us, Pawn)
	pawns := p.Pieces(us, Pawn)
	theirs := p.byColor[us^1]
	empty := ^p.byType[0]
	// push is the square delta of a one-step advance; captures towards the
	// a-file and h-file are push-1 and push+1.
	push := 8
	promoRank, thirdRank := Rank8, Rank3
	if us == Black {
		push = -8
		promoRank, thirdRank = Rank1, Rank6
	}

	single := pawns.Forward(us) & empty
	double := (single & thirdRank).Forward(us) & empty & target
	single &= target

	if kind != genCaptures {
		p.addPawnMoves(ml, single&^promoRank, push, NoPiece, 0, pinned, ksq)
		p.addPawnMoves(ml, double, 2*push, NoPiece, flagDoublePush, pinned, ksq)
	}
	if kind == genQuiets {
		return
	}
	p.addPromotions(ml, single&promoRank, push, pinned, ksq)
	fwd := pawns.Forward(us)
	west := fwd.West() & theirs & target
	east := fwd.East() & theirs & target
	p.addPawnMoves(ml, west&^promoRank, push-1, pawn, 0, pinned, ksq)
	p.addPawnMoves(ml, east&^promoRank, push+1, pawn, 0, pinned, ksq)
	p.addPromotions(ml, west&promoRank, push-1, pinned, ksq)
	p.addPromotions(ml, east&promoRank, push+1, pinned, ksq)

	if p.ep != NoSquare {
		for b := pawnAttacks[us^1][p.ep] & pawns; b != 0; {
			from := b.PopLSB()
			if p.epLegal(from, ksq) {
				ml.add(newMove(from, p.ep, pawn, MakePiece(us^1, Pawn)) | flagEnPassant)
			}
		}
	}
}

// addPawnMoves adds a pawn move to every square of tos, from the square
// delta behind it. A non-empty captured argument means "capture whatever
// stands there".
func (p *Position) addPawnMoves(ml *MoveList, tos Bitboard, delta int, captured Piece, flags Move, pinned Bitboard, ksq Square) {
	pawn := MakePiece(p.side, Pawn)
	for tos != 0 {
		to := tos.PopLSB()
		from := Square(int(to) - delta)
		if pinned&SquareBB(from) != 0 && !line[ksq][from].Has(to) {
			continue
		}
		m := newMove(from, to, pawn, NoPiece) | flags
		if captured != NoPiece {
			m |= Move(p.board[to]) << 16
		}
		ml.add(m)
	}
}

// addPromotions adds the four promotions (queen first) to each square of tos.
func (p *Position) addPromotions(ml *MoveList, tos Bitboard, delta int, pinned Bitboard, ksq Square) {
	pawn := MakePiece(p.side, Pawn)
	for tos != 0 {
		to := tos.PopLSB()
		from := Square(int(to) - delta)
		if pinned&SquareBB(from) != 0 && !line[ksq][from].Has(to) {
			continue
		}
		base := newMove(from, to, pawn, p.board[to])
		for t := Queen; t >= Knight; t-- {
			ml.add(base | Move(t)<<20)
		}
	}
}
