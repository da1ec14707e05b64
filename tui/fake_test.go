package tui

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// fakeEngine is a deterministic Analyzer: it "deepens" one ply per tick and
// reports, for each MultiPV line k, the k-th legal move followed by the
// first legal reply, with a score of 10·depth − 20·k centipawns. Its best
// move is the first legal move unless prefer returns another.
type fakeEngine struct {
	tick     time.Duration
	maxDepth int // 0: until cancelled
	searches atomic.Int64
	active   atomic.Int64
	overlap  atomic.Bool // set if two searches ever ran at once
}

func (f *fakeEngine) Name() string                     { return "Fake 1.0" }
func (f *fakeEngine) Options() []engine.Option         { return nil }
func (f *fakeEngine) SetOption(name, val string) error { return nil }
func (f *fakeEngine) NewGame() error                   { return nil }
func (f *fakeEngine) PonderHit()                       {}
func (f *fakeEngine) Close() error                     { return nil }

func (f *fakeEngine) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	f.searches.Add(1)
	if f.active.Add(1) > 1 {
		f.overlap.Store(true)
	}
	defer f.active.Add(-1)
	p, err := g.Position()
	if err != nil {
		return engine.Result{}, err
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		return engine.Result{}, nil
	}
	maxDepth := f.maxDepth
	if lim.Depth > 0 && (maxDepth == 0 || lim.Depth < maxDepth) {
		maxDepth = lim.Depth
	}
	if maxDepth == 0 && !lim.Infinite {
		maxDepth = 3
	}
	best := ml.Moves[0]
	var last engine.Info
	for depth := 1; maxDepth == 0 || depth <= maxDepth; depth++ {
		if f.tick > 0 {
			t := time.NewTimer(f.tick)
			select {
			case <-ctx.Done():
				t.Stop()
				return engine.Result{BestMove: best, Last: last}, nil
			case <-t.C:
			}
		} else if ctx.Err() != nil {
			return engine.Result{BestMove: best, Last: last}, nil
		}
		for k := 0; k < max(1, lim.MultiPV) && k < ml.N; k++ {
			last = fakeInfo(p, ml.Moves[k], depth, k)
			if info != nil {
				info(last)
			}
		}
	}
	return engine.Result{BestMove: best, Last: last}, nil
}

// fakeInfo builds the report of line k at depth.
func fakeInfo(p *chess.Position, m chess.Move, depth, k int) engine.Info {
	pv := []chess.Move{m}
	q := p.Clone()
	var u chess.Undo
	q.MakeMove(m, &u)
	var ml chess.MoveList
	q.GenerateLegal(&ml)
	if ml.N > 0 {
		pv = append(pv, ml.Moves[0])
	}
	return engine.Info{Depth: depth, SelDepth: depth + 3, MultiPV: k + 1,
		Score: engine.Score{CP: 10*depth - 20*k}, Nodes: uint64(depth) * 12345,
		NPS: 1_000_000, HashFull: 17, Time: time.Duration(depth) * 100 * time.Millisecond, PV: pv}
}
