package serve

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// fakeEngine is an Analyzer that deepens by one ply every tick, reporting
// the first legal move as its PV, so tests can watch analysis flow without
// depending on the real search's speed.
type fakeEngine struct {
	tick     time.Duration
	searches atomic.Int64
	closed   atomic.Bool
}

func (f *fakeEngine) Name() string                     { return "Fake 1.0" }
func (f *fakeEngine) Options() []engine.Option         { return nil }
func (f *fakeEngine) SetOption(name, val string) error { return nil }
func (f *fakeEngine) NewGame() error                   { return nil }
func (f *fakeEngine) PonderHit()                       {}
func (f *fakeEngine) Close() error                     { f.closed.Store(true); return nil }

func (f *fakeEngine) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	f.searches.Add(1)
	p, err := g.Position()
	if err != nil {
		return engine.Result{}, err
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		return engine.Result{}, nil
	}
	t := time.NewTicker(f.tick)
	defer t.Stop()
	var last engine.Info
	for depth := 1; ; depth++ {
		select {
		case <-ctx.Done():
			return engine.Result{BestMove: ml.Moves[0], Last: last}, nil
		case <-t.C:
		}
		last = engine.Info{Depth: depth, SelDepth: depth + 2, MultiPV: 1, Score: engine.Score{CP: 10 * depth},
			Nodes: uint64(depth) * 1000, NPS: 1000, PV: []chess.Move{ml.Moves[0]}}
		if info != nil {
			info(last)
		}
		if lim.Depth > 0 && depth >= lim.Depth {
			return engine.Result{BestMove: ml.Moves[0], Last: last}, nil
		}
	}
}
