package view

import "testing"

// TestSparkline: the lowest value ▁, the highest █, the rest between; the
// newest values kept when there are more than the width.
func TestSparkline(t *testing.T) {
	for _, c := range []struct {
		values []float64
		width  int
		want   string
	}{
		{nil, 10, ""},
		{[]float64{1500}, 0, ""},
		{[]float64{1500, 1500}, 10, "▄▄"},
		{[]float64{1400, 1500, 1600}, 10, "▁▄█"},
		{[]float64{0, 1400, 1500, 1600}, 3, "▁▄█"},
	} {
		if got := Sparkline(c.values, c.width); got != c.want {
			t.Errorf("Sparkline(%v, %d) = %q, want %q", c.values, c.width, got, c.want)
		}
	}
}
