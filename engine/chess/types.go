// Package chess is Squall's chess core: positions, legal move generation,
// FEN/SAN/UCI notation, game state and perft. It knows nothing of search or
// evaluation; everything else in Squall is built on it.
//
// Squares are numbered a1=0 … h8=63 (little-endian rank-file mapping), so a
// Bitboard's bit n is square n.
package chess

// Color is the side a piece belongs to.
type Color uint8

const (
	White Color = iota
	Black
)

// Other returns the opposing colour.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Name is the side's name as players write it: "White" or "Black".
func (c Color) Name() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a coloured piece: colour<<3 | type. The zero value is NoPiece.
type Piece uint8

// NoPiece marks an empty square.
const NoPiece Piece = 0

// MakePiece combines a colour and a piece type.
func MakePiece(c Color, t PieceType) Piece { return Piece(c)<<3 | Piece(t) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour; meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p >> 3) }

const pieceLetters = " PNBRQK  pnbrqk"

// Letter is the FEN letter of the piece (upper case for White).
func (p Piece) Letter() byte {
	if int(p) >= len(pieceLetters) {
		return '?'
	}
	return pieceLetters[p]
}

func (p Piece) String() string { return string(p.Letter()) }

// pieceFromLetter maps a FEN letter to a piece, or NoPiece.
func pieceFromLetter(b byte) Piece {
	for i := 1; i < len(pieceLetters); i++ {
		if pieceLetters[i] == b && b != ' ' {
			return Piece(i)
		}
	}
	return NoPiece
}

// Letter is the upper-case SAN letter of the type ('P' for pawns).
func (t PieceType) Letter() byte { return " PNBRQK"[t&7] }

// Square is a board square, a1=0 … h8=63. NoSquare (64) marks "none".
type Square uint8

// NoSquare is the absent square (e.g. no en-passant target).
const NoSquare Square = 64

// Named squares used by tests and castling logic.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 0, 1, 2, 3, 4, 5, 6, 7
	A8, B8, C8, D8, E8, F8, G8, H8 Square = 56, 57, 58, 59, 60, 61, 62, 63
)

// MakeSquare builds a square from file and rank (0-7 each).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// File is 0 (a) … 7 (h).
func (s Square) File() int { return int(s & 7) }

// Rank is 0 (rank 1) … 7 (rank 8).
func (s Square) Rank() int { return int(s >> 3) }

// RelativeRank is the rank from c's point of view (0 = its back rank).
func (s Square) RelativeRank(c Color) int {
	if c == White {
		return s.Rank()
	}
	return 7 - s.Rank()
}

// Flip mirrors the square vertically (a1 <-> a8).
func (s Square) Flip() Square { return s ^ 56 }

func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads "e4"-style coordinates.
func ParseSquare(str string) (Square, bool) {
	if len(str) != 2 || str[0] < 'a' || str[0] > 'h' || str[1] < '1' || str[1] > '8' {
		return NoSquare, false
	}
	return MakeSquare(int(str[0]-'a'), int(str[1]-'1')), true
}

// CastlingRights is a set of the four castling rights.
type CastlingRights uint8

const (
	WhiteKingside CastlingRights = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside

	NoCastling  CastlingRights = 0
	AllCastling CastlingRights = 15
)

// castleIndex numbers the four rights 0..3 in the order above.
func castleIndex(c Color, kingside bool) int {
	i := int(c) * 2
	if !kingside {
		i++
	}
	return i
}
