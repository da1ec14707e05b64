package tui

import (
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// TestPanelLines: the panel shows a line per MultiPV slot, the newest of
// each, at most maxPV of them; fewer lines asked for drop the rest at
// once, and a new position starts empty.
func TestPanelLines(t *testing.T) {
	pos := chess.NewPosition()
	var ml chess.MoveList
	pos.GenerateLegal(&ml)
	a := newAnalysisPanel()
	line := func(k, depth int) engine.Info {
		return engine.Info{Depth: depth, MultiPV: k, PV: ml.Moves[k-1 : k]}
	}
	for k := 1; k <= maxPV+2; k++ {
		a.add(pos, line(k, 1))
	}
	a.add(pos, line(1, 2))
	a.add(pos, engine.Info{Nodes: 500}) // progress: no line
	if b := a.best(); b == nil || b.info.Depth != 2 || len(b.san) != 1 {
		t.Fatalf("best %+v, want depth 2's line", b)
	}
	for k, l := range a.drawn {
		if l == nil || l.info.MultiPV != k+1 {
			t.Errorf("row %d: %+v", k, l)
		}
	}
	a.keep(2)
	if a.drawn[1] == nil || a.drawn[2] != nil {
		t.Errorf("after keep(2): rows 2 %v, 3 %v", a.drawn[1], a.drawn[2])
	}
	a.reset()
	if a.best() != nil || a.drawn != [maxPV]*pvLine{} {
		t.Errorf("after reset: %+v", a.drawn)
	}
}
