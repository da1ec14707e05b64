// Package match plays engine-versus-engine matches: games between two
// engine.Analyzers with clocks, judged by package referee as the board's
// and the server's games are, with openings played from both sides,
// adjudication, crash recovery, PGN output, and the statistics engine
// authors use to read a match (Elo with error bars from pentanomial pair
// statistics, and a sequential probability ratio test).
package match

import (
	"fmt"
	"math"
)

// Pentanomial counts game pairs (one opening played with both colours) by
// the first engine's total score in the pair: index 0 = 0 points (lost
// both), 1 = ½, 2 = 1, 3 = 1½, 4 = 2 (won both). Pairs remove most of the
// variance an unbalanced opening adds, so the error bars and the SPRT are
// computed from them rather than from single games.
type Pentanomial [5]int

// Pairs is the number of complete pairs.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// pentaScore is the per-game score of each pair outcome.
var pentaScore = [5]float64{0, 0.25, 0.5, 0.75, 1}

// MeanVar returns the mean per-game score of the first engine and the
// variance of one pair's per-game score, from the pair frequencies.
func (p Pentanomial) MeanVar() (mean, variance float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return 0.5, 0
	}
	for i, c := range p {
		mean += float64(c) * pentaScore[i]
	}
	mean /= n
	for i, c := range p {
		d := pentaScore[i] - mean
		variance += float64(c) * d * d
	}
	return mean, variance / n
}

// EloFromScore converts an expected score (0 < s < 1) to a logistic Elo
// difference: s = 1/(1+10^(-Elo/400)). It returns ±Inf at 1 and 0.
func EloFromScore(s float64) float64 {
	if s <= 0 {
		return math.Inf(-1)
	}
	if s >= 1 {
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the inverse of EloFromScore.
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// Elo estimates the Elo difference and its 95% error (half the width of
// the confidence interval, the "±" figure) from the pair statistics.
// With no pairs, or a variance of zero (all pairs alike), the error is
// infinite or zero as the data say; the Elo may be ±Inf for a sweep.
func (p Pentanomial) Elo() (elo, err95 float64) {
	n := p.Pairs()
	if n == 0 {
		return 0, math.Inf(1)
	}
	mean, variance := p.MeanVar()
	se := math.Sqrt(variance / float64(n)) // standard error of the mean
	lo := EloFromScore(math.Max(mean-z95*se, 0))
	hi := EloFromScore(math.Min(mean+z95*se, 1))
	return EloFromScore(mean), (hi - lo) / 2
}

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1 (logistic Elo), with error rates Alpha and Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Bounds returns the log-likelihood-ratio bounds: the test accepts H0
// (fails) at or below lower and H1 (passes) at or above upper.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLR is the generalized log-likelihood ratio of the pair data for H1
// against H0, computed as Fishtest computes it for logistic Elo
// (LLRcalc.LLR_logistic; M. Van den Bergh, "Generalized SPRT"):
//
//   - a pair outcome never seen gets a count of 0.001 instead of 0, so
//     that a sweep (all pairs alike, zero variance) still has a finite,
//     slowly growing LLR instead of none at all or an infinite one;
//   - with p_i the observed frequencies of the per-pair scores a_i (0, ¼,
//     ½, ¾, 1) and s0, s1 the scores of Elo0 and Elo1, the most likely
//     pair distribution with mean s is q_i = p_i / (1 + x·(a_i − s)),
//     where x solves Σ p_i (a_i − s) / (1 + x·(a_i − s)) = 0;
//   - LLR = N · Σ p_i · ln(q1_i / q0_i) for N (regularized) pairs.
//
// The closed form N(s1−s0)(2·mean−s0−s1)/(2·var) is close to this near the
// hypotheses but explodes when the variance is tiny (one won pair already
// "passes"), so it is not used. With no pairs the LLR is 0.
func (s SPRT) LLR(p Pentanomial) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	const prior = 1e-3 // Fishtest's regularization epsilon
	var freq [5]float64
	n := 0.0
	for i, c := range p {
		freq[i] = float64(c)
		if c == 0 {
			freq[i] = prior
		}
		n += freq[i]
	}
	for i := range freq {
		freq[i] /= n
	}
	q0 := mleWithMean(freq, ScoreFromElo(s.Elo0))
	q1 := mleWithMean(freq, ScoreFromElo(s.Elo1))
	llr := 0.0
	for i, f := range freq {
		llr += f * math.Log(q1[i]/q0[i])
	}
	return n * llr
}

// mleWithMean returns the pair distribution with mean score s (0 < s < 1)
// that is most likely to have produced the observed frequencies freq (all
// positive): freq_i / (1 + x·d_i) with d_i = a_i − s, where x is the root of
// f(x) = Σ freq_i·d_i / (1 + x·d_i). On the interval where every 1 + x·d_i
// is positive, (−1/(1−s), 1/s), f falls from +∞ to −∞ (f′ = −Σ freq_i·d_i² /
// (1+x·d_i)² < 0), so bisection finds the single root.
func mleWithMean(freq [5]float64, s float64) [5]float64 {
	var d [5]float64
	for i := range d {
		d[i] = pentaScore[i] - s
	}
	f := func(x float64) float64 {
		sum := 0.0
		for i, p := range freq {
			sum += p * d[i] / (1 + x*d[i])
		}
		return sum
	}
	lo, hi := -1/(1-s), 1/s
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break // the interval cannot shrink further in float64
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	x := (lo + hi) / 2
	var q [5]float64
	for i, p := range freq {
		q[i] = p / (1 + x*d[i])
	}
	return q
}

// Verdict is "H1 accepted", "H0 accepted" or "" while the test continues.
func (s SPRT) Verdict(p Pentanomial) string {
	lo, hi := s.Bounds()
	switch llr := s.LLR(p); {
	case llr >= hi:
		return "H1 accepted"
	case llr <= lo:
		return "H0 accepted"
	}
	return ""
}

// ParseSPRT reads "elo0=0,elo1=5,alpha=0.05,beta=0.05" (any order; alpha
// and beta default to 0.05).
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for _, kv := range splitList(s) {
		k, v, ok := cutKV(kv)
		var f float64
		if ok {
			_, err := fmt.Sscanf(v, "%g", &f)
			ok = err == nil
		}
		if !ok {
			return t, fmt.Errorf("sprt %q: %q is not key=number", s, kv)
		}
		switch k {
		case "elo0":
			t.Elo0 = f
		case "elo1":
			t.Elo1 = f
		case "alpha":
			t.Alpha = f
		case "beta":
			t.Beta = f
		default:
			return t, fmt.Errorf("sprt %q: unknown key %q (want elo0, elo1, alpha, beta)", s, k)
		}
		seen[k] = true
	}
	if !seen["elo0"] || !seen["elo1"] {
		return t, fmt.Errorf("sprt %q: elo0 and elo1 are required", s)
	}
	if t.Elo1 <= t.Elo0 {
		return t, fmt.Errorf("sprt %q: elo1 must exceed elo0", s)
	}
	if t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5 {
		return t, fmt.Errorf("sprt %q: alpha and beta must lie in (0, 0.5)", s)
	}
	return t, nil
}
