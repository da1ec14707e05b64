package tablebase

import (
	"encoding/binary"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fuzzFiles are the real tables the fuzz targets corrupt: pawnless and pawn
// tables, WDL and DTZ, symmetric ones (one side-to-move part, shared by
// both colours) and DTZ tables with value maps. The larger ones only feed
// FuzzProbe, whose input is a cut and a few byte flips, not the file.
var fuzzFiles = []string{
	"KQvK.rtbw", "KRvK.rtbw", "KNvKN.rtbw", "KQvK.rtbz", "KPvK.rtbw", "KPvK.rtbz",
	"KRvKR.rtbz", "KBvKP.rtbz", "KQvKQ.rtbz", // small: FuzzOpen seeds too
	"KBNvK.rtbw", "KPPvK.rtbz", "KNvKP.rtbz", "KRPvK.rtbw", "KRvKB.rtbz", "KPvKP.rtbz", "KPPvK.rtbw",
}

const fuzzOpenSeeds = 9 // the first fuzzFiles small enough to mutate whole

var fuzzBase struct {
	once  sync.Once
	tb    *Tablebase
	files [][]byte
	err   error
}

// fuzzSetup opens the real tables once per process (mapped tables stay
// mapped for the process's life, so they must not be reopened per input)
// and reads the files to corrupt.
func fuzzSetup(t testing.TB) (*Tablebase, [][]byte) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(tablesDir, "KQvK.rtbw")); err != nil {
		t.Fatalf("bundled Syzygy tables missing at %s: %v", tablesDir, err)
	}
	fuzzBase.once.Do(func() {
		fuzzBase.tb, fuzzBase.err = Open(tablesDir)
		for _, name := range fuzzFiles {
			data, err := os.ReadFile(filepath.Join(tablesDir, name))
			if err != nil {
				fuzzBase.err = err
				return
			}
			fuzzBase.files = append(fuzzBase.files, data)
		}
	})
	if fuzzBase.err != nil {
		t.Fatal(fuzzBase.err)
	}
	return fuzzBase.tb, fuzzBase.files
}

// withTable returns a copy of base in which the table of the file name is
// the given image (parsed here rather than mapped from disk), and the
// parse error, if any. Every other table is base's, already loaded.
func withTable(base *Tablebase, name string, data []byte) (*Tablebase, *material, error) {
	ext := filepath.Ext(name)
	m, ok := parseMaterial(strings.TrimSuffix(name, ext))
	if !ok {
		panic("bad fuzz table name " + name)
	}
	t := &table{path: name, dtz: ext == ".rtbz", mat: m, key: materialKey(&m.counts)}
	t.once.Do(func() {
		t.data = data
		t.err = t.parse()
	})
	tb := &Tablebase{wdl: maps.Clone(base.wdl), dtz: maps.Clone(base.dtz), maxPieces: base.maxPieces, files: base.files}
	set := tb.wdl
	if t.dtz {
		set = tb.dtz
	}
	sw := m.counts
	sw[0], sw[1] = sw[1], sw[0]
	set[t.key] = t
	set[materialKey(&sw)] = t
	return tb, &m, t.err
}

// probeCorrupt probes random positions of the corrupted table's material
// with every entry point. Errors (ok false) are expected; panics, hangs and
// positions left changed are not.
func probeCorrupt(t *testing.T, tb *Tablebase, m *material, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < 12; i++ {
		p := randomPosition(r, m, i%2 == 1)
		if p == nil {
			continue
		}
		fen := p.FEN()
		tb.ProbeWDL(p)
		tb.ProbeDTZ(p)
		tb.RootMoves(p, i%3 != 0)
		if p.FEN() != fen {
			t.Fatalf("probing changed %s to %s", fen, p.FEN())
		}
	}
}

