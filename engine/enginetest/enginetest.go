// Package enginetest provides a scriptable engine.Analyzer for the tests of
// code that drives engines: the TUI, the SSH rooms, game review, the UCI
// server, the suite and match runners. It is to the engine seam what
// net/http/httptest is to HTTP: a real implementation of the interface
// whose every answer a test can predict, together with helpers that build
// the games such a test searches.
//
// Engine's zero value is a deterministic engine that deepens one ply at a
// time and plays the first legal move. Its fields make it slow (Tick),
// late however soon it is stopped (Lag), shallow (MaxDepth), opinionated
// (Best, Score), scripted (Script), sparing with its allocations (ReusePV)
// or hold an infinite or ponder search until it is stopped (WaitForStop),
// as a UCI engine must. It records
// what it is asked (Searches, Limits, Settings, NewGames, Closed) and
// notices when the Analyzer contract is broken (Misuse), so that a test
// can check the code under test as well as its output.
package enginetest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// DefaultDepth is the last depth of a search that has no depth limit from
// its Limits or the Engine's MaxDepth and is not infinite: a move-time or
// clock search, which a fake engine cannot spend for real.
const DefaultDepth = 3

// Engine is a fake engine.Analyzer. Each search reports, at every depth
// from 1 to its last, one Line per MultiPV line: line 1 starts with the
// best move, the others with the other legal moves in generation order.
// It then returns the best move (and no ponder move) with its last report
// of line 1. Without legal moves a search returns an empty Result at once.
//
// The exported fields change what it does. Set them before the first
// search, or between two searches when the test's own synchronisation
// orders the change before the next search starts (as sending the command
// that starts it through a pipe does); the race detector reports one that
// is not. The methods are safe for concurrent use.
type Engine struct {
	// ID is what Name returns; "" stands for "Fake 1.0".
	ID string
	// Opts is what Options returns. SetOption accepts only these names.
	Opts []engine.Option
	// Tick is how long each depth takes: a search waits this long, or
	// until it is stopped, before it reports a depth. Zero reports at
	// once, checking only before each depth whether it was stopped; a long
	// Tick (time.Hour) makes a search that ends only when stopped.
	Tick time.Duration
	// Lag is how long every search waits before its first depth without
	// looking at its context: an engine that answers late however soon it
	// is stopped, as a hung or overloaded one does, for testing deadlines
	// and time forfeits. Tick, by contrast, ends when the search is
	// stopped.
	Lag time.Duration
	// MaxDepth is the deepest any search goes; zero sets no cap. A search
	// ends at the lower of MaxDepth and Limits.Depth; with neither, an
	// infinite search runs until it is stopped and any other ends at
	// DefaultDepth.
	MaxDepth int
	// WaitForStop makes an infinite search, once it has reported its last
	// depth, wait until it is stopped, and a ponder search wait until
	// PonderHit or stop, as UCI requires of an engine. Without it such a
	// search returns after its last depth like any other.
	WaitForStop bool
	// Best, if set, chooses the best move in p, the position the game g
	// reaches; chess.NullMove leaves the first legal move. A move that is
	// not legal in p, or an error, ends the search with an error.
	Best func(g engine.Game, p *chess.Position) (chess.Move, error)
	// Score, if set, replaces the score of line k (0 for the best) at
	// depth, from the side to move's point of view.
	Score func(g engine.Game, depth, k int) engine.Score
	// Script, if set, replaces the reports of a search of g: it reports
	// the returned ones in order, one a Tick, as they are. The last one
	// with a PV and a MultiPV of at most 1 is the result's Last, and the
	// first move of its PV the best move; without one the best move is as
	// without a script. An empty script makes a search that reports
	// nothing, as one stopped before its first depth. The moves are not
	// checked, so a script can make the best move an illegal one or
	// chess.NullMove, as a broken engine's bestmove may be.
	Script func(g engine.Game) []engine.Info
	// ReusePV makes every report's PV one slice, overwritten by the next
	// report and cleared once the callback returns, as an engine that
	// avoids allocations may (the seam allows it): a caller that keeps a
	// PV without copying it shows moves that are not the engine's.
	ReusePV bool
	// Err, if set, is returned by every search of a position with legal
	// moves, along with its result.
	Err error

	mu       sync.Mutex
	searches int
	active   int
	newGames int
	closed   bool
	misuse   error
	limits   []engine.Limits
	settings []string
	hit      chan struct{} // closed by PonderHit; nil when no search waits for one
}

var _ engine.Analyzer = (*Engine)(nil)

// Name returns ID, or "Fake 1.0" when ID is empty.
func (e *Engine) Name() string {
	if e.ID == "" {
		return "Fake 1.0"
	}
	return e.ID
}

