package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/tune"
)

// TestTuneSPSA: --init writes a state from the engine's defaults, each
// run adds its iterations to the file and a second run resumes from it,
// and --print turns the values into a match's options.
func TestTuneSPSA(t *testing.T) {
	state := filepath.Join(t.TempDir(), "search.txt")
	var stdout, stderr bytes.Buffer
	squallTune := func(args ...string) string {
		t.Helper()
		stdout.Reset()
		stderr.Reset()
		if err := execute("tune", args, &stdout, &stderr); err != nil {
			t.Fatalf("squall tune %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return stdout.String()
	}
	read := func() *tune.SPSAState {
		t.Helper()
		f, err := os.Open(state)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, err := tune.ParseSPSAState(f, state)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	out := squallTune("--spsa", "--init", "--state", state, "--iterations", "1", "--pairs", "1", "--nodes", "300", "--planned", "50")
	if st := read(); st.Iteration != 1 || st.Games != 2 || st.Planned != 50 || len(st.Params) != 14 {
		t.Fatalf("after one iteration the file holds iteration %d, %d games, planned %d, %d params; it said:\n%s", st.Iteration, st.Games, st.Planned, len(st.Params), out)
	}
	if !strings.Contains(out, "iteration 1: theta+ ") {
		t.Errorf("no iteration line:\n%s", out)
	}
	out = squallTune("--spsa", "--state", state, "--iterations", "2", "--pairs", "1", "--nodes", "300", "--threads", "2")
	if st := read(); st.Iteration != 3 || st.Games != 6 {
		t.Errorf("resumed for 2 more: iteration %d, %d games; it said:\n%s", st.Iteration, st.Games, out)
	}
	if !strings.Contains(out, "iteration 1 of 50 planned, 2 games so far") || !strings.Contains(out, "iteration 3: ") {
		t.Errorf("the resumed run said:\n%s", out)
	}

	// --print: the values that differ from the defaults as engine 1's
	// options, or that none does.
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(b), "\nparam RFPMargin ", "\nparam RFPMargin 91.4 20 200 8 0.002\n# ", 1)
	if err := os.WriteFile(state, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	out = squallTune("--spsa", "--state", state, "--print")
	if !strings.Contains(out, "squall match --engine squall --engine squall") || !strings.Contains(out, "--option 1:RFPMargin=91") {
		t.Errorf("--print said:\n%s", out)
	}
}

// TestTuneSPSAErrors: SPSA's flags without --spsa and Texel's with it are
// usage errors; a missing or malformed state file, --init over an
// existing one and a time constant at a node budget are refused, naming
// the file (and the line).
func TestTuneSPSAErrors(t *testing.T) {
	bad := writeTemp(t, "bad.txt", "iteration 0\nplanned 10\nwins x\n")
	timed := writeTemp(t, "timed.txt", "iteration 0\nplanned 10\ngames 0\nwins 0\ndraws 0\nlosses 0\nparam TimeHorizon 20 8 50 2 0.002\n")
	missing := filepath.Join(t.TempDir(), "none.txt")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--pairs", "3"}, "--pairs needs --spsa"},
		{[]string{"--spsa", "--state", bad, "--data", "x.epd"}, "--data is for the evaluation's tuning, not --spsa"},
		{[]string{"--spsa"}, "--spsa wants --state FILE"},
		{[]string{"--spsa", "--state", bad, "--planned", "5"}, "--planned needs --init"},
		{[]string{"--spsa", "--state", missing}, missing + ": no such file (--init starts a new run)"},
		{[]string{"--spsa", "--state", bad, "--init"}, bad + " exists: --init starts a new run only in a new file"},
		{[]string{"--spsa", "--state", bad}, bad + `:3: wins: "x" is not a count`},
		{[]string{"--spsa", "--state", timed}, timed + ": TimeHorizon acts only on a clock: tune it with --tc"},
	} {
		var stdout, stderr bytes.Buffer
		err := execute("tune", c.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("tune %s: error %v, want %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}
