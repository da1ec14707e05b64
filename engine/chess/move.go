package chess

// Move is a 32-bit move, after monsoon's MOVE: everything search, ordering
// and unmake need without looking at the board.
//
//	bits  0-5   from square
//	bits  6-11  to square (for castling: the castling rook's square)
//	bits 12-15  moving piece
//	bits 16-19  captured piece (NoPiece if none; never set for castling)
//	bits 20-22  promotion piece type (NoPieceType if none)
//	bit  23     castling ("king takes own rook", so any Chess960 setup works)
//	bit  24     en passant
//	bit  25     double pawn push
//
// The zero value is NullMove.
type Move uint32

// NullMove is "no move" (also the UCI "0000").
const NullMove Move = 0

const (
	flagCastle     Move = 1 << 23
	flagEnPassant  Move = 1 << 24
	flagDoublePush Move = 1 << 25
)

// MaxMoves bounds the legal moves of any position (218 is the known maximum).
const MaxMoves = 256

func newMove(from, to Square, pc, captured Piece) Move {
	return Move(from) | Move(to)<<6 | Move(pc)<<12 | Move(captured)<<16
}

// From is the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To is the destination square; for castling, the rook's square.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Piece is the piece that moves.
func (m Move) Piece() Piece { return Piece(m >> 12 & 15) }

// Captured is the captured piece, or NoPiece. For en passant it is the pawn.
func (m Move) Captured() Piece { return Piece(m >> 16 & 15) }

// Promotion is the piece type promoted to, or NoPieceType.
func (m Move) Promotion() PieceType { return PieceType(m >> 20 & 7) }

// IsCastle reports whether the move castles.
func (m Move) IsCastle() bool { return m&flagCastle != 0 }

// IsEnPassant reports whether the move is an en-passant capture.
func (m Move) IsEnPassant() bool { return m&flagEnPassant != 0 }

// IsDoublePush reports whether a pawn moves two squares.
func (m Move) IsDoublePush() bool { return m&flagDoublePush != 0 }

// IsCapture reports whether the move captures (en passant included).
func (m Move) IsCapture() bool { return m.Captured() != NoPiece }

// IsQuiet is true for moves that neither capture nor promote.
func (m Move) IsQuiet() bool { return m&(0xF<<16|7<<20) == 0 }

// KingTo is where the king lands for a castling move.
func (m Move) KingTo() Square {
	rank := m.From().Rank()
	if m.To() > m.From() {
		return MakeSquare(6, rank)
	}
	return MakeSquare(2, rank)
}

// RookTo is where the rook lands for a castling move.
func (m Move) RookTo() Square {
	rank := m.From().Rank()
	if m.To() > m.From() {
		return MakeSquare(5, rank)
	}
	return MakeSquare(3, rank)
}

// UCI formats the move in UCI long algebraic notation. Castling is written
// as the king's two-square move (e1g1) unless chess960 is set, where it is
// "king takes rook" (e1h1) as the UCI protocol asks.
func (m Move) UCI(chess960 bool) string {
	if m == NullMove {
		return "0000"
	}
	to := m.To()
	if m.IsCastle() && !chess960 {
		to = m.KingTo()
	}
	s := m.From().String() + to.String()
	if p := m.Promotion(); p != NoPieceType {
		s += string(" pnbrqk"[p])
	}
	return s
}

// String is the standard-chess UCI form, for debugging and logs.
func (m Move) String() string { return m.UCI(false) }

// MoveList is a caller-owned, fixed-size list that generators fill without
// allocating.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Slice returns the filled part of the list (aliasing its storage).
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}

func (l *MoveList) add(m Move) {
	l.Moves[l.N] = m
	l.N++
}
