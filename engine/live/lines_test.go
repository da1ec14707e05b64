package live

import (
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// line is a report of MultiPV slot k at depth.
func line(k, depth int) engine.Info {
	e4, _ := chess.NewPosition().ParseSAN("e4")
	return engine.Info{MultiPV: k, Depth: depth, PV: []chess.Move{e4}}
}

// depths are the depths of ls, best first.
func depths(ls []engine.Info) []int {
	var out []int
	for _, in := range ls {
		out = append(out, in.Depth)
	}
	return out
}

func TestLines(t *testing.T) {
	l := Lines{Max: 3}
	if got := l.All(); got != nil {
		t.Errorf("empty: %v", got)
	}
	for _, c := range []struct {
		in   engine.Info
		slot int
		ok   bool
	}{
		{engine.Info{Nodes: 100}, 0, false},      // progress
		{engine.Info{String: "hello"}, 0, false}, // text
		{line(2, 1), 1, true},                    // before the best line
		{line(0, 1), 0, true},                    // no MultiPV: the best line
		{line(1, 2), 0, true},                    // deeper: replaces it
		{line(4, 2), 0, false},                   // past Max
		{line(3, 2), 2, true},
	} {
		if slot, ok := l.Add(c.in); slot != c.slot || ok != c.ok {
			t.Errorf("Add(%+v) = %d, %v; want %d, %v", c.in, slot, ok, c.slot, c.ok)
		}
	}
	if got := depths(l.All()); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 2 {
		t.Errorf("depths %v, want [2 1 2]", got)
	}
	l.Keep(1)
	if _, ok := l.Line(1); ok || len(l.All()) != 1 {
		t.Errorf("after Keep(1): %v", depths(l.All()))
	}
	l.Reset()
	if _, ok := l.Line(0); ok || l.All() != nil || l.Max != 3 {
		t.Errorf("after Reset: %v, max %d", l.All(), l.Max)
	}
}

// TestLinesGap: a slot no report has come for is no line; All leaves it
// out and every other slot keeps its place in Line.
func TestLinesGap(t *testing.T) {
	var l Lines // no Max: every slot
	l.Add(line(3, 5))
	l.Add(line(12, 5))
	if _, ok := l.Line(0); ok {
		t.Error("slot 0 holds a line no report gave")
	}
	if in, ok := l.Line(2); !ok || in.MultiPV != 3 {
		t.Errorf("slot 2: %+v, %v", in, ok)
	}
	if got := l.All(); len(got) != 2 || got[0].MultiPV != 3 || got[1].MultiPV != 12 {
		t.Errorf("All: %+v", got)
	}
	// All is the caller's: changing it changes no line.
	l.All()[0].Depth = 99
	if in, _ := l.Line(2); in.Depth != 5 {
		t.Errorf("All shares its slice: depth %d", in.Depth)
	}
}
