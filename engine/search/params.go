package search

import (
	"math"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine"
)

// Params are the search's tunable constants: margins, reductions and the
// time plan's shares, each an integer so that it can be a UCI spin option
// (see Tunables) and be tuned without recompiling (squall tune --spsa,
// docs/TUNING.md); those whose unit is large (a ply, a move) are in
// hundredths of it, and the defaults, whole units, give exactly the
// arithmetic of the constants they replace. A Searcher holds its own;
// DefaultParams is the search as it is played.
type Params struct {
	// LMRBase and LMRDivisor shape the late-move reduction table, in
	// hundredths: r(d, n) = LMRBase/100 + ln d · ln n / (LMRDivisor/100).
	LMRBase, LMRDivisor int
	// RFPMargin: reverse futility returns eval at depth ≤ 8 when
	// eval − RFPMargin·(depth − improving) ≥ beta.
	RFPMargin int
	// RazorMargin: at depth ≤ 2, eval + RazorMargin·depth < alpha drops
	// into quiescence.
	RazorMargin int
	// The null move's reduction is (NMPBase + NMPDepthScale·depth)/100 +
	// min(3, (eval − beta)/NMPEvalDivisor): NMPBase and NMPDepthScale in
	// hundredths of a ply, so that a tuner can move them by less than one.
	NMPBase, NMPDepthScale, NMPEvalDivisor int
	// LMPBase: late-move pruning tries LMPBase/100 + depth² moves when the
	// position improves, half as many otherwise (lmpLimit); hundredths of a
	// move.
	LMPBase int
	// Futility prunes a quiet move when eval + FutilityBase +
	// FutilityScale·lmrDepth ≤ alpha.
	FutilityBase, FutilityScale int
	// SEE pruning: a quiet move whose exchange loses more than
	// SEEQuietMargin·lmrDepth², a capture or check one that loses more
	// than SEETacticalMargin·depth.
	SEEQuietMargin, SEETacticalMargin int
	// AspirationDelta is the first aspiration window's half-width around
	// the last iteration's score, from depth 4.
	AspirationDelta int
	// SingularMargin: the hash move is singular when every other move
	// fails below ttScore − SingularMargin·depth/100 (hundredths of a
	// centipawn per ply).
	SingularMargin int
	// The time plan (planTime): the clock is shared over TimeHorizon
	// moves, plus TimeIncPercent % of the increment, for the soft limit;
	// the hard limit is TimeHardRatio times that, at most TimeHardPercent
	// % of the clock plus the increment.
	TimeHorizon, TimeIncPercent, TimeHardRatio, TimeHardPercent int
}

// DefaultParams are the constants the search plays with unless told
// otherwise. They were set by hand and measured feature by feature
// (docs/ELO.md); a tuned value replaces one only after a confirming match
// (docs/TUNING.md).
func DefaultParams() Params {
	return Params{
		LMRBase: 75, LMRDivisor: 225,
		RFPMargin:   80,
		RazorMargin: 250,
		NMPBase:     300, NMPDepthScale: 25, NMPEvalDivisor: 200,
		LMPBase:      300,
		FutilityBase: 100, FutilityScale: 100,
		SEEQuietMargin: 30, SEETacticalMargin: 90,
		AspirationDelta: 18,
		SingularMargin:  200,
		// planHorizon's history: it was 40 until 2026-11-26, with no new
		// iteration after 60 % of the soft budget, and Squall ended its
		// games at 10+0.1 with much of its clock unused; fewer moves than
		// a game usually has left, because the increment and the moves
		// that end early (one reply, a settled best move, a mate found)
		// give time back. Measured in docs/ELO.md: 25 moves and 80 %
		// +38 ± 27 Elo over 40 and 60 %, then 20 and all of it +12 ± 32.
		TimeHorizon: 20, TimeIncPercent: 75, TimeHardRatio: 4, TimeHardPercent: 30,
	}
}

// tunable is one parameter as an option: its name, its range and where it
// lives in Params.
type tunable struct {
	name     string
	min, max int
	field    func(*Params) *int
}

