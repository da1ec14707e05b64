package nnue

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// randomNet is a network of today's shape (256 wide, one output bucket)
// with small random weights.
func randomNet(seed uint64) *Net { return randomShape(seed, 256, 1) }

// shapes are the widths and bucket counts the tests run on: today's, the
// widths issue 35 asks for with 8 material buckets, and the smallest.
var shapes = []struct{ hidden, buckets int }{{256, 1}, {384, 8}, {512, 8}, {HiddenStep, 2}}

// randomShape is a network of the given shape with small random weights:
// sums over 32 pieces stay far inside int16.
func randomShape(seed uint64, hidden, buckets int) *Net {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e37))
	n, err := NewNet(hidden, buckets)
	if err != nil {
		panic(err)
	}
	for i := range n.FeatureWeights {
		n.FeatureWeights[i] = int16(rng.IntN(161) - 80)
	}
	for i := range n.FeatureBias {
		n.FeatureBias[i] = int16(rng.IntN(201) - 100)
	}
	for i := range n.OutputWeights {
		n.OutputWeights[i] = int16(rng.IntN(2*MaxOutputWeight+1) - MaxOutputWeight)
	}
	for i := range n.OutputBias {
		n.OutputBias[i] = int32(rng.IntN(2001) - 1000)
	}
	return n
}

// TestUpdateMatchesRefresh plays random games — castling (Chess960 too),
// en passant and promotions included — and checks after every move that
// the accumulator updated move by move equals one computed from scratch.
func TestUpdateMatchesRefresh(t *testing.T) {
	for _, sh := range shapes {
		updateMatchesRefresh(t, randomShape(1, sh.hidden, sh.buckets))
	}
}

func updateMatchesRefresh(t *testing.T, n *Net) {
	rng := rand.New(rand.NewPCG(5, 6))
	starts := []string{
		chess.NewPosition().FEN(),
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	}
	var kinds [4]int // castles, en passant, promotions, captures seen
	for _, fen := range starts {
		for range 40 {
			p, err := chess.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			var acc, next, fresh Accumulator
			n.Refresh(&acc, p)
			var u chess.Undo
			for ply := 0; ply < 120; ply++ {
				var ml chess.MoveList
				if p.GenerateLegal(&ml); ml.N == 0 {
					break
				}
				m := ml.Moves[rng.IntN(ml.N)]
				switch {
				case m.IsCastle():
					kinds[0]++
				case m.IsEnPassant():
					kinds[1]++
				case m.Promotion() != chess.NoPieceType:
					kinds[2]++
				case m.IsCapture():
					kinds[3]++
				}
				n.Update(&next, &acc, m)
				p.MakeMove(m, &u)
				n.Refresh(&fresh, p)
				if next != fresh {
					t.Fatalf("%d wide, after %s in %s: updated accumulator differs from a refresh", n.Hidden, m.UCI(p.Chess960()), fen)
				}
				acc = next
			}
		}
	}
	for i, k := range kinds {
		if k == 0 {
			t.Errorf("the random games never played a %s", [...]string{"castling", "en passant", "promotion", "capture"}[i])
		}
	}
}

// TestEvaluateReference: the 16-bit products and wrapping 32-bit sum give
// the straightforward formula's result wherever that does not overflow.
func TestEvaluateReference(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		sh := shapes[int(seed)%len(shapes)]
		n := randomShape(seed, sh.hidden, sh.buckets)
		for _, fen := range []string{chess.NewPosition().FEN(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", "8/8/4k3/8/8/3K4/8/7R w - - 0 1"} {
			p, _ := chess.ParseFEN(fen)
			var acc Accumulator
			n.Refresh(&acc, p)
			stm := p.SideToMove()
			b := OutputBucket(p.Occupied().Count(), n.Buckets)
			o := n.Output(b)
			var sum int64
			for k, persp := range []chess.Color{stm, stm.Other()} {
				for i, v := range acc.Values[persp][:n.Hidden] {
					a := int64(min(max(v, 0), QA))
					sum += a * a * int64(o[k*n.Hidden+i])
				}
			}
			want := int((sum/QA + int64(n.OutputBias[b])) * Scale / (QA * int64(n.QB)))
			if got := n.Evaluate(&acc, p); got != want {
				t.Errorf("seed %d, %s: %d, want %d", seed, fen, got, want)
			}
		}
	}
}

