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
		{[]string{"review", src}, "--out"},
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
