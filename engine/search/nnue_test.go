package search

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/nnue"
)

// TestCancelledSearchMoves: a search cancelled before it starts ("go" then
// "stop" at once) still completes depth 1 and answers with a searched
// move, not none (the UCI server then had to play its first legal move,
// a2a3).
func TestCancelledSearchMoves(t *testing.T) {
	s := New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := game(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	res, err := s.Search(ctx, g, engine.Limits{Infinite: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove == chess.NullMove || res.Last.Depth < 1 {
		t.Fatalf("cancelled search: best %v at depth %d", res.BestMove, res.Last.Depth)
	}
}

// netFile writes a network with small random weights and returns its path.
func netFile(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	n, err := nnue.NewNet(256, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n.FeatureWeights {
		n.FeatureWeights[i] = int16(rng.IntN(121) - 60)
	}
	for i := range n.FeatureBias {
		n.FeatureBias[i] = int16(rng.IntN(101) - 20)
		n.OutputWeights[i] = int16(rng.IntN(2*nnue.MaxOutputWeight+1) - nnue.MaxOutputWeight)
		n.OutputWeights[n.Hidden+i] = int16(rng.IntN(2*nnue.MaxOutputWeight+1) - nnue.MaxOutputWeight)
	}
	var b bytes.Buffer
	if err := n.Write(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "random.sqnn")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUseNNUE: the options' rules, and a search that evaluates with the
// network: its accumulators, updated move by move through the tree (null
// moves, captures, castling, promotions), equal a refresh at every
// evaluated node.
func TestUseNNUE(t *testing.T) {
	hceSearcher := New()
	if err := hceSearcher.SetOption("UseNNUE", "false"); err != nil {
		t.Fatal(err)
	}
	hce, _ := run(t, hceSearcher, game(t, chess.StartFEN), engine.Limits{Depth: 6})
	// The built-in network, on by default with no EvalFile (a new
	// searcher's first search starts from an empty table and history, as
	// after NewGame).
	s := New()
	builtin, _ := run(t, s, game(t, chess.StartFEN), engine.Limits{Depth: 6})
	if builtin.Last.Score == hce.Last.Score && builtin.Last.Nodes == hce.Last.Nodes {
		t.Error("the default search scores and searches exactly as the hand-crafted one")
	}
	if err := s.SetOption("UseNNUE", "true"); err != nil {
		t.Fatal(err)
	}
	s.NewGame()
	if on, _ := run(t, s, game(t, chess.StartFEN), engine.Limits{Depth: 6}); on.Last.Nodes != builtin.Last.Nodes || on.Last.Score != builtin.Last.Score {
		t.Error("UseNNUE true searched differently from the default: the network is not on by default")
	}
	// A file that is missing, damaged or cut short is refused, and the
	// network stays the one there was.
	good := netFile(t)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(t.TempDir(), "damaged.sqnn")
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)/2] ^= 1
	short := filepath.Join(t.TempDir(), "short.sqnn")
	if err := os.WriteFile(damaged, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, data[:len(data)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		filepath.Join(t.TempDir(), "missing.sqnn"): "no such file",
		damaged: "checksum",
		short:   "bytes, want",
	} {
		if err := s.SetOption("EvalFile", file); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("EvalFile %s: %v, want an error saying %q", filepath.Base(file), err, want)
		}
	}
	s.NewGame() // each comparison from an empty table and history
	if again, _ := run(t, s, game(t, chess.StartFEN), engine.Limits{Depth: 6}); again.Last.Nodes != builtin.Last.Nodes || again.Last.Score != builtin.Last.Score {
		t.Error("a refused EvalFile changed the network")
	}
	if err := s.SetOption("EvalFile", good); err != nil {
		t.Fatal(err)
	}
	s.checkNNUE = true // evaluate compares each accumulator with a refresh
	for _, fen := range []string{
		chess.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	} {
		res, _ := run(t, s, game(t, fen), engine.Limits{Depth: 6})
		if res.BestMove == chess.NullMove {
			t.Errorf("%s: no move", fen)
		}
	}
	s.NewGame()
	res, _ := run(t, s, game(t, chess.StartFEN), engine.Limits{Depth: 6})
	if res.Last.Score == builtin.Last.Score && res.Last.Nodes == builtin.Last.Nodes {
		t.Error("the search with EvalFile's network searches exactly as with the built-in one: EvalFile is not used")
	}
	if err := s.SetOption("EvalFile", ""); err != nil {
		t.Fatal(err)
	}
	s.NewGame()
	if back, _ := run(t, s, game(t, chess.StartFEN), engine.Limits{Depth: 6}); back.Last.Nodes != builtin.Last.Nodes {
		t.Error("EvalFile empty did not bring the built-in network back")
	}
}

// TestLevelsKeepHandCrafted: a limited strength (UCI_Elo, Skill Level)
// searches with the hand-crafted evaluation its levels were calibrated
// with, UseNNUE or not; full strength uses the network.
func TestLevelsKeepHandCrafted(t *testing.T) {
	search := func(opts ...string) engine.Result {
		s := New()
		for i := 0; i < len(opts); i += 2 {
			if err := s.SetOption(opts[i], opts[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		res, _ := run(t, s, game(t, chess.StartFEN), engine.Limits{Depth: 5})
		return res
	}
	for _, weak := range [][]string{{"UCI_LimitStrength", "true", "UCI_Elo", "2400"}, {"Skill Level", "15"}} {
		hce := search(append([]string{"UseNNUE", "false"}, weak...)...)
		net := search(weak...) // the network is on by default
		if hce.Last.Nodes != net.Last.Nodes || hce.Last.Score != net.Last.Score {
			t.Errorf("%v: with UseNNUE %d nodes, score %v; without %d, %v", weak, net.Last.Nodes, net.Last.Score, hce.Last.Nodes, hce.Last.Score)
		}
	}
	if full, hce := search(), search("UseNNUE", "false"); full.Last.Nodes == hce.Last.Nodes && full.Last.Score == hce.Last.Score {
		t.Error("at full strength UseNNUE searched as the hand-crafted evaluation does")
	}
}
