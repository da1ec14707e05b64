package tune

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/internal/atomicfile"
)

// quadratic is a synthetic engine: its strength in Elo falls with the
// square of each parameter's distance from optimum, scale[i] the distance
// that costs 100 Elo.
type quadratic struct {
	optimum, scale []float64
	drawRate       float64
	rng            *rand.Rand
}

func (q *quadratic) elo(values []float64) float64 {
	e := 0.0
	for i, v := range values {
		d := (math.Round(v) - q.optimum[i]) / q.scale[i] // the engine plays it rounded
		e -= 100 * d * d
	}
	return e
}

// play is a pair of noisy games: each is a draw at drawRate, else won by
// plus with the Elo model's expected score.
func (q *quadratic) play(_ context.Context, p Perturbation) (w, d, l int, err error) {
	pw := 1 / (1 + math.Pow(10, (q.elo(p.Minus)-q.elo(p.Plus))/400))
	for range 2 {
		switch {
		case q.rng.Float64() < q.drawRate:
			d++
		case q.rng.Float64() < pw:
			w++
		default:
			l++
		}
	}
	return w, d, l, nil
}

// distance is how far θ is from the optimum, each parameter in its scale.
func (q *quadratic) distance(s *SPSAState) float64 {
	sum := 0.0
	for i, p := range s.Params {
		d := (p.Value - q.optimum[i]) / q.scale[i]
		sum += d * d
	}
	return math.Sqrt(sum)
}

// TestSPSAMovesTowardOptimum: on a noisy quadratic with a known optimum,
// SPSA's updates bring θ closer: within 60 % of the start's distance after
// 300 iterations and 30 % by the plan's end, from either side and with
// draws (four seeds, each ending near a quarter of it).
func TestSPSAMovesTowardOptimum(t *testing.T) {
	for seed := range uint64(4) {
		q := &quadratic{optimum: []float64{120, 4, 300}, scale: []float64{40, 2, 100}, drawRate: 0.4, rng: rand.New(rand.NewPCG(seed, 1))}
		s := &SPSAState{Planned: 1000, Params: []SPSAParam{
			{Name: "A", Value: 40, Min: 0, Max: 200, CEnd: 10, REnd: 0.01},
			{Name: "B", Value: 8, Min: 1, Max: 10, CEnd: 1, REnd: 0.01},
			{Name: "C", Value: 150, Min: 100, Max: 600, CEnd: 25, REnd: 0.01},
		}}
		if seed%2 == 1 { // from the other side
			s.Params[0].Value, s.Params[1].Value, s.Params[2].Value = 190, 1, 500
		}
		start := q.distance(s)
		save := func(*SPSAState) error { return nil }
		if err := s.Run(context.Background(), 300, q.play, save, nil); err != nil {
			t.Fatal(err)
		}
		mid := q.distance(s)
		if err := s.Run(context.Background(), 700, q.play, save, nil); err != nil {
			t.Fatal(err)
		}
		end := q.distance(s)
		t.Logf("seed %d: distance %.2f, after 300 iterations %.2f, after 1000 %.2f: %+v", seed, start, mid, end, s.Params)
		if mid > start*0.6 || end > start*0.3 {
			t.Errorf("seed %d: distance %.2f, after 300 iterations %.2f, after 1000 %.2f: not moving to the optimum", seed, start, mid, end)
		}
		if s.Iteration != 1000 || s.Games != 2000 || s.Wins+s.Draws+s.Losses != s.Games {
			t.Errorf("seed %d: iteration %d, games %d (+%d =%d -%d)", seed, s.Iteration, s.Games, s.Wins, s.Draws, s.Losses)
		}
	}
}

