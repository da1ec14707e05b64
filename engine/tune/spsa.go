package tune

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine"
)

// SPSA (Spall's simultaneous perturbation stochastic approximation) tunes
// integer engine options by games: each iteration plays the options at
// θ + c_k·Δ against θ − c_k·Δ, Δ a random ±1 per parameter, and moves θ
// along Δ by the score. The schedule is the one Fishtest and OpenBench use
// for chess: each parameter has the perturbation c_end and learning rate
// r_end it should reach at the planned last iteration N, and
//
//	c_k = c / k^0.101,        c = c_end · N^0.101
//	a_k = a / (A + k)^0.602,  a = r_end · c_end² · (A + N)^0.602, A = N/10
//	θ  += a_k/c_k² · c_k · (W − L) · Δ
//
// where W − L is θ+'s wins minus losses against θ− (its score minus θ−'s),
// and every value stays within its parameter's range. Iterations past N
// go on with ever smaller steps.
const (
	spsaAlpha = 0.602
	spsaGamma = 0.101
	// spsaARatio is A/N, the stability constant's share of the plan.
	spsaARatio = 0.1
)

// SPSAParam is one tuned parameter.
type SPSAParam struct {
	Name string // the engine option
	// Value is θ, a real number: the engine plays it rounded.
	Value    float64
	Min, Max float64 // the range θ and θ± are kept in
	CEnd     float64 // the perturbation c_k at the planned last iteration
	REnd     float64 // the learning rate a_k/c_k² there
}

// SPSAState is a tuning run: where θ is and what it cost. It is the text
// file ParseSPSAState reads and Format writes, committed so that a run
// resumes anywhere.
type SPSAState struct {
	Iteration int // iterations done
	Planned   int // N: the iteration the schedule reaches c_end and r_end at
	// Games and the results are θ+'s against θ−, over all iterations.
	Games, Wins, Draws, Losses int
	Params                     []SPSAParam
}

// NewSPSAState starts a run over opts (spin options) from their defaults,
// each over its whole range with c_end a twentieth of it (at least 1,
// the engine's resolution) and r_end 0.002, the customary rate.
func NewSPSAState(opts []engine.Option, planned int) (*SPSAState, error) {
	s := &SPSAState{Planned: planned}
	for _, o := range opts {
		if o.Type != "spin" {
			return nil, fmt.Errorf("spsa: option %s is a %s, not a spin", o.Name, o.Type)
		}
		v, err := strconv.Atoi(o.Default)
		if err != nil {
			return nil, fmt.Errorf("spsa: option %s: default %q: %w", o.Name, o.Default, err)
		}
		s.Params = append(s.Params, SPSAParam{
			Name: o.Name, Value: float64(v), Min: float64(o.Min), Max: float64(o.Max),
			CEnd: max(1, float64(o.Max-o.Min)/20), REnd: 0.002,
		})
	}
	return s, s.check()
}

// Check reports a parameter that is not one of opts' spin options or whose
// range reaches outside the option's: the engine would refuse the values.
func (s *SPSAState) Check(opts []engine.Option) error {
	for _, p := range s.Params {
		i := -1
		for j, o := range opts {
			if strings.EqualFold(o.Name, p.Name) && o.Type == "spin" {
				i = j
			}
		}
		if i < 0 {
			return fmt.Errorf("spsa: the engine has no spin option %s", p.Name)
		}
		if o := opts[i]; p.Min < float64(o.Min) || p.Max > float64(o.Max) {
			return fmt.Errorf("spsa: %s's range %g..%g reaches outside the option's %d..%d", p.Name, p.Min, p.Max, o.Min, o.Max)
		}
	}
	return nil
}

// Perturbation is one iteration's pair of candidates.
type Perturbation struct {
	K     int       // the iteration, from 1
	Delta []float64 // ±1 per parameter
	C     []float64 // c_k per parameter
	// Plus and Minus are θ ± c_k·Δ, each kept within its range.
	Plus, Minus []float64
	// Seed is the iteration's own random seed, for the caller's choices
	// (the openings), so that a rerun of the iteration makes the same ones.
	Seed uint64
}

