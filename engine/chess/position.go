package chess

// Position is a chess position with the state needed to continue a game:
// piece placement (bitboards plus a mailbox), side to move, castling rights
// (with Chess960 rook squares), en-passant square, clocks, incrementally
// updated Zobrist keys, and the keys of earlier positions for repetition.
//
// A Position holds a history slice: copy one with Clone, not by assignment,
// when both copies will make moves.
type Position struct {
	board   [64]Piece
	byType  [7]Bitboard // index 0 (NoPieceType) holds all occupied squares
	byColor [2]Bitboard
	counts  [16]uint8

	side     Color
	castle   CastlingRights
	ep       Square
	halfmove int
	fullmove int

	key      uint64
	pawnKey  uint64
	checkers Bitboard

	// castleRook[i] is the rook square of castling right 1<<i.
	castleRook [4]Square
	// castleMask[s] holds the rights lost when a piece leaves or lands on s.
	castleMask [64]CastlingRights
	chess960   bool

	history []uint64
}

// Undo holds what MakeMove cannot recompute cheaply; UnmakeMove needs it.
type Undo struct {
	key, pawnKey uint64
	checkers     Bitboard
	halfmove     int
	castle       CastlingRights
	ep           Square
}

// Clone returns an independent copy (its own history storage).
func (p *Position) Clone() *Position {
	q := *p
	q.history = make([]uint64, len(p.history), max(cap(p.history), 256))
	copy(q.history, p.history)
	return &q
}

// Piece returns the piece on s (NoPiece if empty).
func (p *Position) Piece(s Square) Piece { return p.board[s] }

// SideToMove is the colour to move.
func (p *Position) SideToMove() Color { return p.side }

// Castling returns the castling rights.
func (p *Position) Castling() CastlingRights { return p.castle }

// CastlingRook returns the rook square for a castling right, or NoSquare.
func (p *Position) CastlingRook(c Color, kingside bool) Square {
	i := castleIndex(c, kingside)
	if p.castle&(1<<i) == 0 {
		return NoSquare
	}
	return p.castleRook[i]
}

// EnPassant is the en-passant target square, or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock counts plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmove }

// FullmoveNumber is the move number, starting at 1, incremented after Black.
func (p *Position) FullmoveNumber() int { return p.fullmove }

// GamePly is the number of half-moves played before p in its game, from
// the fullmove number and the side to move (0 for the initial position).
func (p *Position) GamePly() int {
	ply := (p.fullmove - 1) * 2
	if p.SideToMove() == Black {
		ply++
	}
	return max(ply, 0)
}

// Key is the Zobrist hash of placement, side, castling and a capturable ep.
func (p *Position) Key() uint64 { return p.key }

// RepetitionKey is Key without an en passant square that no legal move
// can take (a capturing pawn pinned to its king): the key of the position
// as FIDE's rules on repetition see it, where positions are the same when
// the same moves are possible. A database looks positions up by it; the
// search's repetition test uses Key, which differs only in that case.
func (p *Position) RepetitionKey() uint64 {
	if !p.epHashed() {
		return p.key
	}
	ksq := p.KingSquare(p.side)
	for bb := pawnAttacks[p.side^1][p.ep] & p.Pieces(p.side, Pawn); bb != 0; bb &= bb - 1 {
		if p.epLegal(bb.LSB(), ksq) {
			return p.key
		}
	}
	return p.key ^ zobEP[p.ep.File()]
}

// PawnKey hashes the pawn placement only (for the evaluation's pawn hash).
func (p *Position) PawnKey() uint64 { return p.pawnKey }

// Checkers returns the enemy pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard { return p.checkers }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.checkers != 0 }

// Chess960 reports whether the position uses Chess960 castling notation.
func (p *Position) Chess960() bool { return p.chess960 }

// SetChess960 switches castling notation (FEN and UCI) for Chess960.
func (p *Position) SetChess960(on bool) { p.chess960 = on }

// Occupied is the set of all pieces.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ByColor is the set of c's pieces.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// ByType is the set of pieces of type t, both colours.
func (p *Position) ByType(t PieceType) Bitboard { return p.byType[t] }

