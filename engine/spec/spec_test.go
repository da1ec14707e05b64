package spec

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f Flags
	f.RegisterEngines(fs, "the engines")
	err := fs.Parse([]string{"--engine", "squall", "--engine", "/usr/games/stockfish -x 'a b'",
		"--option", "2:UCI_LimitStrength=true", "--option", "Hash=16", "--option", "2:SyzygyPath=/a:/b"})
	if err != nil {
		t.Fatal(err)
	}
	specs, err := f.Specs(2)
	if err != nil {
		t.Fatal(err)
	}
	if !specs[0].IsBuiltin() || specs[1].IsBuiltin() || specs[1].Command != "/usr/games/stockfish -x 'a b'" {
		t.Errorf("commands: %+v", specs)
	}
	if got := specs[0].Options; len(got) != 1 || got[0] != (Option{"Hash", "16"}) {
		t.Errorf("engine 1 options: %v", got)
	}
	if got := specs[1].Options; len(got) != 2 || got[0] != (Option{"UCI_LimitStrength", "true"}) || got[1] != (Option{"SyzygyPath", "/a:/b"}) {
		t.Errorf("engine 2 options: %v", got)
	}
	if _, err := f.Specs(1); err == nil || !strings.Contains(err.Error(), "--engine given 2 times") {
		t.Errorf("two engines for a one-engine command: %v", err)
	}
	// Defaults fill the engines not given; an empty one is the built-in.
	var g Flags
	specs, err = g.Specs(2, Builtin, "/usr/games/stockfish")
	if err != nil || !specs[0].IsBuiltin() || specs[1].Command != "/usr/games/stockfish" {
		t.Errorf("defaults: %+v, %v", specs, err)
	}
	if s, err := g.Spec(""); err != nil || !s.IsBuiltin() {
		t.Errorf("empty default: %+v, %v", s, err)
	}
	for _, bad := range [][]string{
		{"--option", "Hash"},
		{"--option", "=5"},
		{"--option", "0:Hash=5"},
		{"--engine", ""},
		{"--engine", "stockfish 'unterminated"},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var f Flags
		f.Register(fs, "the engine")
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	var h Flags
	_ = h.options.Set("3:Hash=5")
	if _, err := h.Specs(2); err == nil || !strings.Contains(err.Error(), "there are 2 engines") {
		t.Errorf("option for engine 3 of 2: %v", err)
	}
}

// TestOpenBadOption: a bad option name or value is one line naming the
// engine, the option and the value; the engine is not kept.
func TestOpenBadOption(t *testing.T) {
	for _, c := range []struct {
		opt  Option
		want string
	}{
		{Option{"Hash", "huge"}, `engine Squall`},
		{Option{"Hash", "huge"}, `option Hash: "huge" is not an integer`},
		{Option{"Hash", "0"}, `option Hash: "0" is outside 1..`},
		{Option{"Nope", "1"}, `no option "Nope"`},
		{Option{"UCI_Chess960", "maybe"}, `option UCI_Chess960: "maybe" is not true or false`},
	} {
		a, err := Spec{Command: Builtin, Options: []Option{c.opt}}.Open(context.Background())
		if err == nil {
			a.Close()
			t.Errorf("%v: no error", c.opt)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %q, want one line with %q", c.opt, err, c.want)
		}
	}
	// A default the engine does not declare is left out, not an error.
	a, err := Spec{Command: Builtin, Options: []Option{{"hash", "8"}}}.Open(context.Background(),
		append(Int("Hash", 32), Option{"NoSuchThing", "1"})...)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
}

func TestParse(t *testing.T) {
	for _, in := range []string{"squall", "SQUALL", " squall "} {
		if s, err := Parse(in); err != nil || !s.IsBuiltin() || s.String() != Builtin {
			t.Errorf("Parse(%q) = %+v, %v", in, s, err)
		}
	}
	if _, err := Parse(""); err == nil {
		t.Error("empty command accepted")
	}
	if s, err := Parse("/usr/games/stockfish"); err != nil || s.IsBuiltin() {
		t.Errorf("stockfish: %+v, %v", s, err)
	}
}

// TestOpenNamesEngineOnce: an engine that does not start is one line
// naming it once ("engine /bin/false: engine /bin/false: engine exited"
// before).
func TestOpenNamesEngineOnce(t *testing.T) {
	_, err := Spec{Command: "/bin/false"}.Open(context.Background())
	if err == nil || strings.Count(err.Error(), "/bin/false") != 1 || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q, want one line naming /bin/false once", err)
	}
}
