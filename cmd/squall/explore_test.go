package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/squall-chess/squall/explore"
	"github.com/squall-chess/squall/pgn"
)

// TestExplore (issue 36): squall explore builds the index beside the file
// once, says so on standard error, and prints the moves played from the
// position with their games and results, which agree with the games that
// squall pgn --filter selects for the position after each move.
func TestExplore(t *testing.T) {
	data, err := os.ReadFile(testPGN("pgn-parser", "twic-01-232games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "twic.pgn")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	explorer := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"explore", file}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("explore %q: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	out, report := explorer("--moves", "1. e4 e5 2.Nf3")
	if !strings.Contains(report, explore.IndexPath(file)+": 232 games indexed, ") {
		t.Errorf("no build report on standard error:\n%s", report)
	}
	if _, err := os.Stat(explore.IndexPath(file)); err != nil {
		t.Errorf("no index beside the file: %v", err)
	}
	// Each row: the games after the move are those --filter selects for
	// the position after it (no two moves transpose here), and its
	// results are theirs.
	row := regexp.MustCompile(`(?m)^(\S+)\s+(\d+)\s+\S+%\s`)
	rows := row.FindAllStringSubmatch(out, -1)
	if len(rows) < 3 || rows[0][1] != "Nc6" || rows[len(rows)-1][1] != "total" {
		t.Fatalf("rows %q in:\n%s", rows, out)
	}
	for _, r := range rows[:len(rows)-1] {
		p, err := explorePosition("", "e4 e5 Nf3 "+r[1])
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		run([]string{"pgn", file, "--filter", "fen=" + p.FEN()}, &stdout, &stderr)
		n := 0
		for _, err := range pgn.Games(&stdout) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if fmt.Sprint(n) != r[2] {
			t.Errorf("after %s: explorer %s games, --filter %d", r[1], r[2], n)
		}
	}

	// Again: the index is reused, nothing is said on standard error.
	if _, report := explorer("--fen", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"); report != "" {
		t.Errorf("index rebuilt although the file did not change:\n%s", report)
	}
	if out, _ := explorer("--fen", "8/8/8/4k3/8/8/4K3/4R3 w - - 0 1"); !strings.Contains(out, "no game of "+file+" reaches this position") {
		t.Errorf("a position no game reached:\n%s", out)
	}
	// A corrupt index is rebuilt.
	if err := os.WriteFile(explore.IndexPath(file), []byte("SQXPLORE garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, report := explorer(); !strings.Contains(report, "232 games indexed") {
		t.Errorf("a corrupt index was not rebuilt:\n%s", report)
	}
}

// TestExploreErrors: what cannot be looked up stops with one line.
func TestExploreErrors(t *testing.T) {
	file := testPGN("chess-library", "basic.pgn")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", file, "--moves", "e4 Ke7"}, `--moves: move "Ke7"`},
		{[]string{"explore", file, "--fen", "xyz"}, `--fen "xyz"`},
		{[]string{"explore", file, "--plies", "-1"}, "--plies -1: out of range"},
		{[]string{"explore", t.TempDir()}, "is a directory"},
		{[]string{"explore"}, "one PGN file"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, want 1 with %q:\n%s", c.args, code, c.want, stderr.String())
		}
	}
}
