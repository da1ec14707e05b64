// Package rating keeps players' Glicko-2 ratings (Glickman, "Example of the
// Glicko-2 system", 2013), as lichess does: a rating, its deviation (how
// sure it is) and its volatility (how erratic the player is). The server
// rates each rated game as a rating period of its own, at its end.
//
// Written here because no well-kept Go implementation was available; the
// test reproduces the paper's worked example.
package rating

import (
	"math"
	"strconv"
)

// Scale converts between the Glicko scale (1500 ± RD) and Glicko-2's
// internal one (0 ± φ).
const Scale = 173.7178

// Tau constrains how fast volatility changes: 0.3 to 1.2 by the paper,
// smaller for less erratic rating changes. Lichess uses 0.75.
const Tau = 0.75

// epsilon is the convergence tolerance of the volatility iteration (the
// paper's).
const epsilon = 0.000001

// Bounds on the deviation: a new player starts at MaxRD (lichess: 500;
// the paper: 350); MinRD keeps a settled rating able to move.
const (
	MaxRD = 350
	MinRD = 45
)

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64 // 1500 for a new player
	RD         float64 // rating deviation: 350 unknown, ~50 well established
	Volatility float64 // σ, 0.06 for a new player
}

// New is the rating of a player who has not played.
func New() Rating { return Rating{Rating: 1500, RD: MaxRD, Volatility: 0.06} }

// Provisional reports whether the rating is still too uncertain to rank
// (lichess: RD above 110).
func (r Rating) Provisional() bool { return r.RD > 110 }

// Shown is the rating as the screens and commands show it, rounded:
// "1612", and "1500?" for a provisional one (lichess's mark). (Not
// String: a Rating printed with %v keeps its deviation and volatility.)
func (r Rating) Shown() string {
	s := strconv.FormatFloat(math.Round(r.Rating), 'f', 0, 64)
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Result is one game of a rating period: the opponent's rating before it
// and the score (1 win, 0.5 draw, 0 loss).
type Result struct {
	Opponent Rating
	Score    float64
}

// Update is r after a rating period with the given results, τ = tau. A
// period without games only makes the rating less certain.
func (r Rating) Update(results []Result, tau float64) Rating {
	mu, phi, sigma := (r.Rating-1500)/Scale, r.RD/Scale, r.Volatility
	if len(results) == 0 {
		phiStar := math.Sqrt(phi*phi + sigma*sigma)
		return Rating{Rating: r.Rating, RD: clampRD(phiStar * Scale), Volatility: sigma}
	}
	// Step 3 and 4: the estimated variance v of the rating from the
	// game outcomes alone, and the estimated improvement delta.
	var invV, sum float64
	for _, res := range results {
		muJ, phiJ := (res.Opponent.Rating-1500)/Scale, res.Opponent.RD/Scale
		g := gOf(phiJ)
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		invV += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / invV
	delta := v * sum
	// Step 5: the new volatility.
	sigma = newVolatility(delta, phi, v, sigma, tau)
	// Steps 6 to 8: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{Rating: Scale*muNew + 1500, RD: clampRD(Scale * phiNew), Volatility: sigma}
}

// gOf weighs an opponent's result by how sure their rating is.
func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// newVolatility solves the paper's step 5 by its Illinois iteration.
func newVolatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

func clampRD(rd float64) float64 { return min(MaxRD, max(MinRD, rd)) }