// TestOutputBucket: 8 buckets split the 30 pieces beside the kings in
// fours, one bucket is always 0, and counts no game reaches stay inside.
func TestOutputBucket(t *testing.T) {
	for _, c := range []struct{ pieces, buckets, want int }{
		{2, 8, 0}, {5, 8, 0}, {6, 8, 1}, {17, 8, 3}, {32, 8, 7}, {33, 8, 7}, {64, 8, 7}, {0, 8, 0},
		{2, 1, 0}, {32, 1, 0}, {64, 1, 0}, {17, 2, 0}, {18, 2, 1}, {32, 32, 30},
	} {
		if got := OutputBucket(c.pieces, c.buckets); got != c.want {
			t.Errorf("OutputBucket(%d, %d) = %d, want %d", c.pieces, c.buckets, got, c.want)
		}
	}
}

// TestMirrorSymmetry: a position and its colour-flipped mirror are the same
// position for the side to move, so the network scores them alike.
func TestMirrorSymmetry(t *testing.T) {
	n := randomShape(9, 384, 8)
	for _, fen := range []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	} {
		p, _ := chess.ParseFEN(fen)
		q, err := chess.ParseFEN(mirrorFEN(fen))
		if err != nil {
			t.Fatal(err)
		}
		var a, b Accumulator
		n.Refresh(&a, p)
		n.Refresh(&b, q)
		if x, y := n.Evaluate(&a, p), n.Evaluate(&b, q); x != y {
			t.Errorf("%s scores %d, its mirror %d", fen, x, y)
		}
	}
}

// mirrorFEN flips the board vertically and swaps the colours.
func mirrorFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		f[2] = swap(f[2])
	}
	if f[3] != "-" {
		f[3] = string(f[3][0]) + string('1'+'8'-rune(f[3][1]))
	}
	return strings.Join(f, " ")
}

func TestFormat(t *testing.T) {
	for _, sh := range shapes {
		n := randomShape(3, sh.hidden, sh.buckets)
		var b bytes.Buffer
		if err := n.Write(&b); err != nil {
			t.Fatal(err)
		}
		if b.Len() != FileSize(sh.hidden, sh.buckets) {
			t.Fatalf("%d bytes written, FileSize %d", b.Len(), FileSize(sh.hidden, sh.buckets))
		}
		m, err := Parse(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m, n) {
			t.Fatalf("%d×%d: the network read back differs", sh.hidden, sh.buckets)
		}
	}
	n := randomNet(3)
	var b bytes.Buffer
	_ = n.Write(&b)
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"damaged", func(d []byte) []byte { d[1000] ^= 1; return d }, "checksum"},
		{"short", func(d []byte) []byte { return d[:len(d)-10] }, "bytes"},
		{"other width", func(d []byte) []byte { d[12] = 200; d[13] = 0; return d }, "hidden width 200"},
		{"too wide", func(d []byte) []byte { d[12] = 0; d[13] = 4; return d }, "hidden 1024"},
		{"no buckets", func(d []byte) []byte { d[28] = 0; return d }, "0 output buckets"},
		{"other version", func(d []byte) []byte { d[4] = 3; return d }, "version 3"},
		{"not a net", func(d []byte) []byte { copy(d, "PK\x03\x04"); return d }, "no SQNN header"},
	} {
		d := c.edit(bytes.Clone(b.Bytes()))
		if _, err := Parse(d); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrFormat with %q", c.name, err, c.want)
		}
	}
	n.OutputWeights[n.Hidden+7] = MaxOutputWeight + 1
	b.Reset()
	_ = n.Write(&b)
	if _, err := Parse(b.Bytes()); err == nil || !strings.Contains(err.Error(), "output weight 263") {
		t.Errorf("an output weight beyond ±%d: %v", MaxOutputWeight, err)
	}
}