// spsaSeed makes each iteration's randomness depend on its number only: a
// run that resumes draws what an uninterrupted one would have.
const spsaSeed = 0x5e5a5e5a

// Perturb draws the next iteration's Δ and candidates.
func (s *SPSAState) Perturb() Perturbation {
	k := s.Iteration + 1
	rng := rand.New(rand.NewPCG(uint64(k), spsaSeed))
	n := len(s.Params)
	p := Perturbation{K: k, Delta: make([]float64, n), C: make([]float64, n), Plus: make([]float64, n), Minus: make([]float64, n), Seed: rng.Uint64()}
	for i, q := range s.Params {
		p.Delta[i] = 1
		if rng.IntN(2) == 0 {
			p.Delta[i] = -1
		}
		p.C[i], _ = s.gains(q, k)
		p.Plus[i] = q.clamp(q.Value + p.C[i]*p.Delta[i])
		p.Minus[i] = q.clamp(q.Value - p.C[i]*p.Delta[i])
	}
	return p
}

// gains are c_k and a_k for parameter q at iteration k.
func (s *SPSAState) gains(q SPSAParam, k int) (ck, ak float64) {
	n := float64(s.Planned)
	bigA := spsaARatio * n
	c := q.CEnd * math.Pow(n, spsaGamma)
	a := q.REnd * q.CEnd * q.CEnd * math.Pow(bigA+n, spsaAlpha)
	return c / math.Pow(float64(k), spsaGamma), a / math.Pow(bigA+float64(k), spsaAlpha)
}

func (q SPSAParam) clamp(v float64) float64 { return max(q.Min, min(q.Max, v)) }

// Apply records the games of iteration p (θ+'s wins, draws and losses
// against θ−) and moves θ.
func (s *SPSAState) Apply(p Perturbation, wins, draws, losses int) {
	diff := float64(wins - losses)
	for i := range s.Params {
		q := &s.Params[i]
		ck, ak := s.gains(*q, p.K)
		q.Value = q.clamp(q.Value + ak/(ck*ck)*ck*diff*p.Delta[i])
	}
	s.Iteration = p.K
	s.Games += wins + draws + losses
	s.Wins += wins
	s.Draws += draws
	s.Losses += losses
}

// Rounded are θ's values as the engine takes them.
func (s *SPSAState) Rounded() []int {
	v := make([]int, len(s.Params))
	for i, q := range s.Params {
		v[i] = roundValue(q.Value)
	}
	return v
}

// roundValue is a parameter's value as the engine's integer option takes
// it: the nearest integer, halves away from zero.
func roundValue(v float64) int { return int(math.Round(v)) }

// SPSAGames plays one iteration: the engine at plus (the parameters'
// values, rounded, in the state's order) against the engine at minus, and
// returns plus's wins, draws and losses.
type SPSAGames func(ctx context.Context, p Perturbation) (wins, draws, losses int, err error)

// Run plays iterations more iterations, calling save with the state after
// each (so that a run killed loses at most the iteration it was playing)
// and progress, if set, with the iteration's perturbation and results. It
// stops early, the state as it was after the last complete iteration,
// when ctx ends or play or save fails.
func (s *SPSAState) Run(ctx context.Context, iterations int, play SPSAGames, save func(*SPSAState) error, progress func(p Perturbation, wins, draws, losses int)) error {
	for range iterations {
		p := s.Perturb()
		w, d, l, err := play(ctx, p)
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("spsa: iteration %d: %w", p.K, err)
		}
		s.Apply(p, w, d, l)
		if err := save(s); err != nil {
			return fmt.Errorf("spsa: iteration %d: %w", p.K, err)
		}
		if progress != nil {
			progress(p, w, d, l)
		}
	}
	return nil
}

// spsaHeader opens every state file Format writes.
const spsaHeader = `# Squall SPSA state: squall tune --spsa --state FILE (docs/TUNING.md).
# Rewritten after every iteration. games, wins, draws, losses: theta+ against theta-.
`

