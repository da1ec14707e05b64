package rating

import (
	"math"
	"testing"
)

// TestPaperExample is the worked example of Glickman's paper: a 1500/200
// player (σ 0.06) beats a 1400/30 player and loses to 1550/100 and 1700/300,
// τ = 0.5; the paper ends at 1464.06 / 151.52 / σ 0.05999.
func TestPaperExample(t *testing.T) {
	r := Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	got := r.Update([]Result{
		{Opponent: Rating{Rating: 1400, RD: 30}, Score: 1},
		{Opponent: Rating{Rating: 1550, RD: 100}, Score: 0},
		{Opponent: Rating{Rating: 1700, RD: 300}, Score: 0},
	}, 0.5)
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 0.00001 {
		t.Errorf("got %.2f / %.2f / σ %.5f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.RD, got.Volatility)
	}
}

// TestDirections: a win against an equal raises the rating and a loss
// lowers it by as much; a draw between equals moves neither; every game
// makes the rating surer; a period without games makes it less sure.
func TestDirections(t *testing.T) {
	a := Rating{Rating: 1600, RD: 120, Volatility: 0.06}
	win := a.Update([]Result{{Opponent: a, Score: 1}}, Tau)
	loss := a.Update([]Result{{Opponent: a, Score: 0}}, Tau)
	draw := a.Update([]Result{{Opponent: a, Score: 0.5}}, Tau)
	if win.Rating <= a.Rating || loss.Rating >= a.Rating || math.Abs((win.Rating-a.Rating)-(a.Rating-loss.Rating)) > 1e-6 {
		t.Errorf("win %.2f, loss %.2f from %.2f", win.Rating, loss.Rating, a.Rating)
	}
	if math.Abs(draw.Rating-a.Rating) > 1e-6 {
		t.Errorf("a draw between equals moved the rating to %.2f", draw.Rating)
	}
	for _, r := range []Rating{win, loss, draw} {
		if r.RD >= a.RD {
			t.Errorf("RD %.2f after a game, from %.2f", r.RD, a.RD)
		}
	}
	if idle := a.Update(nil, Tau); idle.RD <= a.RD || idle.Rating != a.Rating {
		t.Errorf("idle period: %+v from %+v", idle, a)
	}
	// An upset moves a provisional rating more than a settled one.
	n := New()
	settled := Rating{Rating: 1500, RD: 50, Volatility: 0.06}
	strong := Rating{Rating: 2000, RD: 50, Volatility: 0.06}
	if dn, ds := n.Update([]Result{{strong, 1}}, Tau).Rating-n.Rating, settled.Update([]Result{{strong, 1}}, Tau).Rating-settled.Rating; dn <= ds {
		t.Errorf("new player gains %.1f, settled one %.1f", dn, ds)
	}
	if !n.Provisional() || settled.Provisional() {
		t.Error("provisional flags")
	}
}

// TestShown: a rating is shown rounded, marked "?" while provisional
// (RD above 110).
func TestShown(t *testing.T) {
	for _, c := range []struct {
		r    Rating
		want string
	}{
		{New(), "1500?"},
		{Rating{Rating: 1612.5, RD: 110}, "1613"},
		{Rating{Rating: 1612.4, RD: 110.1}, "1612?"},
	} {
		if got := c.r.Shown(); got != c.want {
			t.Errorf("%+v shown as %q, want %q", c.r, got, c.want)
		}
	}
}
