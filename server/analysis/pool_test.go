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