// Pieces is the set of c's pieces of type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byColor[c] & p.byType[t] }

// Count is the number of pieces pc on the board.
func (p *Position) Count(pc Piece) int { return int(p.counts[pc]) }

// KingSquare is c's king square.
func (p *Position) KingSquare(c Color) Square { return (p.byColor[c] & p.byType[King]).LSB() }

// Ply is the number of positions recorded in the history (game plies so far
// from the first position this Position was set up from).
func (p *Position) Ply() int { return len(p.history) }

// AttackersTo returns the pieces of both colours attacking s with the given
// occupancy.
func (p *Position) AttackersTo(s Square, occ Bitboard) Bitboard {
	return (pawnAttacks[White][s] & p.Pieces(Black, Pawn)) |
		(pawnAttacks[Black][s] & p.Pieces(White, Pawn)) |
		(knightAttacks[s] & p.byType[Knight]) |
		(BishopAttacks(s, occ) & (p.byType[Bishop] | p.byType[Queen])) |
		(RookAttacks(s, occ) & (p.byType[Rook] | p.byType[Queen])) |
		(kingAttacks[s] & p.byType[King])
}

// Attacked reports whether c's opponent attacks s with occupancy occ.
func (p *Position) Attacked(s Square, c Color, occ Bitboard) bool {
	them := p.byColor[c^1]
	return (pawnAttacks[c][s]&p.byType[Pawn]&them) != 0 ||
		(knightAttacks[s]&p.byType[Knight]&them) != 0 ||
		(kingAttacks[s]&p.byType[King]&them) != 0 ||
		(BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen])&them) != 0 ||
		(RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])&them) != 0
}

