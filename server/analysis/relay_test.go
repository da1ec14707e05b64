package analysis_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/store"
)

// counting counts its searches.
type counting struct {
	*enginetest.Engine
	n atomic.Int32
}

func (c *counting) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	c.n.Add(1)
	return c.Engine.Search(ctx, g, lim, info)
}

// TestRelay (issue 22): a game hosted on server A and watched on B is
// analysed once, by A's pool; B's spectator gets A's results, their lines
// legal in the position asked for; B's own pool, which hosts nothing,
// never searches.
func TestRelay(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	defer cancel()
	start := func(name string, hosts bool) (*analysis.Relay, *counting) {
		e := &counting{Engine: &enginetest.Engine{}}
		pool := analysis.New([]engine.Analyzer{e}, engine.Limits{Depth: 3, MultiPV: 2})
		go pool.Run(ctx)
		r := analysis.NewRelay(pool, st.Conn(), func(id string) bool { return hosts && id == "g1" })
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		t.Cleanup(func() {
			if err := <-done; err != nil {
				t.Errorf("%s: %v", name, err)
			}
		})
		return r, e
	}
	_, onA := start("a", true)
	b, onB := start("b", false)
	results, stop := b.Watch("g1")
	defer stop()
	g := engine.Game{Start: chess.NewPosition()}
	p := g.Start.Clone()
	var u chess.Undo
	for _, s := range []string{"e4", "e5", "Nf3"} {
		m, _ := p.ParseSAN(s)
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &u)
	}
	var res analysis.Result
	for deadline := time.After(10 * time.Second); !res.Done; {
		b.Analyse("g1", g) // as B's screen does at each move it shows; the first may come before A's Run listens
		select {
		case res = <-results:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("no finished analysis on B")
		}
	}
	if len(res.Game.Moves) != 3 || len(res.Lines) == 0 || len(res.Lines[0].PV) == 0 {
		t.Fatalf("B got %+v", res)
	}
	q, _ := res.Game.Position()
	for _, m := range res.Lines[0].PV {
		if !q.IsLegal(m) {
			t.Fatalf("an illegal move %v in the line", m)
		}
		q.MakeMove(m, &u)
	}
	if onA.n.Load() != 1 || onB.n.Load() != 0 {
		t.Errorf("searches: %d on the host, %d on B; want 1 and 0", onA.n.Load(), onB.n.Load())
	}
	// A spectator joining on a third server gets the finished analysis,
	// not a search started again (issue 33, G2).
	c, onC := start("c", false)
	later, stopLater := c.Watch("g1")
	defer stopLater()
	var got analysis.Result
	for deadline := time.After(10 * time.Second); got.Lines == nil; {
		c.Analyse("g1", g)
		select {
		case got = <-later:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("no analysis on C")
		}
	}
	if !got.Done || got.Lines[0].Nodes != res.Lines[0].Nodes || got.Key() != analysis.Key(g) {
		t.Errorf("C's first result: done %v, %d nodes, of %q; want the finished one, %d nodes, of %q",
			got.Done, got.Lines[0].Nodes, got.Key(), res.Lines[0].Nodes, analysis.Key(g))
	}
	if onA.n.Load() != 1 || onC.n.Load() != 0 {
		t.Errorf("searches: %d on the host, %d on C; want 1 and 0", onA.n.Load(), onC.n.Load())
	}
}