// FuzzOpen feeds whole table images, starting from small real files, to
// the header parser and then probes through them.
func FuzzOpen(f *testing.F) {
	_, files := fuzzSetup(f)
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < fuzzOpenSeeds; i++ {
		data := files[i]
		f.Add(uint8(i), data, uint64(i))
		f.Add(uint8(i), data[:r.IntN(len(data))], uint64(i))
		flipped := append([]byte(nil), data...)
		flipped[r.IntN(len(flipped))] ^= byte(1 + r.IntN(255))
		f.Add(uint8(i), flipped, uint64(i))
	}
	f.Fuzz(func(t *testing.T, idx uint8, data []byte, seed uint64) {
		base, _ := fuzzSetup(t)
		name := fuzzFiles[int(idx)%fuzzOpenSeeds]
		tb, m, err := withTable(base, name, data)
		if err != nil {
			return // refused at open: fine
		}
		probeCorrupt(t, tb, m, seed)
	})
}

// FuzzProbe corrupts a real table the way damaged downloads are: cut at
// some length and with bytes flipped (flips holds 4-byte records: a 24-bit
// offset and an XOR mask), then probes positions that read it.
func FuzzProbe(f *testing.F) {
	_, files := fuzzSetup(f)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range files {
		f.Add(uint8(i), uint32(0), []byte(nil), uint64(i))
		f.Add(uint8(i), uint32(r.IntN(len(files[i]))), []byte(nil), uint64(i))
		flips := make([]byte, 8)
		for j := range flips {
			flips[j] = byte(r.IntN(256))
		}
		f.Add(uint8(i), uint32(0), flips, uint64(i))
	}
	f.Fuzz(func(t *testing.T, idx uint8, cut uint32, flips []byte, seed uint64) {
		base, files := fuzzSetup(t)
		i := int(idx) % len(files)
		data := append([]byte(nil), files[i]...)
		if cut > 0 && int(cut) < len(data) {
			data = data[:cut]
		}
		for j := 0; j+4 <= len(flips) && j < 4*64; j += 4 {
			off := int(binary.LittleEndian.Uint32(flips[j:j+4])&0xffffff) % len(data)
			data[off] ^= flips[j+3]
		}
		tb, m, err := withTable(base, fuzzFiles[i], data)
		if err != nil {
			return
		}
		if cut == 0 && len(flips) < 4 {
			// The file unchanged: the copy must probe like the original.
			checkSameProbes(t, base, tb, m, seed)
			return
		}
		probeCorrupt(t, tb, m, seed)
	})
}

// checkSameProbes is the harness's own check: an intact image loaded by
// withTable probes exactly like the table opened from disk.
func checkSameProbes(t *testing.T, want, got *Tablebase, m *material, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < 12; i++ {
		p := randomPosition(r, m, i%2 == 1)
		if p == nil {
			continue
		}
		w1, ok1 := want.ProbeWDL(p)
		w2, ok2 := got.ProbeWDL(p)
		d1, okd1 := want.ProbeDTZ(p)
		d2, okd2 := got.ProbeDTZ(p)
		if w1 != w2 || ok1 != ok2 || d1 != d2 || okd1 != okd2 {
			t.Fatalf("%s (%s): intact copy probes wdl %d %v dtz %d %v, the original wdl %d %v dtz %d %v",
				p.FEN(), m.name, w2, ok2, d2, okd2, w1, ok1, d1, okd1)
		}
	}
}

// TestDTZNeitherSide: a DTZ table whose side-to-move flag is corrupt so
// that it holds neither side (possible for symmetric pawn tables, whose
// both sides share one part) made ProbeDTZ search one ply, then another,
// without end until the stack overflowed. Now the probe fails.
func TestDTZNeitherSide(t *testing.T) {
	base, files := fuzzSetup(t)
	i := slices.Index(fuzzFiles, "KPvKP.rtbz")
	tb, m, err := withTable(base, fuzzFiles[i], files[i])
	if err != nil {
		t.Fatal(err)
	}
	tab := tb.dtz[materialKey(&m.counts)]
	for f := range tab.parts {
		tab.parts[f][0].flags ^= 1 // as a flipped bit in the file would
	}
	r := rand.New(rand.NewPCG(1, 1))
	failed := 0
	for range 200 {
		p := randomPosition(r, m, false)
		if p == nil {
			continue
		}
		if _, ok := tb.ProbeDTZ(p); !ok {
			failed++
		}
		tb.RootMoves(p, true)
	}
	if failed == 0 {
		t.Errorf("no probe needed the corrupt table: the test did not exercise it")
	}
}
