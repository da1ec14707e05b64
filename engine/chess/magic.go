package chess

// Magic bitboards for sliding pieces. Go has no PEXT intrinsic, so the
// occupancy of a slider's relevant squares is hashed with a multiply and a
// shift into a per-square block of one shared table ("fancy" magics).
//
// The magic numbers are searched for at init with a fixed-seed generator:
// the search is deterministic, takes a few milliseconds, and keeps numbers
// from elsewhere out of the source.

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

// xorshift64star is a tiny deterministic PRNG for the magic search.
type xorshift64star uint64

func (x *xorshift64star) next() uint64 {
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	return uint64(*x) * 2685821657736338717
}

// sparse returns a random number with few bits set; such numbers make good
// magic candidates.
func (x *xorshift64star) sparse() uint64 {
	a, b, c := x.next(), x.next(), x.next()
	return a & b & c
}

func initMagics() {
	rng := xorshift64star(0x5eed_c0ffee_1234)
	offset := uint32(0)
	offset = fillMagics(&rookMagics, rookDirs, offset, &rng)
	fillMagics(&bishopMagics, bishopDirs, offset, &rng)
}

func fillMagics(ms *[64]magic, dirs [4][2]int, offset uint32, rng *xorshift64star) uint32 {
	var occs, atts [4096]Bitboard
	var epoch [4096]int
	cur := 0
	for s := Square(0); s < 64; s++ {
		// Relevant occupancy: the rays minus the board edges they end on,
		// since a piece on the last square of a ray never blocks anything.
		edges := ((Rank1 | Rank8) &^ RankBB(s.Rank())) | ((FileA | FileH) &^ FileBB(s.File()))
		m := &ms[s]
		m.mask = slideAttacks(s, 0, dirs) &^ edges
		bitsN := m.mask.Count()
		m.shift = uint8(64 - bitsN)
		m.offset = offset
		// Enumerate all subsets of the mask (carry-rippler trick).
		n := 0
		for sub := Bitboard(0); ; {
			occs[n] = sub
			atts[n] = slideAttacks(s, sub, dirs)
			n++
			sub = (sub - m.mask) & m.mask
			if sub == 0 {
				break
			}
		}
		table := sliderTable[offset : offset+uint32(n)]
		for {
			cand := rng.sparse()
			if Bitboard((uint64(m.mask)*cand)>>56).Count() < 6 {
				continue
			}
			cur++
			ok := true
			for i := 0; i < n; i++ {
				idx := (uint64(occs[i]) * cand) >> m.shift
				if epoch[idx] < cur {
					epoch[idx] = cur
					table[idx] = atts[i]
				} else if table[idx] != atts[i] {
					ok = false
					break
				}
			}
			if ok {
				m.magic = cand
				break
			}
		}
		offset += uint32(n)
	}
	return offset
}
