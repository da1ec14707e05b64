package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/tablebase/tbtest"
)

// tablesDir is the 3-4 piece Syzygy set bundled with the repository.
var tablesDir = tbtest.Dir()

// TestEndgames plays won and drawn tablebase positions out, Squall (with
// the tables) against Squall (without): the won ones must end in mate for
// Squall, the drawn ones in no loss, and the PGN must hold every game.
func TestEndgames(t *testing.T) {
	if _, err := os.Stat(filepath.Join(tablesDir, "KQvK.rtbw")); err != nil {
		t.Fatalf("bundled Syzygy tables missing at %s: %v", tablesDir, err)
	}
	if testing.Short() {
		t.Skip("plays whole games")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(runMainEnv, "1") // the UCI children are this binary running main
	for _, c := range []struct {
		args  []string
		want  string
		games int
	}{
		{[]string{"--want", "win", "--material", "KQvK,KRvK", "--count", "1"}, "converted 2/2", 2},
		{[]string{"--want", "draw", "--material", "KRvKB", "--count", "1"}, "held 1/1", 1},
	} {
		pgnPath := filepath.Join(t.TempDir(), "games.pgn")
		// Small tables: both engines are this test binary, which under
		// -race takes seconds to clear the default 64 MB at each new game,
		// and on a loaded machine missed the client's 10 s readyok limit.
		// Moves are bounded by nodes, the move time (with its margin of a
		// second) only judging hangs: at 30 ms a move, under -race at load
		// 14, Squall lost a game on time (1.2 s used) and drew a KRK by
		// repetition — the test measured the machine.
		args := append([]string{"--syzygy", tablesDir, "--movetime", "10s", "--nodes", "2000", "--seed", "7",
			"--engine", "squall", "--engine", exe + " uci", "--option", "1:Hash=8", "--option", "2:Hash=8", "--pgn", pgnPath}, c.args...)
		var out, errOut bytes.Buffer
		if err := execute("endgames", args, &out, &errOut); err != nil {
			t.Fatalf("%v: %v\n%s%s", c.args, err, out.String(), errOut.String())
		}
		if !strings.Contains(out.String(), c.want) || strings.Contains(out.String(), "FAILED") {
			t.Errorf("%v: want %q in\n%s", c.args, c.want, out.String())
		}
		data, err := os.ReadFile(pgnPath)
		if err != nil {
			t.Fatal(err)
		}
		// Every game starts from a tablebase position.
		fens := regexp.MustCompile(`\[FEN "([^"]+)"\]`).FindAllStringSubmatch(string(data), -1)
		if len(fens) != c.games {
			t.Errorf("%v: %d games in the PGN, want %d", c.args, len(fens), c.games)
		}
		for _, m := range fens {
			p, err := chess.ParseFEN(m[1])
			if err != nil {
				t.Fatal(err)
			}
			if p.Occupied().Count() > 4 {
				t.Errorf("start %s has more than 4 pieces", m[1])
			}
		}
	}
}

func TestEndgamesBadArgs(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--syzygy", tablesDir, "--want", "loss"},
		{"--syzygy", tablesDir, "--count", "0"},
		{"--syzygy", t.TempDir()},
	} {
		var out, errOut bytes.Buffer
		if err := execute("endgames", args, &out, &errOut); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// weaker decides which side of a drawn position must hold it.
func TestWeaker(t *testing.T) {
	for _, c := range []struct {
		fen    string
		weaker bool
		name   string
	}{
		{"8/8/4k3/8/3b4/8/4K2R/8 b - - 0 1", true, "KBvKR"},
		{"8/8/4k3/8/3b4/8/4K2R/8 w - - 0 1", false, "KRvKB"},
		{"8/8/4k3/3p4/8/8/4K3/8 w - - 0 1", true, "KvKP"},
		{"8/8/4k3/3n4/8/8/4K1B1/8 w - - 0 1", false, "KBvKN"},
		{"8/8/4k3/3n4/8/8/2Q1K1B1/8 b - - 0 1", true, "KNvKQB"},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := weaker(p); got != c.weaker {
			t.Errorf("weaker(%s) = %v", c.fen, got)
		}
		if got := materialName(p); got != c.name {
			t.Errorf("materialName(%s) = %q, want %q", c.fen, got, c.name)
		}
	}
}
