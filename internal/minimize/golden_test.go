package minimize

import (
	"math"
	"testing"
)

// TestGolden: the minimum of parabolas and of a skewed function is found
// to within the tolerance, wherever it lies in the interval, and f is
// called once a step.
func TestGolden(t *testing.T) {
	for _, want := range []float64{-2.9, -0.5, 0, 1.37, 2.99} {
		calls := 0
		f := func(x float64) float64 { calls++; return (x - want) * (x - want) }
		if got := Golden(f, -3, 3, 1e-6); math.Abs(got-want) > 1e-6 {
			t.Errorf("parabola at %v: %v", want, got)
		}
		if calls > 40 {
			t.Errorf("parabola at %v: %d calls of f", want, calls)
		}
	}
	// x − log x is least at 1.
	if got := Golden(func(x float64) float64 { return x - math.Log(x) }, 0.01, 50, 1e-7); math.Abs(got-1) > 1e-6 {
		t.Errorf("x − log x: %v, want 1", got)
	}
}
