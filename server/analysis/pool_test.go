package analysis

import (
	"context"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

func game(t *testing.T, sans ...string) engine.Game {
	t.Helper()
	g := engine.Game{Start: chess.NewPosition()}
	p := g.Start.Clone()
	var u chess.Undo
	for _, s := range sans {
		m, err := p.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &u)
	}
	return g
}

// final waits for a finished analysis on ch.
func final(t *testing.T, ch <-chan Result) Result {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case r := <-ch:
			if r.Done {
				return r
			}
		case <-deadline:
			t.Fatal("no finished analysis")
		}
	}
}

// gated is an engine whose searches wait at a gate: the test knows when
// each has begun and lets them go.
type gated struct {
	*enginetest.Engine
	entered chan struct{}
	gate    chan struct{}
}

func (g *gated) Search(ctx context.Context, gm engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	g.entered <- struct{}{}
	<-g.gate
	return g.Engine.Search(ctx, gm, lim, info)
}

// TestPool: a watched game's position is analysed to the budget and left;
// an unwatched game costs no search; the watched games share all the
// pool's engines at once.
func TestPool(t *testing.T) {
	entered, gate := make(chan struct{}), make(chan struct{})
	e1 := &gated{&enginetest.Engine{}, entered, gate}
	e2 := &gated{&enginetest.Engine{}, entered, gate}
	p := New([]engine.Analyzer{e1, e2}, engine.Limits{Depth: 4, MultiPV: 2})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	p.Analyse("nobody-watches", game(t, "e4"))
	var chans []<-chan Result
	for i, id := range []string{"a", "b", "c", "d"} {
		ch, stop := p.Watch(id)
		defer stop()
		chans = append(chans, ch)
		p.Analyse(id, game(t, []string{"e4", "d4", "c4", "Nf3"}[i]))
	}
	// Both engines take a game before either finishes.
	for range 2 {
		select {
		case <-entered:
		case <-time.After(10 * time.Second):
			t.Fatal("the pool did not put both engines to work")
		}
	}
	go func() {
		for range 4 {
			gate <- struct{}{}
		}
	}()
	go func() { // the other two searches' entries
		for range 2 {
			<-entered
		}
	}()
	for i, ch := range chans {
		r := final(t, ch)
		if r.Err != nil || len(r.Lines) != 2 || r.Lines[0].Depth != 4 || len(r.Game.Moves) != 1 {
			t.Errorf("game %d: %+v", i, r)
		}
	}
	if n := e1.Searches() + e2.Searches(); n != 4 {
		t.Errorf("%d searches for 4 watched positions", n)
	}
}

