package search

import "testing"

// Stronger levels search more and choose closer to the best line; the
// curve is continuous where its pieces meet (1500), so no step in the
// Elo scale is a jump in strength.
func TestLevelsMonotonic(t *testing.T) {
	prev := strengthFor(minElo)
	for elo := minElo + 10; elo <= maxElo; elo += 10 {
		lv := strengthFor(elo)
		if lv.nodes <= prev.nodes || lv.margin > prev.margin {
			t.Fatalf("Elo %d: nodes %d margin %d after nodes %d margin %d", elo, lv.nodes, lv.margin, prev.nodes, prev.margin)
		}
		if lv.nodes > prev.nodes*11/10 {
			t.Errorf("Elo %d: nodes jump from %d to %d in 10 Elo", elo, prev.nodes, lv.nodes)
		}
		if prev.margin-lv.margin > 1 {
			t.Errorf("Elo %d: margin jumps from %d to %d in 10 Elo", elo, prev.margin, lv.margin)
		}
		prev = lv
	}
	if lv := strengthFor(maxElo); lv.margin != 0 || lv.lines != 1 {
		t.Errorf("strongest level: margin %d, %d lines", lv.margin, lv.lines)
	}
}
