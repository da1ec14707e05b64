package search

import (
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
)

// TestTimedStopWaitsForDepthOne: running out of time stops the search only
// once the main thread has completed depth 1, in either order of the two
// events.
func TestTimedStopWaitsForDepthOne(t *testing.T) {
	cs := &search{}
	cs.outOfTime()
	if cs.stop.Load() {
		t.Fatal("out of time before depth 1 was complete: stopped at once")
	}
	cs.firstIterationDone()
	if !cs.stop.Load() {
		t.Fatal("depth 1 completed after the time ran out: not stopped")
	}

	cs = &search{}
	cs.firstIterationDone()
	if cs.stop.Load() {
		t.Fatal("stopped by completing depth 1 with time left")
	}
	cs.outOfTime()
	if !cs.stop.Load() {
		t.Fatal("out of time after depth 1: not stopped")
	}
}

// TestTinyBudgetStillMates: a clock that has all but run out still gets a
// completed first iteration, and so the mate in one, however late the
// search thread gets a core.
func TestTinyBudgetStillMates(t *testing.T) {
	g := game(t, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1") // Ra8#
	root := rootOf(t, g)
	s := New()
	for _, lim := range []engine.Limits{{MoveTime: time.Nanosecond}, {WTime: time.Millisecond, BTime: time.Millisecond}} {
		for range 20 {
			res, infos := run(t, s, g, lim)
			checkResult(t, root, res, infos)
			if res.BestMove.String() != "a1a8" || res.Last.Depth < 1 {
				t.Fatalf("%v: bestmove %v at depth %d, want a1a8 from a completed depth 1", lim, res.BestMove, res.Last.Depth)
			}
		}
	}
}
