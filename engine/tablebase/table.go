package tablebase

import (
	"encoding/binary"
	"fmt"
	"sync"
)

// File magics: the first four bytes of .rtbw and .rtbz files.
var (
	wdlMagic = [4]byte{0x71, 0xe8, 0x23, 0x5d}
	dtzMagic = [4]byte{0xd7, 0x66, 0x0c, 0xa5}
)

// material describes a table's pieces: counts[color][pieceType] as the
// file name gives them (white is the first side).
type material struct {
	name   string
	counts [2][7]int
	num    int
}

func (m *material) symmetric() bool { return m.counts[0] == m.counts[1] }
func (m *material) hasPawns() bool  { return m.counts[0][1]+m.counts[1][1] > 0 }

// part is one encoded sub-table: a side to move and, for pawn tables, a
// file of the leading pawn.
type part struct {
	enc   encoding
	pairs *pairs
	// DTZ only.
	flags  uint8
	mapIdx [4]int // start of each WDL class's value map in table.dtzMap
}

// table is one .rtbw or .rtbz file, opened on first use.
type table struct {
	path string
	dtz  bool
	mat  material
	key  uint64 // materialKey of mat: a position with this key needs no colour swap

	once sync.Once
	err  error
	data []byte

	encType  int    // pawnless: 0 (three unique pieces lead) or 2 (the kings lead)
	pawns    [2]int // pawn tables: leading pawns' count, the other side's count
	leadSwap bool   // pawn tables: black's pawns lead (pawns[0] is black's count)
	split    bool   // WDL: both sides to move stored
	parts    [4][2]part
	dtzMap   []byte
	dtzWide  bool
}

// load maps the file and parses its header once; later calls return the
// first result. Safe for concurrent use.
func (t *table) load() error {
	t.once.Do(func() {
		data, err := mapFile(t.path)
		if err != nil {
			t.err = fmt.Errorf("tablebase %s: %w", t.path, err)
			return
		}
		t.data = data
		if err := t.parse(); err != nil {
			t.err = fmt.Errorf("tablebase %s: %w", t.path, err)
		}
	})
	return t.err
}