// put places pc on an empty square (no key updates).
func (p *Position) put(pc Piece, s Square) {
	b := SquareBB(s)
	p.board[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
}

// remove clears an occupied square (no key updates).
func (p *Position) remove(s Square) {
	pc := p.board[s]
	b := SquareBB(s)
	p.board[s] = NoPiece
	p.byType[0] &^= b
	p.byType[pc.Type()] &^= b
	p.byColor[pc.Color()] &^= b
}

// shift moves the piece on from to an empty square to (no key updates).
func (p *Position) shift(from, to Square) {
	pc := p.board[from]
	b := SquareBB(from) | SquareBB(to)
	p.board[from] = NoPiece
	p.board[to] = pc
	p.byType[0] ^= b
	p.byType[pc.Type()] ^= b
	p.byColor[pc.Color()] ^= b
}

// epHashed reports whether the ep square enters the key: only when the side
// to move has a pawn attacking it, so positions that differ only by an
// unusable ep square repeat.
func (p *Position) epHashed() bool {
	return p.ep != NoSquare && pawnAttacks[p.side^1][p.ep]&p.Pieces(p.side, Pawn) != 0
}

// MakeMove plays a legal (or at least pseudo-legal and then verified) move.
// It never allocates once the history slice has room.
func (p *Position) MakeMove(m Move, u *Undo) {
	u.key, u.pawnKey = p.key, p.pawnKey
	u.checkers, u.halfmove, u.castle, u.ep = p.checkers, p.halfmove, p.castle, p.ep
	p.history = append(p.history, p.key)

	us := p.side
	from, to := m.From(), m.To()
	pc := p.board[from]
	key := p.key ^ zobSide
	if p.epHashed() {
		key ^= zobEP[p.ep.File()]
	}
	p.ep = NoSquare
	p.halfmove++

	switch {
	case m.IsCastle():
		kto, rto := m.KingTo(), m.RookTo()
		rook := p.board[to]
		p.remove(from)
		p.remove(to)
		p.put(pc, kto)
		p.put(rook, rto)
		key ^= zobPiece[pc][from] ^ zobPiece[pc][kto] ^ zobPiece[rook][to] ^ zobPiece[rook][rto]
	default:
		if captured := m.Captured(); captured != NoPiece {
			capSq := to
			if m.IsEnPassant() {
				capSq = to ^ 8 // the pawn beside the mover, behind the target
			}
			p.remove(capSq)
			key ^= zobPiece[captured][capSq]
			p.counts[captured]--
			if captured.Type() == Pawn {
				p.pawnKey ^= zobPiece[captured][capSq]
			}
			p.halfmove = 0
		}
		p.shift(from, to)
		key ^= zobPiece[pc][from] ^ zobPiece[pc][to]
		if pc.Type() == Pawn {
			p.halfmove = 0
			p.pawnKey ^= zobPiece[pc][from]
			if promo := m.Promotion(); promo != NoPieceType {
				np := MakePiece(us, promo)
				p.remove(to)
				p.put(np, to)
				key ^= zobPiece[pc][to] ^ zobPiece[np][to]
				p.counts[pc]--
				p.counts[np]++
			} else {
				p.pawnKey ^= zobPiece[pc][to]
				if m.IsDoublePush() {
					p.ep = (from + to) / 2
				}
			}
		}
	}

	if cr := p.castle & (p.castleMask[from] | p.castleMask[to]); cr != 0 {
		key ^= zobCastle[p.castle] ^ zobCastle[p.castle&^cr]
		p.castle &^= cr
	}
	if us == Black {
		p.fullmove++
	}
	p.side = us ^ 1
	if p.epHashed() {
		key ^= zobEP[p.ep.File()]
	}
	p.key = key
	p.checkers = p.AttackersTo(p.KingSquare(p.side), p.byType[0]) & p.byColor[us]
}

// UnmakeMove takes back m, which must be the last move made with u.
func (p *Position) UnmakeMove(m Move, u *Undo) {
	p.side ^= 1
	us := p.side
	if us == Black {
		p.fullmove--
	}
	from, to := m.From(), m.To()
	switch {
	case m.IsCastle():
		kto, rto := m.KingTo(), m.RookTo()
		king, rook := p.board[kto], p.board[rto]
		p.remove(kto)
		p.remove(rto)
		p.put(king, from)
		p.put(rook, to)
	default:
		if promo := m.Promotion(); promo != NoPieceType {
			np := MakePiece(us, promo)
			p.remove(to)
			p.put(MakePiece(us, Pawn), to)
			p.counts[np]--
			p.counts[MakePiece(us, Pawn)]++
		}
		p.shift(to, from)
		if captured := m.Captured(); captured != NoPiece {
			capSq := to
			if m.IsEnPassant() {
				capSq = to ^ 8
			}
			p.put(captured, capSq)
			p.counts[captured]++
		}
	}
	p.key, p.pawnKey = u.key, u.pawnKey
	p.checkers, p.halfmove, p.castle, p.ep = u.checkers, u.halfmove, u.castle, u.ep
	p.history = p.history[:len(p.history)-1]
}

// MakeNullMove passes the turn (for null-move pruning). Not legal in check.
func (p *Position) MakeNullMove(u *Undo) {
	u.key, u.pawnKey = p.key, p.pawnKey
	u.checkers, u.halfmove, u.castle, u.ep = p.checkers, p.halfmove, p.castle, p.ep
	p.history = append(p.history, p.key)
	key := p.key ^ zobSide
	if p.epHashed() {
		key ^= zobEP[p.ep.File()]
	}
	p.ep = NoSquare
	p.halfmove++
	p.side ^= 1
	p.key = key
	p.checkers = 0
}

// UnmakeNullMove undoes MakeNullMove.
func (p *Position) UnmakeNullMove(u *Undo) {
	p.side ^= 1
	p.key, p.pawnKey = u.key, u.pawnKey
	p.checkers, p.halfmove, p.castle, p.ep = u.checkers, u.halfmove, u.castle, u.ep
	p.history = p.history[:len(p.history)-1]
}

// computeKeys recomputes the keys from scratch (after setup, and in tests
// to check the incremental updates).
func (p *Position) computeKeys() (key, pawnKey uint64) {
	for s := Square(0); s < 64; s++ {
		pc := p.board[s]
		if pc == NoPiece {
			continue
		}
		key ^= zobPiece[pc][s]
		if pc.Type() == Pawn {
			pawnKey ^= zobPiece[pc][s]
		}
	}
	key ^= zobCastle[p.castle]
	if p.side == Black {
		key ^= zobSide
	}
	if p.epHashed() {
		key ^= zobEP[p.ep.File()]
	}
	return key, pawnKey
}