// Format writes the state as the text ParseSPSAState reads: one "key
// value" line for each count, then "param NAME VALUE MIN MAX C_END R_END"
// for each parameter, its numbers as short as round-trips exactly.
func (s *SPSAState) Format() []byte {
	var b bytes.Buffer
	b.WriteString(spsaHeader)
	for _, kv := range s.counts() {
		fmt.Fprintf(&b, "%s %d\n", kv.key, *kv.v)
	}
	b.WriteString("# param name value min max c_end r_end\n")
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, q := range s.Params {
		fmt.Fprintf(&b, "param %s %s %s %s %s %s\n", q.Name, f(q.Value), f(q.Min), f(q.Max), f(q.CEnd), f(q.REnd))
	}
	return b.Bytes()
}

type count struct {
	key string
	v   *int
}

func (s *SPSAState) counts() []count {
	return []count{{"iteration", &s.Iteration}, {"planned", &s.Planned}, {"games", &s.Games},
		{"wins", &s.Wins}, {"draws", &s.Draws}, {"losses", &s.Losses}}
}

// ParseSPSAState reads a state file; name labels its errors, which give
// the line ("search.txt:7: …"). Blank lines and lines beginning with #
// are skipped; every count must be there once, and at least one
// parameter.
func ParseSPSAState(r io.Reader, name string) (*SPSAState, error) {
	s := &SPSAState{}
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := s.parseLine(line, seen); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	for _, kv := range s.counts() {
		if !seen[kv.key] {
			return nil, fmt.Errorf("%s: no %s line", name, kv.key)
		}
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

func (s *SPSAState) parseLine(line string, seen map[string]bool) error {
	f := strings.Fields(line)
	if f[0] == "param" {
		if len(f) != 7 {
			return fmt.Errorf("want \"param NAME VALUE MIN MAX C_END R_END\", have %d fields", len(f))
		}
		q := SPSAParam{Name: f[1]}
		for i, dst := range []*float64{&q.Value, &q.Min, &q.Max, &q.CEnd, &q.REnd} {
			v, err := strconv.ParseFloat(f[i+2], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("param %s: %q is not a number", q.Name, clip(f[i+2]))
			}
			*dst = v
		}
		if seen["param "+q.Name] {
			return fmt.Errorf("param %s twice", q.Name)
		}
		seen["param "+q.Name] = true
		if err := q.check(); err != nil {
			return err
		}
		s.Params = append(s.Params, q)
		return nil
	}
	for _, kv := range s.counts() {
		if f[0] != kv.key {
			continue
		}
		if len(f) != 2 {
			return fmt.Errorf("want \"%s N\"", kv.key)
		}
		v, err := strconv.Atoi(f[1])
		if err != nil || v < 0 {
			return fmt.Errorf("%s: %q is not a count", kv.key, clip(f[1]))
		}
		if seen[kv.key] {
			return fmt.Errorf("%s twice", kv.key)
		}
		seen[kv.key] = true
		*kv.v = v
		return nil
	}
	return fmt.Errorf("unknown line %q (want iteration, planned, games, wins, draws, losses or param)", clip(line))
}

func (q SPSAParam) check() error {
	switch {
	case q.Min >= q.Max:
		return fmt.Errorf("param %s: min %g is not below max %g", q.Name, q.Min, q.Max)
	case q.Value < q.Min || q.Value > q.Max:
		return fmt.Errorf("param %s: value %g is outside %g..%g", q.Name, q.Value, q.Min, q.Max)
	case q.CEnd <= 0 || q.REnd <= 0:
		return fmt.Errorf("param %s: c_end %g and r_end %g must be above 0", q.Name, q.CEnd, q.REnd)
	}
	return nil
}

// check is what every state must satisfy beyond its lines' syntax.
func (s *SPSAState) check() error {
	switch {
	case s.Planned < 1:
		return errors.New("planned must be at least 1 iteration")
	case len(s.Params) == 0:
		return errors.New("no param lines: nothing to tune")
	case s.Wins+s.Draws+s.Losses != s.Games:
		return fmt.Errorf("wins %d + draws %d + losses %d is not games %d", s.Wins, s.Draws, s.Losses, s.Games)
	}
	return nil
}

// clip shortens text quoted in an error.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
