package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountsInTheSingular: the commands' reports say "1 game", never
// "1 games" (issue 32: "Score after 1 games", "1 games read"); and an even
// match's Elo difference is 0.0, not -0.0.
func TestCountsInTheSingular(t *testing.T) {
	dir := t.TempDir()
	onePGN := filepath.Join(dir, "one.pgn")
	if err := os.WriteFile(onePGN, []byte("[Event \"x\"]\n[White \"Squall\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bookPath := filepath.Join(dir, "one.bin")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"datagen", "--out", filepath.Join(dir, "d.epd"), "--games", "1", "--nodes", "100", "--threads", "1", "--max-plies", "10"},
			[]string{"1 game to play (0 already in "}},
		{[]string{"match", "--engine", "squall", "--engine", "squall", "--games", "1", "--nodes", "50", "--maxplies", "2", "--pgn", filepath.Join(dir, "m.pgn")},
			[]string{"Score after 1 game: ", "Score after 2 games: ", "2 games written to ", "Incidents: 0 time losses, 0 illegal moves, 0 engine failures\n",
				"Elo difference: 0.0 +/- inf\n"}}, // two draws: not -0.0
		{[]string{"book", "build", "--pgn", onePGN, "--out", bookPath, "--max-ply", "1"},
			[]string{": 1 game read (1 with a result, 0 skipped, 0 Chess960 left out); 1 position, 1 move\n"}},
		{[]string{"book", "learn", "--pgn", onePGN, bookPath},
			[]string{": learned from 1 game (1 book move)\n"}},
	} {
		var out, errOut bytes.Buffer
		if code := run(c.args, &out, &errOut); code != 0 {
			t.Errorf("squall %s: exit %d: %s", strings.Join(c.args, " "), code, errOut.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("squall %s: output lacks %q:\n%s", strings.Join(c.args[:2], " "), w, out.String())
			}
		}
	}
}
