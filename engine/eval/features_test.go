package eval

import (
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// The tuner relies on Features describing Evaluate exactly: the weighted
// sum of the coefficients, tapered and scaled, is the score.
func TestFeaturesAreLinear(t *testing.T) {
	e := New()
	w := &defaultWeights
	var f Features
	n := 0
	walk(t, suiteFENs(t), func(fen string) {
		p, _ := chess.ParseFEN(fen)
		e.Features(p, &f)
		want := e.Evaluate(p)
		if p.SideToMove() == chess.Black {
			want = -want
		}
		if f.White != want {
			t.Fatalf("%s: Features says %d, Evaluate %d", fen, f.White, want)
		}
		if f.Special {
			return
		}
		var sum Score
		for i := 0; i < NumWeights; i++ {
			sum += w[i].Times(int(f.Coef[0][i]) - int(f.Coef[1][i]))
		}
		if got := Taper(sum.MG(), sum.EG(), f.Phase, f.Scale); got != want {
			t.Fatalf("%s: linear sum %d, Evaluate %d", fen, got, want)
		}
		n++
	})
	t.Logf("%d positions", n)
}

// The pawn hash must change nothing but speed: a warm Evaluator agrees
// with a fresh one, and positions repeating a pawn structure hit.
func TestPawnHash(t *testing.T) {
	warm := New()
	var f Features
	walk(t, suiteFENs(t), func(fen string) {
		p, _ := chess.ParseFEN(fen)
		a := warm.Evaluate(p)
		b := warm.Evaluate(p)
		warm.Features(p, &f) // computed without the hash
		c := f.White
		if p.SideToMove() == chess.Black {
			c = -c
		}
		if a != c || b != c {
			t.Fatalf("%s: through the hash %d then %d, without %d", fen, a, b, c)
		}
	})
	probes, hits := warm.PawnHashStats()
	if probes == 0 || hits*2 < probes {
		t.Errorf("%d probes, %d hits: every position was probed twice in a row", probes, hits)
	}
}

func TestTraceTotals(t *testing.T) {
	e := New()
	p, _ := chess.ParseFEN("r1bq1rk1/pp2bppp/2n2n2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R b KQ - 0 9")
	b := e.Trace(p)
	var sum Score
	for _, tm := range b.Terms {
		sum += tm[0] - tm[1]
	}
	if got := Taper(sum.MG(), sum.EG(), b.Phase, b.Scale); got != b.Total || b.Total != -e.Evaluate(p) {
		t.Errorf("terms sum to %d, total %d, Evaluate (Black's view) %d", got, b.Total, e.Evaluate(p))
	}
}

func TestWeightNames(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < NumWeights; i++ {
		n := WeightName(i)
		if seen[n] {
			t.Fatalf("weight %d: duplicate name %q", i, n)
		}
		seen[n] = true
	}
	if WeightName(WTempo) != "tempo" || WeightName(WMobility+9+3) != "mobility.bishop[3]" {
		t.Errorf("names: %q %q", WeightName(WTempo), WeightName(WMobility+12))
	}
}
