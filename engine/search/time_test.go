package search

import (
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
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

// TestPlanNeverFlags plays out clocks in which every search runs to its
// hard limit and every move then loses the whole Move Overhead on the way
// to the clock: where the increment covers that loss the clock never runs
// out. (Where it does not — sudden death, or an increment below the
// overhead — no plan survives a lag that large on every move for ever:
// the overhead is a reserve, not a rate.)
//
// It holds for every time plan the options allow: the defaults and the
// corners of the Time… tunables' ranges.
func TestPlanNeverFlags(t *testing.T) {
	for _, prm := range timePlans() {
		planNeverFlags(t, prm)
	}
}

// timePlans are DefaultParams and the Time… tunables all at their minimum,
// all at their maximum, and each alone at either end.
func timePlans() []Params {
	plans := []Params{DefaultParams()}
	lo, hi := DefaultParams(), DefaultParams()
	for _, o := range Tunables() {
		if !ClockOnly(o.Name) {
			continue
		}
		for _, v := range []int{o.Min, o.Max} {
			p := DefaultParams()
			p.setTunable(o.Name, v)
			plans = append(plans, p)
		}
		lo.setTunable(o.Name, o.Min)
		hi.setTunable(o.Name, o.Max)
	}
	return append(plans, lo, hi)
}

func planNeverFlags(t *testing.T, prm Params) {
	t.Helper()
	const overhead = 30 * time.Millisecond
	for _, tc := range []struct{ base, inc time.Duration }{
		{10 * time.Second, 100 * time.Millisecond},
		{5 * time.Second, 50 * time.Millisecond},
		{2 * time.Second, 50 * time.Millisecond},
		{300 * time.Second, 3 * time.Second},
	} {
		left := tc.base
		for move := range 300 {
			plan := planTime(engine.Limits{WTime: left, WInc: tc.inc}, chess.White, overhead, &prm)
			if plan.soft > plan.hard || plan.hard <= 0 {
				t.Fatalf("%+v: %v+%v move %d, %v left: soft %v, hard %v", prm, tc.base, tc.inc, move+1, left, plan.soft, plan.hard)
			}
			left -= plan.hard + overhead
			if left <= 0 {
				t.Fatalf("%+v: %v+%v: flagged at move %d", prm, tc.base, tc.inc, move+1)
			}
			left += tc.inc
		}
	}
}
