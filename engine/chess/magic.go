package chess

// Magic bitboards for sliding pieces. Go has no PEXT intrinsic, so the
// occupancy of a slider's relevant squares is hashed with a multiply and a
// shift into a per-square block of one shared table ("fancy" magics).
//
// The magic numbers are Squall's own, found by a deterministic search with
// a fixed-seed generator (magic_test.go) and kept in magics_gen.go, which
// that test checks and rewrites with -update-magics. Searching at start-up
// took half a second of every process's start (seven seconds under the
// race detector, longer than a UCI client waits for "uciok"); filling the
// table from known numbers takes about a millisecond.

//go:generate go test -run TestMagicNumbers -update-magics

type magic struct {
	mask   Bitboard
	magic  uint64
	shift  uint8
	offset uint32
}

var (
	rookMagics   [64]magic
	bishopMagics [64]magic
	// sliderTable holds every square's attack block: 102400 rook entries
	// followed by 5248 bishop entries.
	sliderTable [102400 + 5248]Bitboard
)

func initMagics() {
	offset := uint32(0)
	offset = fillMagics(&rookMagics, rookDirs, &rookMagicNumbers, offset)
	fillMagics(&bishopMagics, bishopDirs, &bishopMagicNumbers, offset)
}

// relevantMask is the squares whose occupancy matters to a slider on s:
// its rays minus the board edges they end on, since a piece on the last
// square of a ray never blocks anything.
func relevantMask(s Square, dirs [4][2]int) Bitboard {
	edges := ((Rank1 | Rank8) &^ RankBB(s.Rank())) | ((FileA | FileH) &^ FileBB(s.File()))
	return slideAttacks(s, 0, dirs) &^ edges
}

// fillMagics sets up each square's magic from numbers and fills its block
// of sliderTable, starting at offset; it returns the offset after the
// last block.
func fillMagics(ms *[64]magic, dirs [4][2]int, numbers *[64]uint64, offset uint32) uint32 {
	for s := Square(0); s < 64; s++ {
		m := &ms[s]
		m.mask = relevantMask(s, dirs)
		m.shift = uint8(64 - m.mask.Count())
		m.offset = offset
		m.magic = numbers[s]
		// Every subset of the mask (carry-rippler trick) maps to its
		// attacks; the numbers are checked to map no two subsets with
		// different attacks to one entry (TestMagicNumbers).
		for sub := Bitboard(0); ; {
			sliderTable[offset+uint32((uint64(sub)*m.magic)>>m.shift)] = slideAttacks(s, sub, dirs)
			sub = (sub - m.mask) & m.mask
			if sub == 0 {
				break
			}
		}
		offset += 1 << m.mask.Count()
	}
	return offset
}
