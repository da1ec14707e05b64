package tablebase

import (
	"math/rand/v2"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

func TestSample(t *testing.T) {
	tb := openTables(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var ml chess.MoveList
	for _, tc := range []struct {
		material string
		want     int // WDL to keep
		min      int // at least this many of 20 must be found
	}{
		{"KRvKP", 2, 20},
		{"KBNvK", 2, 20},
		{"KRvKB", 0, 20},
		{"KQvK", 1, 0}, // never a cursed win: nothing may be kept
	} {
		seen := 0
		keep := func(p *chess.Position, wdl int) bool {
			seen++
			if got, ok := tb.ProbeWDL(p); !ok || got != wdl {
				t.Errorf("%s: keep got wdl %d, probe says %d (ok %v) for %s", tc.material, wdl, got, ok, p.FEN())
			}
			return wdl == tc.want
		}
		ps, probes, err := tb.Sample(rng, tc.material, 20, 20000, keep)
		if err != nil {
			t.Fatalf("%s: %v", tc.material, err)
		}
		if probes != seen || probes == 0 {
			t.Errorf("%s: %d probes reported, keep called %d times", tc.material, probes, seen)
		}
		if len(ps) < tc.min || (tc.min == 0 && len(ps) != 0) {
			t.Errorf("%s: found %d positions with WDL %d, want at least %d", tc.material, len(ps), tc.want, tc.min)
		}
		colours := map[chess.Color]bool{}
		for _, p := range ps {
			colours[p.SideToMove()] = true
			if p.Occupied().Count() != len(tc.material)-1 {
				t.Errorf("%s: %s has %d pieces", tc.material, p.FEN(), p.Occupied().Count())
			}
			if p.GenerateCaptures(&ml); ml.N != 0 {
				t.Errorf("%s: %s has a capture for the side to move", tc.material, p.FEN())
			}
		}
		if len(ps) >= 20 && len(colours) != 2 {
			t.Errorf("%s: all %d positions have the same side to move", tc.material, len(ps))
		}
	}
}

func TestSampleBadMaterial(t *testing.T) {
	tb := openTables(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range []string{"", "KQK", "QvK", "KQvKX", "KKvK", "KQQQvKR"} {
		if _, _, err := tb.Sample(rng, m, 1, 10, func(*chess.Position, int) bool { return true }); err == nil {
			t.Errorf("Sample(%q): no error", m)
		}
	}
}
