package search

import (
	"context"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

func game(t testing.TB, fen string, moves ...string) engine.Game {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.Game{Start: p.Clone()}
	var u chess.Undo
	for _, s := range moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &u)
	}
	return g
}

func TestSearchStartDepth(t *testing.T) {
	s := New()
	var infos []engine.Info
	res, err := s.Search(context.Background(), game(t, chess.StartFEN), engine.Limits{Depth: 8}, func(in engine.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove == chess.NullMove || len(infos) != 8 {
		t.Fatalf("best %v infos %d", res.BestMove, len(infos))
	}
	for _, in := range infos {
		t.Logf("depth %d score %v nodes %d pv %v", in.Depth, in.Score, in.Nodes, in.PV)
	}
}

func BenchmarkSearchKiwipete(b *testing.B) {
	s := New()
	g := game(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10")
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		s.NewGame()
		res, err := s.Search(context.Background(), g, engine.Limits{Depth: 9}, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Last.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nps")
}
