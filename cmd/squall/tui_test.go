package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/epd"
	"github.com/squall-chess/squall/pgn"
)

// TestOpenPGN: the good games of a file open; the bad one is named by
// file:line and does not stop the rest.
func TestOpenPGN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pgn")
	data := "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. e4 e5 2. Ke3 *\n\n[White \"C\"]\n\n1. d4 {ok} 1-0\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	games, err := openPGN(path)
	if len(games) != 2 || games[0].Tags.Get("White") != "A" || games[1].Tags.Get("White") != "C" || games[1].Result != "1-0" {
		t.Fatalf("%d games, %v", len(games), err)
	}
	var pe *pgn.Error
	if !errors.As(err, &pe) || pe.Line != 7 || !strings.Contains(err.Error(), path+":7:") {
		t.Errorf("error %v, want %s:7", err, path)
	}
	if _, err := openPGN(filepath.Join(t.TempDir(), "none.pgn")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestTUIRefusesBadFiles: `squall FILE.pgn` with nothing to open exits
// with the reason before any screen appears.
func TestTUIRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pgn")
	os.WriteFile(bad, []byte("1. e4 e5 2. Ke3 *\n"), 0o644)
	empty := filepath.Join(dir, "empty.pgn")
	os.WriteFile(empty, nil, 0o644)
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{bad}, "bad.pgn:1:"},
		{[]string{empty, "--level", "2"}, "empty.pgn holds no games"},
		{[]string{bad, empty}, "at most one PGN file"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("squall %v: exit %d, stderr %q; want %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// TestBoardViews: the suite and review views open by keys the board does
// not use itself.
func TestBoardViews(t *testing.T) {
	taken := "q?fahunRDospctv+-=[]jkKhl"
	seen := map[string]bool{}
	for _, v := range boardViews() {
		if strings.Contains(taken, v.Key) || seen[v.Key] || v.New == nil || v.Help == "" {
			t.Errorf("view key %q (%s) clashes or is incomplete", v.Key, v.Help)
		}
		seen[v.Key] = true
	}
	if !seen["S"] || !seen["r"] {
		t.Errorf("views %v, want S and r", seen)
	}
}

// TestSuiteReport: the score line and the saved results of a run cut
// short, as `suite --tui` prints them when the view closes.
func TestSuiteReport(t *testing.T) {
	s, err := epd.Load("wac")
	if err != nil {
		t.Fatal(err)
	}
	out := []epd.Outcome{{Index: 0, Solved: true, Move: "Qg6"}, {Index: 2, Move: "Rg3"}}
	path := filepath.Join(t.TempDir(), "res.json")
	var stdout bytes.Buffer
	if err := report(&stdout, s, "Fake", engine.Limits{MoveTime: time.Second}, out, nil, path, 0); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); !strings.Contains(got, "solved 1/2 (interrupted after 2 of 300)") || !strings.Contains(got, "results written to "+path) {
		t.Errorf("report:\n%s", got)
	}
	res, err := epd.LoadResults(path)
	if err != nil || res.Solved != 1 || res.Total != 2 || len(res.Outcomes) != 2 {
		t.Errorf("saved results %+v, %v", res, err)
	}
}
