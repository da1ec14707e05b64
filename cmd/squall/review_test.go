package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/squall-chess/squall/pgn"
)

// TestReviewCommand reviews game 2 of the pgn-parser sample (a real lichess
// game) with a small node budget and reads the written PGN back: every move
// has an [%eval], and the judged moves the command printed carry the same
// NAG and comment in the file, and nothing else does.
func TestReviewCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "reviewed.pgn")
	var stdout, stderr bytes.Buffer
	src := filepath.Join("..", "..", "pgn", "testdata", "pgn-parser", "32games.pgn")
	if code := run([]string{"review", src, "--game", "2", "--nodes", "3000", "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// Printed: "  9... Rxh2?!   Inaccuracy …"
	printed := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^ *(\d+\.(?:\.\.)?) (\S+?)(\?\?|\?!|\?) `).FindAllStringSubmatch(stdout.String(), -1) {
		printed[m[1]+" "+m[2]] = m[3]
	}
	if len(printed) == 0 {
		t.Fatalf("no judged moves printed:\n%s", stdout.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var games []*pgn.Game
	for g, err := range pgn.Games(bytes.NewReader(data)) {
		if err != nil {
			t.Fatalf("re-reading %s: %v", out, err)
		}
		games = append(games, g)
	}
	if len(games) != 1 || games[0].Tag("White") != "Desmond_Wilson" || games[0].Tag("Annotator") == "" {
		t.Fatalf("%d games written, tags %v", len(games), games[0].Tags)
	}
	symbol := map[uint8]string{6: "?!", 2: "?", 4: "??"}
	num := 1
	for i, n := range games[0].Mainline() {
		key := strings.Repeat(".", 1+2*(i%2))
		key = strconv.Itoa(num) + key + " " + n.SAN
		if i%2 == 1 {
			num++
		}
		if n.Commands == nil || n.Commands.Eval.Kind == pgn.NoEval {
			t.Errorf("%s has no [%%eval]", key)
		}
		want, judged := printed[key]
		delete(printed, key)
		got := ""
		for _, nag := range n.NAGs {
			got += symbol[nag]
		}
		if got != want {
			t.Errorf("%s: NAG %q in the file, %q printed", key, got, want)
		}
		if judged != (len(n.After) == 1 && strings.Contains(n.After[0], "Best was")) {
			t.Errorf("%s: comments %q", key, n.After)
		}
	}
	if len(printed) != 0 {
		t.Errorf("printed moves not in the game: %v", printed)
	}
	for _, want := range []string{"White Desmond_Wilson", "Black savinka59", "accuracy", "written to"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestReviewCommandErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	src := filepath.Join("..", "..", "pgn", "testdata", "pgn-parser", "32games.pgn")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"review", src, "--game", "99", "--out", "x.pgn"}, "no game 99"},
		{[]string{"review", src, "--nodes", "5", "--depth", "3", "--out", "x.pgn"}, "one of"},
		{[]string{"review", "no-such.pgn", "--out", "x.pgn"}, "no-such.pgn"},
	} {
		stderr.Reset()
		if code := run(c.args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error with %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// reviewSample copies the pgn-parser sample (32 games) into a temporary
// directory, for a review to read (and, wrongly, to write over).
func reviewSample(t *testing.T) (dir, path string, data []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "pgn", "testdata", "pgn-parser", "32games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, "m.pgn")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path, data
}

// TestReviewOutNeverOverwrites: --out refuses a file that exists unless
// --force, and refuses the input file even with --force, under its own
// name or another (a hard link): the file is left as it was. With --force
// another file is replaced by the one annotated game.
func TestReviewOutNeverOverwrites(t *testing.T) {
	dir, in, data := reviewSample(t)
	link := filepath.Join(dir, "link.pgn")
	if err := os.Link(in, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.pgn")
	if err := os.WriteFile(other, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", in}, "is the input file"},
		{[]string{"--out", in, "--force"}, "input"},
		{[]string{"--out", link, "--force"}, "input"},
		{[]string{"--out", other}, "--force"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"review", in, "--game", "1", "--nodes", "300"}, c.args...)
		if code := run(args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a refusal with %q", c.args, code, stderr.String(), c.want)
		}
		if got, _ := os.ReadFile(in); !bytes.Equal(got, data) {
			t.Fatalf("%v: the input file was changed: %d bytes, was %d", c.args, len(got), len(data))
		}
		if got, _ := os.ReadFile(other); string(got) != "keep me" {
			t.Fatalf("%v: %s was changed: %q", c.args, other, got)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"review", in, "--game", "1", "--nodes", "300", "--out", other, "--force"}, &stdout, &stderr); code != 0 {
		t.Fatalf("--force onto another file: exit %d: %s", code, stderr.String())
	}
	if games := readGames(t, other); len(games) != 1 {
		t.Errorf("%s holds %d games after --force, want the 1 reviewed", other, len(games))
	}
}

// TestReviewToStdout: without --out the annotated game goes to standard
// output, as `squall review game.pgn > reviewed.pgn` wants, and the
// summary to standard error.
func TestReviewToStdout(t *testing.T) {
	_, in, _ := reviewSample(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"review", in, "--game", "2", "--nodes", "300"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var games []*pgn.Game
	for g, err := range pgn.Games(bytes.NewReader(stdout.Bytes())) {
		if err != nil {
			t.Fatalf("standard output is not PGN: %v\n%s", err, stdout.String())
		}
		games = append(games, g)
	}
	if len(games) != 1 || games[0].Tag("White") != "Desmond_Wilson" || games[0].Tag("Annotator") == "" {
		t.Fatalf("standard output holds %d games:\n%s", len(games), stdout.String())
	}
	for _, n := range games[0].Mainline() {
		if n.Commands == nil || n.Commands.Eval.Kind == pgn.NoEval {
			t.Errorf("%s has no [%%eval]", n.SAN)
		}
	}
	if !strings.Contains(stderr.String(), "accuracy") {
		t.Errorf("no summary on standard error:\n%s", stderr.String())
	}
}

// readGames reads every game of a PGN file.
func readGames(t *testing.T, path string) []*pgn.Game {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var games []*pgn.Game
	for g, err := range pgn.Games(bytes.NewReader(data)) {
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		games = append(games, g)
	}
	return games
}

// TestReviewSummaryCountsMoves: the summary counts moves, not plies
// (1. e4 e5 2. Nf3 is 2 moves), a side that made no move has no ACPL or
// accuracy (—, not 0), and every count takes its plural only when it is
// not 1. How many inaccuracies 300 nodes find is the network's business,
// so the counts are checked for their form, whatever they are.
func TestReviewSummaryCountsMoves(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		moves string
		want  []string
	}{
		{"1. e4 e5 2. Nf3 *", []string{"Reti vs Tartakower: 2 moves,", "White Reti", "Black Tartakower"}},
		{"1. e4 *", []string{"Reti vs Tartakower: 1 move,", "Black Tartakower", "ACPL —, accuracy —"}},
	} {
		path := filepath.Join(dir, "g.pgn")
		pgnText := "[White \"Reti\"]\n[Black \"Tartakower\"]\n\n" + c.moves + "\n"
		if err := os.WriteFile(path, []byte(pgnText), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out.pgn")
		os.Remove(out)
		var stdout, stderr bytes.Buffer
		if code := run([]string{"review", path, "--nodes", "300", "--out", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.moves, code, stderr.String())
		}
		for _, want := range c.want {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%s: summary lacks %q:\n%s", c.moves, want, stdout.String())
			}
		}
		counts := regexp.MustCompile(`\b\d+ inaccurac(y|ies), \d+ mistakes?, \d+ blunders?`)
		if got := len(counts.FindAllString(stdout.String(), -1)); got != 2 {
			t.Errorf("%s: %d lines of counts, want one a side:\n%s", c.moves, got, stdout.String())
		}
		singular := `\b1 (moves|inaccuracies|mistakes|blunders)\b`
		plural := `\b(0|[2-9]|\d\d+) (move|inaccuracy|mistake|blunder)\b`
		if bad := regexp.MustCompile(singular + "|" + plural + "|accuracy 0%").FindString(stdout.String()); bad != "" {
			t.Errorf("%s: summary says %q:\n%s", c.moves, bad, stdout.String())
		}
	}
}