func (t *table) parse() error {
	data := t.data
	if len(data) < 6 {
		return fmt.Errorf("file too short: %w", errCorrupt)
	}
	magic := wdlMagic
	if t.dtz {
		magic = dtzMagic
	}
	if [4]byte(data[:4]) != magic {
		return fmt.Errorf("bad magic %x: %w", data[:4], errCorrupt)
	}
	t.split = data[4]&1 != 0
	pawnFile := data[4]&2 != 0
	if pawnFile != t.mat.hasPawns() {
		return fmt.Errorf("pawn flag does not match the name: %w", errCorrupt)
	}
	num := t.mat.num
	at := 5
	files, sides := 1, 2
	if t.dtz {
		sides = 1
	}
	if !pawnFile {
		unique := 0
		for c := 0; c < 2; c++ {
			for pt := 1; pt <= 6; pt++ {
				if t.mat.counts[c][pt] == 1 {
					unique++
				}
			}
		}
		t.encType = 2
		if unique >= 3 {
			t.encType = 0
		}
		if at+1+num > len(data) {
			return fmt.Errorf("piece header: %w", errCorrupt)
		}
		for s := 0; s < sides; s++ {
			e := &t.parts[0][s].enc
			shift := uint(4 * s)
			for i := 0; i < num; i++ {
				e.pieces[i] = data[at+1+i] >> shift & 0xf
			}
			if err := checkPieces(e.pieces[:num], &t.mat); err != nil {
				return err
			}
			e.setNormPiece(num, t.encType)
			e.factorsPiece(num, int(data[at]>>shift&0xf), t.encType)
		}
		at += num + 1
	} else {
		files = 4
		w, b := t.mat.counts[0][1], t.mat.counts[1][1]
		t.pawns = [2]int{w, b}
		if b > 0 && (w == 0 || b < w) {
			t.pawns = [2]int{b, w}
			t.leadSwap = true
		}
		hdr := 1
		if t.pawns[1] > 0 {
			hdr = 2
		}
		for f := 0; f < 4; f++ {
			if at+hdr+num > len(data) {
				return fmt.Errorf("pawn header: %w", errCorrupt)
			}
			for s := 0; s < sides; s++ {
				e := &t.parts[f][s].enc
				shift := uint(4 * s)
				for i := 0; i < num; i++ {
					e.pieces[i] = data[at+hdr+i] >> shift & 0xf
				}
				if err := checkPieces(e.pieces[:num], &t.mat); err != nil {
					return err
				}
				order2 := 0xf
				if t.pawns[1] > 0 {
					order2 = int(data[at+1] >> shift & 0xf)
				}
				e.setNormPawn(num, t.pawns)
				e.factorsPawn(num, int(data[at]>>shift&0xf), order2, f)
			}
			at += num + hdr
		}
	}
	at += at & 1
	if !t.dtz && !t.split {
		sides = 1
	}
	var sizes [4][2][3]uint64
	for f := 0; f < files; f++ {
		for s := 0; s < sides; s++ {
			p := &t.parts[f][s]
			pr, next, sz, err := parsePairs(data, at, p.enc.size, !t.dtz)
			if err != nil {
				return err
			}
			if t.dtz {
				p.flags = data[at]
			}
			p.pairs, sizes[f][s], at = pr, sz, next
		}
	}
	if t.dtz {
		mapStart := at
		for f := 0; f < files; f++ {
			p := &t.parts[f][0]
			if p.flags&2 == 0 {
				continue
			}
			if p.flags&16 != 0 {
				t.dtzWide = true
				at += at & 1
				for i := 0; i < 4; i++ {
					if at+2 > len(data) {
						return fmt.Errorf("dtz map: %w", errCorrupt)
					}
					p.mapIdx[i] = at + 2 - mapStart
					at += 2 + 2*int(binary.LittleEndian.Uint16(data[at:]))
				}
			} else {
				for i := 0; i < 4; i++ {
					if at+1 > len(data) {
						return fmt.Errorf("dtz map: %w", errCorrupt)
					}
					p.mapIdx[i] = at + 1 - mapStart
					at += 1 + int(data[at])
				}
			}
		}
		if at > len(data) {
			return fmt.Errorf("dtz map: %w", errCorrupt)
		}
		t.dtzMap = data[mapStart:at]
		at += at & 1
	}
	// Index tables, then size tables, then 64-byte aligned data blocks.
	take := func(n uint64, align bool) ([]byte, error) {
		if align {
			at = (at + 63) &^ 63
		}
		if n > uint64(len(data)) || uint64(at)+n > uint64(len(data)) {
			return nil, fmt.Errorf("section at %d of %d bytes: %w", at, n, errCorrupt)
		}
		b := data[at : at+int(n)]
		at += int(n)
		return b, nil
	}
	var err error
	for k := 0; k < 3; k++ {
		for f := 0; f < files; f++ {
			for s := 0; s < sides; s++ {
				p := t.parts[f][s].pairs
				var b []byte
				if b, err = take(sizes[f][s][k], k == 2); err != nil {
					return err
				}
				switch k {
				case 0:
					p.index = b
				case 1:
					p.sizes = b
				case 2:
					p.data = b
				}
			}
		}
	}
	return nil
}

// checkPieces makes sure a header's piece list is the named material, so
// probing can trust it.
func checkPieces(pcs []uint8, m *material) error {
	var got [2][7]int
	for _, pc := range pcs {
		c, pt := pc>>3, pc&7
		if pt < 1 || pt > 6 || c > 1 || pc&8 != pc&^7 {
			return fmt.Errorf("bad piece code %d: %w", pc, errCorrupt)
		}
		got[c][pt]++
	}
	if got != m.counts {
		return fmt.Errorf("header pieces do not match the name: %w", errCorrupt)
	}
	return nil
}
