package uci

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// clientFakeEnv names the environment variable that turns the test binary
// into a fake engine: the value selects its misbehaviour.
const clientFakeEnv = "SQUALL_UCI_FAKE_ENGINE"

// TestMain lets the test binary serve as a fake UCI engine when re-executed
// with clientFakeEnv set (see clientFakeConfig).
func TestMain(m *testing.M) {
	if mode := os.Getenv(clientFakeEnv); mode != "" {
		clientFakeEngine(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// clientFakeEngine speaks just enough UCI, then misbehaves as mode says:
//
//	crash     exits with status 3 on "go"
//	hang      never answers "go" or "stop"
//	mute      never answers "uci"
//	garbage   prints noise and malformed info lines before a legal bestmove
//	illegal   answers "go" with bestmove e2e5
//	longline  prints a 2 MB line on "go"
//	good      answers "go" with an info line and bestmove e2e4
//	multipv   has a MultiPV option and answers "go" as Stockfish does: a
//	          currmove line (no nodes, no PV), then one line per MultiPV
func clientFakeEngine(mode string) {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { out.WriteString(s + "\n"); out.Flush() }
	multiPV := 1
	for in.Scan() {
		if v, ok := strings.CutPrefix(in.Text(), "setoption name MultiPV value "); ok {
			fmt.Sscan(v, &multiPV)
		}
		switch firstWord(in.Text()) {
		case "uci":
			if mode == "mute" {
				continue
			}
			say("id name Fake " + mode)
			say("option name Hash type spin default 16 min 1 max 64")
			say("option name Ponder type check default false")
			say("option name Style type combo default Normal var Solid var Normal var Risky")
			if mode == "multipv" {
				say("option name MultiPV type spin default 1 min 1 max 500")
			}
			say("option name this is not an option")
			say("uciok")
		case "isready":
			say("readyok")
		case "go":
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fake: segmentation fault")
				os.Exit(3)
			case "hang":
				// Not select{}: with no other goroutine the runtime would
				// report a deadlock and exit, which is a crash, not a hang.
				time.Sleep(time.Hour)
			case "garbage":
				say("\x00\xff\xfe binary noise")
				say("info depth x score cp 10")
				say("info depth 5 score cp 31 pv e2e4 e7e5 z9z9")
				say("bestmovefoo")
				say("")
				say("bestmove e2e4")
			case "illegal":
				say("bestmove e2e5")
			case "multipv":
				say("info depth 1 currmove e2e4 currmovenumber 1")
				for k, m := range []string{"e2e4", "d2d4", "g1f3", "c2c4"}[:min(multiPV, 4)] {
					say(fmt.Sprintf("info depth 1 seldepth 2 multipv %d score cp %d nodes 100 nps 20000 time 5 pv %s", k+1, 30-k, m))
				}
				say("info depth 2 currmove d2d4 currmovenumber 2")
				say("bestmove e2e4")
			case "longline":
				say(strings.Repeat("x", 2<<20))
				time.Sleep(time.Hour)
			default:
				say("info depth 1 score cp 20 nodes 20 pv e2e4")
				say("bestmove e2e4 ponder e7e5")
			}
		case "quit":
			return
		}
	}
}

// clientFakeConfig starts this test binary as a fake engine in mode.
func clientFakeConfig(t *testing.T, mode string) Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(clientFakeEnv, mode)
	return Config{
		Path: exe,
		Args: []string{"-test.run=^$"},
		// Generous: a race-instrumented test binary on a loaded machine
		// can take seconds to start (one took more than 20 s to say
		// uciok beside a datagen, a fuzz run and another race run). Only
		// a broken client waits this long; the tests of a silent engine
		// set their own.
		StartTimeout: time.Minute,
		ReadyTimeout: time.Minute,
		StopTimeout:  300 * time.Millisecond,
	}
}