// Options returns Opts.
func (e *Engine) Options() []engine.Option { return e.Opts }

// Search runs a search as the Engine's fields describe.
func (e *Engine) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	hit := e.begin(lim)
	defer e.end(hit)
	time.Sleep(e.Lag) // deaf to ctx: Lag is an engine that overruns its stop
	p, err := g.Position()
	if err != nil {
		return engine.Result{}, err
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		return engine.Result{}, nil
	}
	best, err := e.bestMove(g, p, &ml)
	if err != nil {
		return engine.Result{}, err
	}
	if info == nil {
		info = func(engine.Info) {}
	}
	if e.ReusePV {
		info = reusing(info)
	}
	res := engine.Result{BestMove: best}
	var done bool
	if e.Script != nil {
		done = e.playScript(ctx, g, &res, info)
	} else {
		done = e.deepen(ctx, g, p, lim, ml.Slice(), &res, info)
	}
	if done && e.WaitForStop {
		hold(ctx, lim, hit)
	}
	return res, e.Err
}

// reusing passes each report on with its PV in one slice, cleared once
// report returns (ReusePV).
func reusing(report func(engine.Info)) func(engine.Info) {
	var buf []chess.Move
	return func(in engine.Info) {
		buf = append(buf[:0], in.PV...)
		in.PV = buf
		report(in)
		clear(buf)
	}
}

// bestMove is the first legal move, or the one Best chooses.
func (e *Engine) bestMove(g engine.Game, p *chess.Position, legal *chess.MoveList) (chess.Move, error) {
	if e.Best == nil {
		return legal.Moves[0], nil
	}
	m, err := e.Best(g, p)
	switch {
	case err != nil:
		return chess.NullMove, fmt.Errorf("enginetest: best move: %w", err)
	case m == chess.NullMove:
		return legal.Moves[0], nil
	case !legal.Contains(m):
		return chess.NullMove, fmt.Errorf("enginetest: best move %s is not legal in %s", m.UCI(p.Chess960()), p.FEN())
	}
	return m, nil
}

// playScript reports the Script's infos, keeping the last full line 1 in
// res; it returns false if the search was stopped before the end.
func (e *Engine) playScript(ctx context.Context, g engine.Game, res *engine.Result, info func(engine.Info)) bool {
	for _, in := range e.Script(g) {
		if !e.tick(ctx) {
			return false
		}
		info(in)
		if len(in.PV) > 0 && in.MultiPV <= 1 {
			res.BestMove, res.Last = in.PV[0], in
		}
	}
	return true
}

// deepen reports the Lines of every depth, keeping the last line 1 in res;
// it returns false if the search was stopped before its last depth.
func (e *Engine) deepen(ctx context.Context, g engine.Game, p *chess.Position, lim engine.Limits, legal []chess.Move, res *engine.Result, info func(engine.Info)) bool {
	lines := firstLines(legal, res.BestMove, max(1, lim.MultiPV))
	last := e.lastDepth(lim)
	for depth := 1; last == 0 || depth <= last; depth++ {
		if !e.tick(ctx) {
			return false
		}
		for k, m := range lines {
			in := Line(p, m, depth, k)
			if e.Score != nil {
				in.Score = e.Score(g, depth, k)
			}
			info(in)
			if k == 0 {
				res.Last = in
			}
		}
	}
	return true
}

// hold keeps a finished infinite search until it is stopped, and a ponder
// search until PonderHit closes hit or it is stopped.
func hold(ctx context.Context, lim engine.Limits, hit <-chan struct{}) {
	switch {
	case lim.Ponder:
		select {
		case <-ctx.Done():
		case <-hit:
		}
	case lim.Infinite:
		<-ctx.Done()
	}
}

// tick waits for the next depth, reporting false if the search was
// stopped first.
func (e *Engine) tick(ctx context.Context) bool {
	if e.Tick <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(e.Tick)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// lastDepth is the last depth of a search with limits lim; 0 means none
// (until stopped).
func (e *Engine) lastDepth(lim engine.Limits) int {
	d := e.MaxDepth
	if lim.Depth > 0 && (d == 0 || lim.Depth < d) {
		d = lim.Depth
	}
	if d == 0 && !lim.Infinite {
		d = DefaultDepth
	}
	return d
}

// firstLines returns the first moves of n lines: best, then the other
// legal moves in their order.
func firstLines(legal []chess.Move, best chess.Move, n int) []chess.Move {
	lines := []chess.Move{best}
	for _, m := range legal {
		if len(lines) == n {
			break
		}
		if m != best {
			lines = append(lines, m)
		}
	}
	return lines
}
