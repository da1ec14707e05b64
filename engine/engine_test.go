package engine

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

func TestLimitsString(t *testing.T) {
	for _, c := range []struct {
		l    Limits
		want string
	}{
		{Limits{Depth: 12}, "depth 12"},
		{Limits{Nodes: 100000}, "nodes 100000"},
		{Limits{MoveTime: 1500 * time.Millisecond}, "movetime 1.5s"},
		{Limits{Mate: 3}, "mate 3"},
		{Limits{WTime: time.Minute, BTime: time.Minute}, "clock"},
		{Limits{Infinite: true}, "infinite"},
		{Limits{}, "no limit"},
		// A depth cap wins over the clock it was combined with.
		{Limits{Depth: 5, WTime: time.Second}, "depth 5"},
	} {
		if got := c.l.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}

func TestOptionCheck(t *testing.T) {
	spin := Option{Name: "Hash", Type: "spin", Min: 1, Max: 1024}
	check := Option{Name: "Ponder", Type: "check"}
	combo := Option{Name: "Style", Type: "combo", Vars: []string{"Solid", "Risky"}}
	str := Option{Name: "BookFile", Type: "string"}
	for _, c := range []struct {
		o       Option
		in, out string
		err     string // a part of the error; "" for none
	}{
		{spin, " 64 ", "64", ""},
		{spin, "+64", "64", ""},
		{spin, "0", "", `option Hash: "0" is outside 1..1024`},
		{spin, "64MB", "", `"64MB" is not an integer`},
		{check, "True", "true", ""},
		{check, "FALSE", "false", ""},
		{check, "yes", "", `option Ponder: "yes" is not true or false`},
		{combo, "risky", "Risky", ""},
		{combo, "wild", "", "is not one of Solid, Risky"},
		{str, "<empty>", "", ""},
		{str, " a b.bin ", "a b.bin", ""},
		{Option{Name: "Clear Hash", Type: "button"}, "x", "", ""},
		{spin, strings.Repeat("9", 100), "", `"` + strings.Repeat("9", 40) + `…"`},
		// Cut at a rune, not inside one: "é" is two bytes across the cap.
		{spin, strings.Repeat("9", 39) + strings.Repeat("é", 10), "", `"` + strings.Repeat("9", 39) + `…"`},
	} {
		got, err := c.o.Check(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s %q: %v", c.o.Name, c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %q: error %v, want one with %q", c.o.Name, c.in, err, c.err)
		case got != c.out:
			t.Errorf("%s %q: %q, want %q", c.o.Name, c.in, got, c.out)
		}
	}
}

// TestLimitsIsZero sets each field of Limits in turn: a field added later
// and forgotten in IsZero fails here.
func TestLimitsIsZero(t *testing.T) {
	if !(Limits{}).IsZero() {
		t.Fatal("Limits{} is not zero")
	}
	typ := reflect.TypeOf(Limits{})
	for i := range typ.NumField() {
		var l Limits
		f := reflect.ValueOf(&l).Elem().Field(i)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(1)
		case reflect.Uint64:
			f.SetUint(1)
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", typ.Field(i).Name, f.Kind())
		}
		if l.IsZero() {
			t.Errorf("Limits with %s set is zero", typ.Field(i).Name)
		}
	}
}

func TestInfoKind(t *testing.T) {
	e4, err := chess.NewPosition().ParseUCI("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   Info
		kind InfoKind
		best bool
	}{
		{Info{Depth: 12, Score: Score{CP: 30}, PV: []chess.Move{e4}}, Line, true},
		{Info{Depth: 12, MultiPV: 1, PV: []chess.Move{e4}}, Line, true},
		{Info{Depth: 12, MultiPV: 2, PV: []chess.Move{e4}}, Line, false},
		// Stockfish's "info depth 28 currmove e2e4 currmovenumber 1".
		{Info{Depth: 28, CurrMove: e4, CurrMoveNumber: 1}, Progress, false},
		{Info{Nodes: 5000, NPS: 100000}, Progress, false},
		{Info{Depth: 3, Score: Score{CP: 10}, PV: []chess.Move{}}, Progress, false}, // a PV cut to nothing
		{Info{String: "NNUE evaluation enabled"}, Text, false},
	} {
		if k := c.in.Kind(); k != c.kind {
			t.Errorf("%+v: kind %d, want %d", c.in, k, c.kind)
		}
		if b := c.in.BestLine(); b != c.best {
			t.Errorf("%+v: BestLine %v, want %v", c.in, b, c.best)
		}
	}
}
