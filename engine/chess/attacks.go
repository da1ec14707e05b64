package chess

// Precomputed attack tables. They are filled once at package init from the
// formulas in the comments and never written afterwards.

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard

	// between[a][b] holds the squares strictly between a and b when they
	// share a rank, file or diagonal, else 0. It is monsoon's "vector
	// delta" table in bitboard form: used for check blocking and pins.
	between [64][64]Bitboard
	// line[a][b] is the whole line (edge to edge) through a and b when they
	// are aligned, else 0. A pinned piece may only move along line[king][piece].
	line [64][64]Bitboard
)

// KnightAttacks returns the knight moves from s.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks returns the king moves from s.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// Line returns the full line through a and b, or 0 if they are not aligned.
func Line(a, b Square) Bitboard { return line[a][b] }

// BishopAttacks returns diagonal attacks from s given the occupancy.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return sliderTable[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

// RookAttacks returns orthogonal attacks from s given the occupancy.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return sliderTable[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

// QueenAttacks returns queen attacks from s given the occupancy.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return BishopAttacks(s, occ) | RookAttacks(s, occ)
}

// PieceAttacks returns the attacks of a piece type (not pawns) from s.
func PieceAttacks(t PieceType, s Square, occ Bitboard) Bitboard {
	switch t {
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case Queen:
		return QueenAttacks(s, occ)
	case King:
		return kingAttacks[s]
	}
	return 0
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slideAttacks walks each direction from s until it leaves the board or hits
// an occupied square (which is included). Slow; used only to build tables.
func slideAttacks(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			t := MakeSquare(f, r)
			att |= SquareBB(t)
			if occ.Has(t) {
				break
			}
			f += d[0]
			r += d[1]
		}
	}
	return att
}

func init() {
	for s := Square(0); s < 64; s++ {
		b := SquareBB(s)
		knightAttacks[s] = (b.North().North().East() | b.North().North().West() |
			b.South().South().East() | b.South().South().West() |
			b.East().East().North() | b.East().East().South() |
			b.West().West().North() | b.West().West().South())
		kingAttacks[s] = b.North() | b.South() | b.East() | b.West() |
			b.North().East() | b.North().West() | b.South().East() | b.South().West()
		pawnAttacks[White][s] = PawnAttacksBB(b, White)
		pawnAttacks[Black][s] = PawnAttacksBB(b, Black)
	}
	initMagics()
	for a := Square(0); a < 64; a++ {
		for _, dirs := range [][4][2]int{rookDirs, bishopDirs} {
			full := slideAttacks(a, 0, dirs)
			for b := Square(0); b < 64; b++ {
				if !full.Has(b) {
					continue
				}
				// The squares seen from both a and b with each other as
				// blockers are exactly those between them.
				between[a][b] = slideAttacks(a, SquareBB(b), dirs) & slideAttacks(b, SquareBB(a), dirs)
				line[a][b] = (full & slideAttacks(b, 0, dirs)) | SquareBB(a) | SquareBB(b)
			}
		}
	}
}
