package nnue

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// randomNet is a network with small random weights: sums over 32 pieces
// stay far inside int16.
func randomNet(seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e37))
	n := &Net{QB: QB}
	for f := range n.FeatureWeights {
		for i := range n.FeatureWeights[f] {
			n.FeatureWeights[f][i] = int16(rng.IntN(161) - 80)
		}
	}
	for i := range n.FeatureBias {
		n.FeatureBias[i] = int16(rng.IntN(201) - 100)
		n.OutputWeights[0][i] = int16(rng.IntN(2*MaxOutputWeight+1) - MaxOutputWeight)
		n.OutputWeights[1][i] = int16(rng.IntN(2*MaxOutputWeight+1) - MaxOutputWeight)
	}
	n.OutputBias = int32(rng.IntN(2001) - 1000)
	return n
}

// TestUpdateMatchesRefresh plays random games — castling (Chess960 too),
// en passant and promotions included — and checks after every move that
// the accumulator updated move by move equals one computed from scratch.
func TestUpdateMatchesRefresh(t *testing.T) {
	n := randomNet(1)
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
					t.Fatalf("after %s in %s: updated accumulator differs from a refresh", m.UCI(p.Chess960()), fen)
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
		n := randomNet(seed)
		for _, fen := range []string{chess.NewPosition().FEN(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", "8/8/4k3/8/8/3K4/8/7R w - - 0 1"} {
			p, _ := chess.ParseFEN(fen)
			var acc Accumulator
			n.Refresh(&acc, p)
			stm := p.SideToMove()
			var sum int64
			for k, persp := range []chess.Color{stm, stm.Other()} {
				for i, v := range acc.Values[persp] {
					a := int64(min(max(v, 0), QA))
					sum += a * a * int64(n.OutputWeights[k][i])
				}
			}
			want := int((sum/QA + int64(n.OutputBias)) * Scale / (QA * int64(n.QB)))
			if got := n.Evaluate(&acc, stm); got != want {
				t.Errorf("seed %d, %s: %d, want %d", seed, fen, got, want)
			}
		}
	}
}

// TestMirrorSymmetry: a position and its colour-flipped mirror are the same
// position for the side to move, so the network scores them alike.
func TestMirrorSymmetry(t *testing.T) {
	n := randomNet(9)
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
		if x, y := n.Evaluate(&a, p.SideToMove()), n.Evaluate(&b, q.SideToMove()); x != y {
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
	n := randomNet(3)
	var b bytes.Buffer
	if err := n.Write(&b); err != nil {
		t.Fatal(err)
	}
	if b.Len() != FileSize {
		t.Fatalf("%d bytes written, FileSize %d", b.Len(), FileSize)
	}
	m, err := Parse(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if *m != *n {
		t.Fatal("the network read back differs")
	}
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"damaged", func(d []byte) []byte { d[1000] ^= 1; return d }, "checksum"},
		{"short", func(d []byte) []byte { return d[:len(d)-10] }, "bytes"},
		{"other width", func(d []byte) []byte { d[12] = 128; d[13] = 0; return d }, "hidden 128"},
		{"not a net", func(d []byte) []byte { copy(d, "PK\x03\x04"); return d }, "no SQNN header"},
	} {
		d := c.edit(bytes.Clone(b.Bytes()))
		if _, err := Parse(d); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrFormat with %q", c.name, err, c.want)
		}
	}
	n.OutputWeights[1][7] = MaxOutputWeight + 1
	b.Reset()
	_ = n.Write(&b)
	if _, err := Parse(b.Bytes()); err == nil || !strings.Contains(err.Error(), "output weight 7") {
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

// TestNoAllocations: the search's per-node steps allocate nothing.
func TestNoAllocations(t *testing.T) {
	n := randomNet(2)
	p := chess.NewPosition()
	var acc, next Accumulator
	n.Refresh(&acc, p)
	m, _ := p.ParseUCI("e2e4")
	if a := testing.AllocsPerRun(100, func() {
		n.Update(&next, &acc, m)
		_ = n.Evaluate(&next, chess.Black)
		n.Refresh(&acc, p)
	}); a != 0 {
		t.Errorf("%v allocations per update+evaluate+refresh", a)
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
	n.Refresh(&acc, chess.NewPosition())
	for b.Loop() {
		_ = n.Evaluate(&acc, chess.White)
	}
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
	if v := n.Evaluate(&acc, p.SideToMove()); v < -100 || v > 100 {
		t.Errorf("the built-in network scores the start position %d cp", v)
	}
	if Default() != n {
		t.Error("the built-in network parsed twice")
	}
}
