package chess

import "math/bits"

// Bitboard is a set of squares, bit n standing for square n.
type Bitboard uint64

// File and rank masks.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56

	LightSquares Bitboard = 0x55AA55AA55AA55AA
	DarkSquares  Bitboard = ^LightSquares
)

// SquareBB is the bitboard with only s set.
func SquareBB(s Square) Bitboard { return 1 << (s & 63) }

// FileBB is the bitboard of file f (0-7).
func FileBB(f int) Bitboard { return FileA << uint(f) }

// RankBB is the bitboard of rank r (0-7).
func RankBB(r int) Bitboard { return Rank1 << (8 * uint(r)) }

// Has reports whether s is in the set.
func (b Bitboard) Has(s Square) bool { return b&SquareBB(s) != 0 }

// Count is the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// LSB is the lowest square in a non-empty set.
func (b Bitboard) LSB() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// MSB is the highest square in a non-empty set.
func (b Bitboard) MSB() Square { return Square(63 - bits.LeadingZeros64(uint64(b))) }

// PopLSB removes and returns the lowest square of a non-empty set.
func (b *Bitboard) PopLSB() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// Several reports whether the set has more than one square.
func (b Bitboard) Several() bool { return b&(b-1) != 0 }

// North shifts every square one rank up (towards rank 8).
func (b Bitboard) North() Bitboard { return b << 8 }

// South shifts every square one rank down.
func (b Bitboard) South() Bitboard { return b >> 8 }

// East shifts towards the h-file, dropping what falls off.
func (b Bitboard) East() Bitboard { return (b &^ FileH) << 1 }

// West shifts towards the a-file, dropping what falls off.
func (b Bitboard) West() Bitboard { return (b &^ FileA) >> 1 }

// Forward shifts one rank towards the opponent of c.
func (b Bitboard) Forward(c Color) Bitboard {
	if c == White {
		return b << 8
	}
	return b >> 8
}

// PawnAttacksBB returns the squares attacked by c's pawns on b.
func PawnAttacksBB(b Bitboard, c Color) Bitboard {
	f := b.Forward(c)
	return f.East() | f.West()
}

// String draws the set as an 8x8 grid, rank 8 first (for debugging).
func (b Bitboard) String() string {
	out := make([]byte, 0, 72)
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			if b.Has(MakeSquare(f, r)) {
				out = append(out, 'X')
			} else {
				out = append(out, '.')
			}
		}
		out = append(out, '\n')
	}
	return string(out)
}