// tunables lists the Params as options, in the order Options and the SPSA
// state list them. The ranges are what the engine accepts: wide enough to
// tune in, narrow enough that no value breaks the search (the divisors
// are at least 1; the time plan keeps its hard limit, so no value flags).
var tunables = []tunable{
	{"LMRBase", 0, 200, func(p *Params) *int { return &p.LMRBase }},
	{"LMRDivisor", 100, 500, func(p *Params) *int { return &p.LMRDivisor }},
	{"RFPMargin", 20, 200, func(p *Params) *int { return &p.RFPMargin }},
	{"RazorMargin", 50, 600, func(p *Params) *int { return &p.RazorMargin }},
	{"NMPBase", 100, 600, func(p *Params) *int { return &p.NMPBase }},
	{"NMPDepthScale", 10, 50, func(p *Params) *int { return &p.NMPDepthScale }},
	{"NMPEvalDivisor", 50, 500, func(p *Params) *int { return &p.NMPEvalDivisor }},
	{"LMPBase", 100, 1000, func(p *Params) *int { return &p.LMPBase }},
	{"FutilityBase", 0, 300, func(p *Params) *int { return &p.FutilityBase }},
	{"FutilityScale", 30, 250, func(p *Params) *int { return &p.FutilityScale }},
	{"SEEQuietMargin", 5, 100, func(p *Params) *int { return &p.SEEQuietMargin }},
	{"SEETacticalMargin", 20, 250, func(p *Params) *int { return &p.SEETacticalMargin }},
	{"AspirationDelta", 5, 60, func(p *Params) *int { return &p.AspirationDelta }},
	{"SingularMargin", 50, 600, func(p *Params) *int { return &p.SingularMargin }},
	{"TimeHorizon", 8, 50, func(p *Params) *int { return &p.TimeHorizon }},
	{"TimeIncPercent", 30, 100, func(p *Params) *int { return &p.TimeIncPercent }},
	{"TimeHardRatio", 2, 8, func(p *Params) *int { return &p.TimeHardRatio }},
	{"TimeHardPercent", 10, 60, func(p *Params) *int { return &p.TimeHardPercent }},
}

// Tunables lists the Params as the spin options a Searcher accepts, with
// DefaultParams as their defaults. They are Hidden: a GUI's settings
// dialog does not show them (the UCI server leaves them out of its "uci"
// list), but SetOption, setoption and --option take them, so a match can
// play a candidate and squall tune --spsa can tune them. The time plan's
// act only on a clock (ClockOnly).
func Tunables() []engine.Option {
	d := DefaultParams()
	opts := make([]engine.Option, len(tunables))
	for i, t := range tunables {
		opts[i] = engine.Option{Name: t.name, Type: "spin", Default: strconv.Itoa(*t.field(&d)), Min: t.min, Max: t.max, Hidden: true}
	}
	return opts
}

// ClockOnly reports whether the tunable called name acts only on a clock
// (the time plan's, named Time…), and so not at a fixed node budget.
func ClockOnly(name string) bool { return strings.HasPrefix(name, "Time") }

// setTunable sets the parameter called name (as Tunables spells it) and
// reports whether there is one.
func (p *Params) setTunable(name string, v int) bool {
	for _, t := range tunables {
		if t.name == name {
			*t.field(p) = v
			return true
		}
	}
	return false
}

// lmrTable[d][n] is the base late-move reduction at depth d for the n-th
// move.
type lmrTable [64][64]int

// newLMRTable computes the table for base and divisor (hundredths, see
// Params): base/100 + ln(d)·ln(n)/(divisor/100), the log·log shape
// today's engines use; with the defaults 0.75 + ln d · ln n / 2.25.
func newLMRTable(base, divisor int) *lmrTable {
	b, div := float64(base)/100, float64(divisor)/100
	t := new(lmrTable)
	for d := 1; d < 64; d++ {
		for n := 1; n < 64; n++ {
			t[d][n] = int(b + math.Log(float64(d))*math.Log(float64(n))/div)
		}
	}
	return t
}

// reduction is the table's reduction at depth for the n-th move.
func (t *lmrTable) reduction(depth, n int) int { return t[min(depth, 63)][min(n, 63)] }