// TestSPSASchedule: c_k and r_k = a_k/c_k² reach c_end and r_end at the
// planned iteration; a perturbation stays in range and is ±c_k elsewhere.
func TestSPSASchedule(t *testing.T) {
	s := &SPSAState{Planned: 5000, Params: []SPSAParam{{Name: "X", Value: 3, Min: 0, Max: 100, CEnd: 4, REnd: 0.002}}}
	ck, ak := s.gains(s.Params[0], 5000)
	if math.Abs(ck-4) > 1e-9 || math.Abs(ak/(ck*ck)-0.002) > 1e-12 {
		t.Errorf("at N: c_k %g, r_k %g, want 4, 0.002", ck, ak/(ck*ck))
	}
	c1, _ := s.gains(s.Params[0], 1)
	if want := 4 * math.Pow(5000, 0.101); math.Abs(c1-want) > 1e-9 {
		t.Errorf("c_1 %g, want %g", c1, want)
	}
	p := s.Perturb()
	if p.K != 1 || p.Minus[0] != 0 && p.Plus[0] != 0 {
		t.Errorf("k %d, θ+ %g, θ− %g: 3 ± %g should clamp at 0", p.K, p.Plus[0], p.Minus[0], c1)
	}
	if hi := max(p.Plus[0], p.Minus[0]); math.Abs(hi-(3+c1)) > 1e-9 {
		t.Errorf("θ± %g, %g: want 3 + %g on one side", p.Plus[0], p.Minus[0], c1)
	}
	// θ moves along Δ by r_k·c_k·(W − L).
	before := s.Params[0].Value
	s.Apply(p, 2, 1, 0)
	_, a1 := s.gains(s.Params[0], 1)
	if got, want := s.Params[0].Value-before, a1/c1*2*p.Delta[0]; math.Abs(got-want) > 1e-12 {
		t.Errorf("θ moved %g, want %g", got, want)
	}
	if s.Iteration != 1 || s.Games != 3 || s.Wins != 2 || s.Draws != 1 {
		t.Errorf("after one iteration: %+v", s)
	}
}

// TestSPSAStateRoundTrip: Format and ParseSPSAState give back the same
// state, every float exactly.
func TestSPSAStateRoundTrip(t *testing.T) {
	s := &SPSAState{Iteration: 17, Planned: 4000, Games: 68, Wins: 20, Draws: 30, Losses: 18, Params: []SPSAParam{
		{Name: "LMRBase", Value: 75.123456789012345, Min: 0, Max: 200, CEnd: 10, REnd: 0.002},
		{Name: "RFPMargin", Value: 1.0 / 3, Min: -5.5, Max: 1e6, CEnd: 0.1, REnd: 1e-7},
	}}
	got, err := ParseSPSAState(bytes.NewReader(s.Format()), "s.txt")
	if err != nil {
		t.Fatalf("%v in\n%s", err, s.Format())
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("read back %+v, want %+v", got, s)
	}
}

// TestSPSAResume: a run interrupted after iteration 3 (the state written
// after each) and resumed from the file ends exactly where an
// uninterrupted run does.
func TestSPSAResume(t *testing.T) {
	newState := func() *SPSAState {
		s, err := NewSPSAState(search.Tunables()[:4], 100)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// A deterministic "match": plus wins when its first value is lower.
	play := func(_ context.Context, p Perturbation) (int, int, int, error) {
		if p.Plus[0] < p.Minus[0] {
			return 2, 1, 1, nil
		}
		return 0, 2, 2, nil
	}
	whole := newState()
	if err := whole.Run(context.Background(), 6, play, func(*SPSAState) error { return nil }, nil); err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "state.txt")
	save := func(s *SPSAState) error { return atomicfile.WriteFile(path, s.Format()) }
	broken := errors.New("killed")
	n := 0
	killed := func(ctx context.Context, p Perturbation) (int, int, int, error) {
		if n++; n == 4 {
			return 0, 0, 0, broken // dies in iteration 4
		}
		return play(ctx, p)
	}
	if err := newState().Run(context.Background(), 6, killed, save, nil); !errors.Is(err, broken) || !strings.Contains(err.Error(), "iteration 4") {
		t.Fatalf("interrupted run: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := ParseSPSAState(f, path)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Iteration != 3 {
		t.Fatalf("the file holds iteration %d, want 3", resumed.Iteration)
	}
	if err := resumed.Run(context.Background(), 3, play, save, nil); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resumed, whole) {
		t.Errorf("resumed run ends at\n%s\nthe whole run at\n%s", resumed.Format(), whole.Format())
	}
}

