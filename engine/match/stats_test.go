package match

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestEloFromScore(t *testing.T) {
	// Published logistic values: 50% is 0; 75% is 400·log10(3) = 190.85;
	// 1/(1+10^(-100/400)) = 0.640065 is exactly +100; 25% is −190.85.
	for _, tc := range []struct{ s, elo float64 }{
		{0.5, 0}, {0.75, 190.849}, {0.6400649998, 100}, {0.25, -190.849}, {0.9090909091, 400},
	} {
		if got := EloFromScore(tc.s); !near(got, tc.elo, 0.01) {
			t.Errorf("EloFromScore(%v) = %.3f, want %.3f", tc.s, got, tc.elo)
		}
		if got := ScoreFromElo(tc.elo); !near(got, tc.s, 1e-6) {
			t.Errorf("ScoreFromElo(%v) = %.6f, want %.6f", tc.elo, got, tc.s)
		}
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("a sweep is not ±Inf")
	}
}

// The pair data [LL, LD, DD/WL, WD, WW] = [0, 2, 4, 3, 1], by hand:
//
//	N = 10 pairs, per-game scores 0, ¼, ½, ¾, 1
//	mean = (2·0.25 + 4·0.5 + 3·0.75 + 1·1)/10 = 5.75/10 = 0.575
//	var  = [2·(−0.325)² + 4·(−0.075)² + 3·(0.175)² + 1·(0.425)²]/10
//	     = (0.21125 + 0.0225 + 0.091875 + 0.180625)/10 = 0.050625
//	Elo  = −400·log10(1/0.575 − 1) = −400·log10(0.7391304) = 52.512
//	se   = √(0.050625/10) = 0.0711512; 1.959964·se = 0.1394538
//	CI   = Elo(0.4355462) … Elo(0.7144538) = −45.038 … 159.319
//	±    = (159.319 + 45.038)/2 = 102.178
//	bounds at α = β = 0.05: ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = 2.944439
//
// The SPRT elo0=0, elo1=5 follows Fishtest's LLRcalc.LLR_logistic, worked
// through independently (a separate script, bisection for the root):
//
//	regularize: LL count 0 → 0.001, N = 10.001,
//	  p = (0.0000999900, 0.1999800, 0.3999600, 0.2999700, 0.0999900)
//	s0 = 0.5: x = 1.557140420,
//	  q0 = p_i/(1+x(a_i−s0)) = (0.000451565, 0.327452308, 0.399960004, 0.215916806, 0.056219316)
//	s1 = 1/(1+10^(−5/400)) = 0.507195082: x = 1.401150774,
//	  q1 = (0.000345576, 0.312649058, 0.404033222, 0.223823752, 0.059148392)
//	LLR = N·Σ p_i·ln(q1_i/q0_i) = 0.106426789
//
// (The closed-form approximation N(s1−s0)(2·mean−s0−s1)/(2·var) gives
// 0.101353 here: close, as it should be near the hypotheses.)
var handPairs = Pentanomial{0, 2, 4, 3, 1}

func TestPentanomialStatistics(t *testing.T) {
	mean, variance := handPairs.MeanVar()
	if !near(mean, 0.575, 1e-12) || !near(variance, 0.050625, 1e-12) {
		t.Errorf("mean, var = %v, %v; want 0.575, 0.050625", mean, variance)
	}
	elo, e := handPairs.Elo()
	if !near(elo, 52.512, 0.001) || !near(e, 102.178, 0.001) {
		t.Errorf("Elo = %.3f ± %.3f, want 52.512 ± 102.178", elo, e)
	}
	// More of the same data narrows the error bars by √k.
	var four Pentanomial
	for i := range handPairs {
		four[i] = 4 * handPairs[i]
	}
	_, e4 := four.Elo()
	if !(e4 < e/1.9 && e4 > e/2.2) {
		t.Errorf("error with 4× the pairs = %.3f, want about %.3f/2", e4, e)
	}
}

func TestSPRT(t *testing.T) {
	s, err := ParseSPRT("elo0=0,elo1=5,alpha=0.05,beta=0.05")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := s.Bounds()
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v", lo, hi)
	}
	if llr := s.LLR(handPairs); !near(llr, 0.106426789, 1e-8) {
		t.Errorf("LLR = %.9f, want 0.106426789", llr)
	}
	if v := s.Verdict(handPairs); v != "" {
		t.Errorf("verdict %q after 10 pairs", v)
	}
	// 100× the data: the LLR grows about 100-fold (10.669354 by the same
	// script; not exactly 100× because the 0.001 prior weighs less) ≥ 2.944: H1.
	var many Pentanomial
	for i := range handPairs {
		many[i] = 100 * handPairs[i]
	}
	if llr := s.LLR(many); !near(llr, 10.669353666, 1e-6) {
		t.Errorf("LLR ×100 = %.9f, want 10.669353666", llr)
	}
	if v := s.Verdict(many); v != "H1 accepted" {
		t.Errorf("verdict %q with LLR %.3f", v, s.LLR(many))
	}
	// The mirror image (the first engine scoring 0.425) fails the test.
	var mirror Pentanomial
	for i := range many {
		mirror[i] = many[4-i]
	}
	if v := s.Verdict(mirror); v != "H0 accepted" {
		t.Errorf("mirror verdict %q with LLR %.3f", v, s.LLR(mirror))
	}
	// More values from the same script: a Fishtest-sized run, where the
	// closed form (3.292809) and the exact GSPRT agree to 0.1%, and sweeps,
	// where they do not: five won pairs give the closed form 47.68 (an
	// instant pass on a zero-variance guess) but only 0.0715 here.
	for _, tc := range []struct {
		p   Pentanomial
		llr float64
	}{
		{Pentanomial{100, 1000, 2500, 1100, 120}, 3.290462967},
		{Pentanomial{0, 0, 0, 0, 5}, 0.071466381},
		{Pentanomial{0, 0, 0, 0, 1}, 0.014315849},
		{Pentanomial{5, 0, 0, 0, 0}, -0.072502702},
		{Pentanomial{}, 0},
	} {
		if llr := s.LLR(tc.p); !near(llr, tc.llr, 1e-6) {
			t.Errorf("LLR%v = %.9f, want %.9f", tc.p, llr, tc.llr)
		}
	}
	for _, bad := range []string{"", "elo0=0", "elo0=5,elo1=0", "elo0=0,elo1=5,alpha=0.7", "elo0=0,elo1=x", "elo0=0,elo1=5,gamma=1"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q): no error", bad)
		}
	}
}
