package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// testPGN is a PGN file of package pgn's test data.
func testPGN(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "pgn", "testdata"}, parts...)...)
}

// exportOf is what the one PGN writer makes of the games of files that
// pred selects (bad games left out).
func exportOf(t *testing.T, pred func(*pgn.Game) bool, files ...string) string {
	t.Helper()
	var b []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for g, err := range pgn.Games(bytes.NewReader(data)) {
			if err != nil || !pred(g) {
				continue
			}
			if b, err = pgn.AppendGame(b, g); err != nil {
				t.Fatal(err)
			}
		}
	}
	return string(b)
}

// TestPGNFilter (issue 36): --filter writes the selected games to standard
// output as the PGN writer writes them, the report on standard error; a
// bad game in the middle is reported with its line and skipped, and the
// games after it are still selected.
func TestPGNFilter(t *testing.T) {
	twic, corrupted, games32 := testPGN("pgn-parser", "twic-01-232games.pgn"), testPGN("chess-library", "corrupted.pgn"), testPGN("pgn-parser", "32games.pgn")
	var stdout, stderr bytes.Buffer
	code := run([]string{"pgn", "--filter", "result=1-0", twic, corrupted, games32}, &stdout, &stderr)
	want := exportOf(t, func(g *pgn.Game) bool { return g.Tag("Result") == "1-0" }, twic, corrupted, games32)
	if stdout.String() != want {
		t.Errorf("standard output is not the selected games as written by pgn.AppendGame: %d bytes, want %d", stdout.Len(), len(want))
	}
	if n := strings.Count(want, "[Event "); n < 100 {
		t.Fatalf("only %d games selected: the test proves little", n)
	}
	for _, line := range []string{
		twic + ": 232 games, 0 errors, 98 selected\n",
		corrupted + ":57:25: move 63. Kx: not a move in SAN\n",
		corrupted + ": 1 game, 1 error, 0 selected\n",
		games32 + ": 32 games, 0 errors, ",
	} {
		if !strings.Contains(stderr.String(), line) {
			t.Errorf("standard error lacks %q:\n%s", line, stderr.String())
		}
	}
	if code != 1 {
		t.Errorf("exit status %d with a bad game, want 1", code)
	}
}

// TestPGNFilterPosition: fen= with --reformat writes the games reaching a
// position (by any move order) to the file; the report stays on standard
// output.
func TestPGNFilterPosition(t *testing.T) {
	twic := testPGN("pgn-parser", "twic-01-232games.pgn")
	// The Petrov after 2... Nf6 (C42).
	petrov := "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	target, err := chess.ParseFEN(petrov)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "petrov.pgn")
	code, report := squallPGN(t, twic, "--filter", "fen="+petrov, "--filter", "player=a", "--reformat", out)
	want := exportOf(t, func(g *pgn.Game) bool {
		return g.Reaches(target) && (strings.Contains(strings.ToLower(g.Tag("White")+"|"+g.Tag("Black")), "a"))
	}, twic)
	n := strings.Count(want, "[Event ")
	if n < 5 {
		t.Fatalf("only %d Petrovs: the test proves little", n)
	}
	got, _ := os.ReadFile(out)
	if code != 0 || string(got) != want || !strings.Contains(report, twic+": 232 games, 0 errors, "+strconv.Itoa(n)+" selected\n") {
		t.Errorf("exit %d, %d bytes written (want %d):\n%s", code, len(got), len(want), report)
	}
}

// TestPGNFilterErrors: a criterion that cannot be read stops the command
// with one line before any file is read.
func TestPGNFilterErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"colour=white": `filter "colour=white": unknown key "colour"`,
		"year=soon":    `filter "year=soon": want a year`,
		"fen=xyz":      `filter "fen=xyz": `,
	} {
		code, out := squallPGN(t, testPGN("chess-library", "basic.pgn"), "--filter", spec)
		if code != 1 || !strings.Contains(out, want) || strings.Contains(out, "games,") {
			t.Errorf("--filter %s: exit %d:\n%s", spec, code, out)
		}
	}
}

// TestPGNFilterTerminal: games written to a terminal show a comment's
// escape sequence as a mark, not as a command to the terminal; piped,
// the game is written as the writer makes it.
func TestPGNFilterTerminal(t *testing.T) {
	g, err := pgn.NewReader(strings.NewReader("1. e4 {\x1b]52;c;aGk=\x07 clipboard} e5 *\n"), "g").Next()
	if err != nil {
		t.Fatal(err)
	}
	for _, screen := range []bool{false, true} {
		var out bytes.Buffer
		c := pgnCheck{out: &out, screen: screen}
		if err := c.game("g", g); err != nil {
			t.Fatal(err)
		}
		hasESC := strings.Contains(out.String(), "\x1b")
		if hasESC == screen || screen && !strings.Contains(out.String(), "␛ clipboard") {
			t.Errorf("screen %v: %q", screen, out.String())
		}
	}
}