// TestSPSAStateErrors: a malformed state is refused with the line that is
// wrong.
func TestSPSAStateErrors(t *testing.T) {
	good := "iteration 0\nplanned 10\ngames 0\nwins 0\ndraws 0\nlosses 0\nparam X 5 0 10 1 0.002\n"
	if _, err := ParseSPSAState(strings.NewReader(good), "s.txt"); err != nil {
		t.Fatalf("the good state: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{strings.Replace(good, "planned 10", "planned ten", 1), `s.txt:2: planned: "ten" is not a count`},
		{strings.Replace(good, "wins 0", "wins -1", 1), `s.txt:4: wins: "-1" is not a count`},
		{strings.Replace(good, "draws 0", "draws 0 1", 1), `s.txt:5: want "draws N"`},
		{good + "iteration 3\n", "s.txt:8: iteration twice"},
		{good + "param X 5 0 10 1 0.002\n", "s.txt:8: param X twice"},
		{good + "param Y 5 0 10 1\n", `s.txt:8: want "param NAME VALUE MIN MAX C_END R_END", have 6 fields`},
		{good + "param Y five 0 10 1 0.002\n", `s.txt:8: param Y: "five" is not a number`},
		{good + "param Y NaN 0 10 1 0.002\n", `s.txt:8: param Y: "NaN" is not a number`},
		{good + "param Y 11 0 10 1 0.002\n", "s.txt:8: param Y: value 11 is outside 0..10"},
		{good + "param Y 5 10 0 1 0.002\n", "s.txt:8: param Y: min 10 is not below max 0"},
		{good + "param Y 5 0 10 0 0.002\n", "s.txt:8: param Y: c_end 0 and r_end 0.002 must be above 0"},
		{"# a comment\n\n" + good + "tune everything\n", `s.txt:10: unknown line "tune everything" (want iteration, planned, games, wins, draws, losses or param)`},
		{strings.Replace(good, "losses 0\n", "", 1), "s.txt: no losses line"},
		{strings.Replace(good, "param X 5 0 10 1 0.002\n", "", 1), "s.txt: no param lines: nothing to tune"},
		{strings.Replace(good, "planned 10", "planned 0", 1), "s.txt: planned must be at least 1 iteration"},
		{strings.Replace(good, "games 0", "games 2", 1), "s.txt: wins 0 + draws 0 + losses 0 is not games 2"},
	} {
		_, err := ParseSPSAState(strings.NewReader(c.text), "s.txt")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %s", c.text, err, c.want)
		}
	}
}

// TestSPSAStateCheck: a parameter the engine lacks, or a range wider than
// its option's, is refused before any game.
func TestSPSAStateCheck(t *testing.T) {
	opts := search.Tunables()
	s, err := NewSPSAState(opts, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(opts); err != nil {
		t.Fatalf("the engine's own tunables: %v", err)
	}
	s.Params[0].Max++
	if err := s.Check(opts); err == nil || !strings.Contains(err.Error(), "outside the option's") {
		t.Errorf("a range past the option's: %v", err)
	}
	s.Params[0].Max--
	s.Params = append(s.Params, SPSAParam{Name: "NoSuchThing", Min: 0, Max: 1, CEnd: 1, REnd: 1})
	if err := s.Check(opts); err == nil || !strings.Contains(err.Error(), "no spin option NoSuchThing") {
		t.Errorf("an unknown parameter: %v", err)
	}
	if _, err := NewSPSAState([]engine.Option{{Name: "Ponder", Type: "check", Default: "false"}}, 10); err == nil {
		t.Error("a check option accepted as a parameter")
	}
}

// TestSPSAMatchPlays: an iteration's games are played in process, the
// engines set to θ+ and θ−, every game counted.
func TestSPSAMatchPlays(t *testing.T) {
	s, err := NewSPSAState(search.Tunables()[:3], 10)
	if err != nil {
		t.Fatal(err)
	}
	m := SPSAMatch{State: s, Openings: opening.BalancedStarts(), Pairs: 2, Nodes: 300, Concurrency: 2, Hash: 1, MaxPlies: 60}
	w, d, l, err := m.Play(context.Background(), s.Perturb())
	if err != nil {
		t.Fatal(err)
	}
	if w+d+l != 4 {
		t.Errorf("+%d =%d -%d: want 4 games", w, d, l)
	}
	// A parameter the engine refuses fails the iteration.
	s.Params[0].Name = "NoSuchThing"
	if _, _, _, err := m.Play(context.Background(), s.Perturb()); err == nil || !strings.Contains(err.Error(), "NoSuchThing") {
		t.Errorf("an unknown parameter: %v", err)
	}
}

// FuzzParseSPSAState: the parser never panics, and what it accepts it
// writes back as the same state.
func FuzzParseSPSAState(f *testing.F) {
	f.Add("iteration 0\nplanned 10\ngames 0\nwins 0\ndraws 0\nlosses 0\nparam X 5 0 10 1 0.002\n")
	f.Add("iteration 3\nplanned 1\ngames 4\nwins 1\ndraws 2\nlosses 1\nparam X 5e3 -1e9 1e9 0.5 1\nparam Y 1 0 2 1 1\n")
	f.Add("param\n\n# x\nwins\nparam a b c d e f\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSPSAState(strings.NewReader(text), "f")
		if err != nil {
			return
		}
		again, err := ParseSPSAState(bytes.NewReader(s.Format()), "f")
		if err != nil {
			t.Fatalf("%q read, but its rewrite %q does not: %v", text, s.Format(), err)
		}
		if !reflect.DeepEqual(s, again) {
			t.Fatalf("%q: %+v rewritten as %+v", text, s, again)
		}
	})
}