func FuzzParse(f *testing.F) {
	var b bytes.Buffer
	_ = randomNet(1).Write(&b)
	f.Add(b.Bytes())
	f.Add([]byte("SQNN"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if n, err := Parse(data); err == nil && n == nil {
			t.Fatal("no network and no error")
		}
	})
}

// TestNoAllocations: the search's per-node steps allocate nothing, on
// either path and at every shape.
func TestNoAllocations(t *testing.T) {
	defer func(avx2 bool) { setAVX2(avx2) }(useAVX2)
	for _, avx2 := range []bool{false, true} {
		if avx2 && !hasAVX2 {
			continue
		}
		setAVX2(avx2)
		for _, sh := range shapes {
			n := randomShape(2, sh.hidden, sh.buckets)
			p := chess.NewPosition()
			var acc, next Accumulator
			n.Refresh(&acc, p)
			m, _ := p.ParseUCI("e2e4")
			var u chess.Undo
			if a := testing.AllocsPerRun(100, func() {
				n.Update(&next, &acc, m)
				p.MakeMove(m, &u)
				_ = n.Evaluate(&next, p)
				p.UnmakeMove(m, &u)
				n.Refresh(&acc, p)
			}); a != 0 {
				t.Errorf("AVX2 %v, %d×%d: %v allocations per update+evaluate+refresh", avx2, sh.hidden, sh.buckets, a)
			}
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	n := randomNet(2)
	p := chess.NewPosition()
	var acc, next Accumulator
	n.Refresh(&acc, p)
	m, _ := p.ParseUCI("g1f3")
	for b.Loop() {
		n.Update(&next, &acc, m)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	n := randomNet(2)
	var acc Accumulator
	p := chess.NewPosition()
	n.Refresh(&acc, p)
	for b.Loop() {
		_ = n.Evaluate(&acc, p)
	}
}

// BenchmarkWide times Update and Evaluate of a 512-wide, 8-bucket network
// (issue 35's widest).
func BenchmarkWide(b *testing.B) {
	n := randomShape(2, 512, 8)
	p := chess.NewPosition()
	var acc, next Accumulator
	n.Refresh(&acc, p)
	m, _ := p.ParseUCI("g1f3")
	b.Run("Update", func(b *testing.B) {
		for b.Loop() {
			n.Update(&next, &acc, m)
		}
	})
	b.Run("Evaluate", func(b *testing.B) {
		for b.Loop() {
			_ = n.Evaluate(&acc, p)
		}
	})
}

func BenchmarkRefresh(b *testing.B) {
	n := randomNet(2)
	p := chess.NewPosition()
	var acc Accumulator
	for b.Loop() {
		n.Refresh(&acc, p)
	}
}

// TestDefault: the built-in network reads, is small, and evaluates.
func TestDefault(t *testing.T) {
	if len(defaultFile) > 2<<20 {
		t.Errorf("the built-in network is %d bytes; keep it well under 2 MB", len(defaultFile))
	}
	n := Default()
	var acc Accumulator
	p := chess.NewPosition()
	n.Refresh(&acc, p)
	if n.Hidden != 256 || n.Buckets != 8 {
		t.Errorf("the built-in network is %d wide with %d buckets, r6-256b8.sqnn's 256 and 8", n.Hidden, n.Buckets)
	}
	if v := n.Evaluate(&acc, p); v < -100 || v > 100 {
		t.Errorf("the built-in network scores the start position %d cp", v)
	}
	if Default() != n {
		t.Error("the built-in network parsed twice")
	}
}
