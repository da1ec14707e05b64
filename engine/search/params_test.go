package search

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// TestDefaultLMRTable: the table made from the default LMRBase and
// LMRDivisor is the one the search used when they were constants,
// 0.75 + ln d · ln n / 2.25, entry for entry.
func TestDefaultLMRTable(t *testing.T) {
	d := DefaultParams()
	got := newLMRTable(d.LMRBase, d.LMRDivisor)
	for depth := 1; depth < 64; depth++ {
		for n := 1; n < 64; n++ {
			if want := int(0.75 + math.Log(float64(depth))*math.Log(float64(n))/2.25); got[depth][n] != want {
				t.Fatalf("r(%d, %d) = %d, want %d", depth, n, got[depth][n], want)
			}
		}
	}
}

// TestDefaultsInHundredths: the parameters kept in hundredths give, at
// their defaults, the whole-number arithmetic of the constants they
// replaced, at every depth: LMP's 3 + d² (halved), the null move's
// 3 + d/4 + min(3, (eval − beta)/200) and the singular margin's 2·d.
func TestDefaultsInHundredths(t *testing.T) {
	p := DefaultParams()
	for d := 0; d < 128; d++ {
		if got, want := p.lmpLimit(d, true), 3+d*d; got != want {
			t.Errorf("lmpLimit(%d, improving) = %d, want %d", d, got, want)
		}
		if got, want := p.lmpLimit(d, false), (3+d*d)/2; got != want {
			t.Errorf("lmpLimit(%d) = %d, want %d", d, got, want)
		}
		for _, m := range []int{0, 150, 199, 200, 401, 5000} {
			if got, want := p.nullReduction(d, m), 3+d/4+min(3, m/200); got != want {
				t.Errorf("null-move R at depth %d, %d over beta: %d, want %d", d, m, got, want)
			}
		}
		if got, want := p.singularMargin(d), 2*d; got != want {
			t.Errorf("singular margin at depth %d: %d, want %d", d, got, want)
		}
	}
}

// TestTunablesAreOptions: every Params field is a hidden spin option whose
// default is DefaultParams' value and inside its range, and setting it
// changes that field and no other.
func TestTunablesAreOptions(t *testing.T) {
	opts := Tunables()
	if n := len(opts); n != len(tunables) || n*int(unsafe.Sizeof(0)) != int(unsafe.Sizeof(Params{})) {
		t.Fatalf("%d tunables for a Params of %d bytes: a field has no option", n, unsafe.Sizeof(Params{}))
	}
	s := New()
	for _, o := range opts {
		if !o.Hidden || o.Type != "spin" {
			t.Errorf("%s: %+v, want a hidden spin", o.Name, o)
		}
		if !hasOption(s.Options(), o) {
			t.Errorf("%s: not among the Searcher's options", o.Name)
		}
		def, _ := strconv.Atoi(o.Default)
		if def < o.Min || def > o.Max || o.Min >= o.Max {
			t.Errorf("%s: default %d outside %d..%d", o.Name, def, o.Min, o.Max)
		}
		before := s.set.params
		if err := s.SetOption(strings.ToLower(o.Name), strconv.Itoa(o.Max)); err != nil {
			t.Fatal(err)
		}
		after := s.set.params
		changed := 0
		for _, u := range tunables {
			if *u.field(&before) != *u.field(&after) {
				changed++
				if u.name != o.Name {
					t.Errorf("setting %s changed %s", o.Name, u.name)
				}
			}
		}
		if changed != 1 {
			t.Errorf("setting %s to %d changed %d parameters", o.Name, o.Max, changed)
		}
		if err := s.SetOption(o.Name, strconv.Itoa(o.Max+1)); err == nil {
			t.Errorf("%s: %d, past its maximum, accepted", o.Name, o.Max+1)
		}
	}
}

func hasOption(opts []engine.Option, o engine.Option) bool {
	for _, x := range opts {
		if x.Name == o.Name && x.Default == o.Default && x.Min == o.Min && x.Max == o.Max && x.Hidden == o.Hidden {
			return true
		}
	}
	return false
}

// TestTunablesChangeTheSearch: each search constant, set to another value,
// changes the search (its node count to a fixed depth), and each time-plan
// constant the budget; so none is declared and left unused. With the
// defaults set explicitly the search is the default one.
func TestTunablesChangeTheSearch(t *testing.T) {
	g := game(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10")
	nodes := func(opts ...string) uint64 {
		s := New()
		for i := 0; i < len(opts); i += 2 {
			if err := s.SetOption(opts[i], opts[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		res, _ := run(t, s, g, engine.Limits{Depth: 9})
		return res.Last.Nodes
	}
	base := nodes()
	lim := engine.Limits{WTime: 60 * time.Second, WInc: time.Second}
	for _, o := range Tunables() {
		def, _ := strconv.Atoi(o.Default)
		if n := nodes(o.Name, o.Default); n != base {
			t.Errorf("%s at its default %d: %d nodes, want %d", o.Name, def, n, base)
		}
		other := strconv.Itoa(o.Max)
		if ClockOnly(o.Name) {
			d, lo, hi := DefaultParams(), DefaultParams(), DefaultParams()
			lo.setTunable(o.Name, o.Min)
			hi.setTunable(o.Name, o.Max)
			plan := planTime(lim, chess.White, 0, &d)
			if plan == planTime(lim, chess.White, 0, &lo) && plan == planTime(lim, chess.White, 0, &hi) {
				t.Errorf("%s: the time plan is the same at %d and %d", o.Name, o.Min, o.Max)
			}
			continue
		}
		if n := nodes(o.Name, other); n == base {
			t.Errorf("%s %s: %d nodes, as with the default", o.Name, other, n)
		}
	}
}