// TestNewerPosition: a game that moves on while its old position waits is
// analysed at its newest position only.
func TestNewerPosition(t *testing.T) {
	e := &enginetest.Engine{Tick: 20 * time.Millisecond}
	p := New([]engine.Analyzer{e}, engine.Limits{Depth: 3})
	ch, stop := p.Watch("g")
	defer stop()
	p.Analyse("g", game(t, "e4"))
	p.Analyse("g", game(t, "e4", "e5"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	if r := final(t, ch); len(r.Game.Moves) != 2 {
		t.Errorf("analysed %d moves, want the newest position's 2", len(r.Game.Moves))
	}
	if e.Searches() != 1 {
		t.Errorf("%d searches; the older position should have been dropped", e.Searches())
	}
}

// run runs p until the test ends.
func run(t *testing.T, p *Pool) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

// next is the next result on ch.
func next(t *testing.T, ch <-chan Result) Result {
	t.Helper()
	select {
	case r, ok := <-ch:
		if !ok {
			t.Fatal("the results' channel closed")
		}
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no result")
	}
	return Result{}
}

// TestFinishedKept is issue 33's G2: a position analysed to the budget is
// kept — a second spectator joining it gets the finished analysis, not a
// search started again (it showed "analysed … 2.0M nodes", then
// "analysing depth 17/20 113k").
func TestFinishedKept(t *testing.T) {
	e := &enginetest.Engine{}
	p := New([]engine.Analyzer{e}, engine.Limits{Depth: 4, MultiPV: 2})
	run(t, p)
	first, stop := p.Watch("g")
	defer stop()
	g := game(t, "e4", "e5")
	p.Analyse("g", g)
	done := final(t, first)
	second, stop2 := p.Watch("g")
	defer stop2()
	p.Analyse("g", game(t, "e4", "e5")) // the second spectator's screen asks
	if r := next(t, second); !r.Done || r.Lines[0].Depth != 4 || r.Lines[0].Nodes != done.Lines[0].Nodes {
		t.Errorf("the second spectator got depth %d, %d nodes, done %v; want the finished depth 4, %d nodes",
			r.Lines[0].Depth, r.Lines[0].Nodes, r.Done, done.Lines[0].Nodes)
	}
	if n := e.Searches(); n != 1 {
		t.Errorf("%d searches of one position", n)
	}
}

// TestSamePositionNotRestarted is issue 33's G2: asking again for the
// position being analysed (another spectator's screen, another update of
// the same position) does not start its search again, so the counters a
// spectator sees never go back (they ran backwards between updates).
func TestSamePositionNotRestarted(t *testing.T) {
	e := &enginetest.Engine{Tick: 10 * time.Millisecond}
	p := New([]engine.Analyzer{e}, engine.Limits{Depth: 8})
	run(t, p)
	ch, stop := p.Watch("g")
	defer stop()
	p.Analyse("g", game(t, "d4"))
	var last Result
	for last.Lines == nil || last.Lines[0].Depth < 2 {
		last = next(t, ch)
	}
	p.Analyse("g", game(t, "d4"))
	for !last.Done {
		r := next(t, ch)
		if r.Lines[0].Depth < last.Lines[0].Depth || r.Lines[0].Nodes < last.Lines[0].Nodes || r.Lines[0].Time < last.Lines[0].Time {
			t.Fatalf("the counters went back: depth %d, %d nodes, %v after depth %d, %d nodes, %v",
				r.Lines[0].Depth, r.Lines[0].Nodes, r.Lines[0].Time, last.Lines[0].Depth, last.Lines[0].Nodes, last.Lines[0].Time)
		}
		last = r
	}
	if n := e.Searches(); n != 1 {
		t.Errorf("%d searches of one position", n)
	}
}

// stuck is an engine whose search of the position after 1. e4 ends only
// when it is stopped.
type stuck struct{ *enginetest.Engine }

func (s stuck) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	if len(g.Moves) == 1 {
		<-ctx.Done()
		return engine.Result{}, ctx.Err()
	}
	return s.Engine.Search(ctx, g, lim, info)
}

// TestMovedOnStopsSearch: a game that moves on stops the search of its
// old position (the spectators saw the old position's numbers for the
// seconds it took to finish), and the search stopped is no finished
// analysis of it.
func TestMovedOnStopsSearch(t *testing.T) {
	p := New([]engine.Analyzer{stuck{&enginetest.Engine{}}}, engine.Limits{Depth: 3})
	run(t, p)
	ch, stop := p.Watch("g")
	defer stop()
	p.Analyse("g", game(t, "e4"))
	time.Sleep(10 * time.Millisecond) // let the search of 1. e4 begin (the test holds either way)
	p.Analyse("g", game(t, "e4", "e5"))
	if r := final(t, ch); len(r.Game.Moves) != 2 || r.Err != nil {
		t.Errorf("analysed %d moves (%v), want the newest position's 2", len(r.Game.Moves), r.Err)
	}
}

// TestResultKey: every result names the position it is of (Key), which
// tells two positions of the same ply apart.
func TestResultKey(t *testing.T) {
	a, b := game(t, "e4", "e5"), game(t, "d4", "d5")
	if Key(a) == Key(b) || Key(a) != Key(game(t, "e4", "e5")) {
		t.Errorf("keys %q and %q", Key(a), Key(b))
	}
	if (Result{Game: a}).Key() != Key(a) {
		t.Error("a result's key is not its game's")
	}
}

// TestPVsCopied: the lines a spectator gets are the engine's lines as
// reported, even from an engine that reuses its PV slice — the pool owns
// copies of them.
func TestPVsCopied(t *testing.T) {
	e := &enginetest.Engine{ReusePV: true}
	p := New([]engine.Analyzer{e}, engine.Limits{Depth: 3, MultiPV: 2})
	run(t, p)
	ch, stop := p.Watch("g")
	defer stop()
	g := game(t, "e4")
	p.Analyse("g", g)
	r := final(t, ch)
	pos, _ := g.Position()
	if len(r.Lines) != 2 {
		t.Fatalf("%d lines, want 2", len(r.Lines))
	}
	for k, l := range r.Lines {
		if len(l.PV) == 0 || !pos.IsLegal(l.PV[0]) {
			t.Fatalf("line %d: PV %v is not the engine's line", k+1, l.PV)
		}
	}
	if r.Lines[0].PV[0] == r.Lines[1].PV[0] {
		t.Errorf("both lines begin with %v", r.Lines[0].PV[0])
	}
}
