package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/epd"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui"
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
	if len(games) != 2 || games[0].Tag("White") != "A" || games[1].Tag("White") != "C" || games[1].Result != "1-0" {
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
		{[]string{"--book", filepath.Join(dir, "none.bin")}, "book: "},
		{[]string{"--book", bad}, "book: "}, // 18 bytes: not whole 16-byte entries
		{[]string{"--syzygy", filepath.Join(dir, "none")}, "syzygy: "},
		{[]string{"--syzygy", dir}, "syzygy: no tables"},
		{[]string{"--broadcast-listen", "127.0.0.1:0"}, "--broadcast-* flags need --broadcast ROOM"},
		{[]string{"--broadcast", "bad name!", "--broadcast-listen", "127.0.0.1:0", "--broadcast-host-key", filepath.Join(dir, "hk")}, "room"},
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
	taken := "q?fahunRDospctv+-=[]jkKhlbB"
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

// TestTUIBroadcast: --broadcast starts the SSH server with serve's flags
// given as --broadcast-*, prints the watch command, and the board's moves
// and navigation reach the room through Options.Publish; after stop the
// connection log is closed and publishing fails.
func TestTUIBroadcast(t *testing.T) {
	dir := t.TempDir()
	fs := pflag.NewFlagSet("tui", pflag.ContinueOnError)
	var bc broadcastArgs
	bc.register(fs)
	logPath := filepath.Join(dir, "broadcast.log")
	err := fs.Parse([]string{"--broadcast", "demo", "--broadcast-listen", "127.0.0.1:0",
		"--broadcast-host-key", filepath.Join(dir, "host"), "--broadcast-hash", "4", "--broadcast-private=false",
		"--broadcast-log", logPath})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--listen", "127.0.0.1:0", "--host-key", filepath.Join(dir, "host"), "--hash", "4", "--private=false"}
	if strings.Join(bc.serve, " ") != strings.Join(want, " ") {
		t.Errorf("serve flags %q, want %q", bc.serve, want)
	}
	var stdout bytes.Buffer
	b, err := bc.start(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`watch with: ssh -t -p [0-9]+ localhost room demo\n$`).MatchString(stdout.String()) {
		t.Errorf("printed %q", stdout.String())
	}
	r := lipgloss.NewRenderer(io.Discard)
	m := tui.New(r, nil, tui.Options{Mode: tui.TwoHumans, Publish: b.Broadcast.Publish})
	send := func(msgs ...tea.Msg) {
		for _, msg := range msgs {
			nm, _ := m.Update(msg)
			m = nm.(tui.Model)
		}
	}
	keys := func(s string) []tea.Msg {
		var out []tea.Msg
		for _, r := range s {
			out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
		return append(out, tea.KeyMsg{Type: tea.KeyEnter})
	}
	send(tea.WindowSizeMsg{Width: 80, Height: 24})
	send(keys("e4")...)
	send(keys("c5")...)
	send(tea.KeyMsg{Type: tea.KeyLeft})
	snap := b.Broadcast.Room().Snapshot()
	if snap.Ply != 1 || len(snap.Moves) != 2 || snap.GameSAN != "1. e4" {
		t.Errorf("room shows ply %d of %d moves, %q; want 1. e4 of 1. e4 c5", snap.Ply, len(snap.Moves), snap.GameSAN)
	}
	if err := b.stop(); err != nil {
		t.Fatal(err)
	}
	if err := b.Broadcast.Publish(engine.Game{Start: chess.NewPosition()}, 0); err == nil {
		t.Error("published after stop")
	}
	if _, err := os.Stat(logPath); err != nil {
		t.Errorf("log file: %v", err)
	}
	if err := b.log.Close(); err == nil {
		t.Error("log file left open")
	}
}

// TestEngineFallback is issue 18's B7 on the command's side: an --engine
// that does not start is replaced by the built-in engine, and the error
// that says so is returned for the board to show (it was printed to
// stderr, behind the board).
func TestEngineFallback(t *testing.T) {
	a, err := newEngine(spec.Spec{Command: "/no/such/engine --uci", Options: []spec.Option{{Name: "Contempt", Value: "10"}}}, tui.Settings{Threads: 1, Hash: 16})
	if a == nil {
		t.Fatal("no engine at all")
	}
	defer a.Close()
	if !strings.HasPrefix(a.Name(), "Squall") {
		t.Errorf("fell back to %q, want the built-in engine", a.Name())
	}
	if !errors.Is(err, errFellBack) || !strings.Contains(err.Error(), "/no/such/engine") || !strings.Contains(err.Error(), "built-in") {
		t.Errorf("error %v does not name the engine and the fallback", err)
	}
}

// TestSuiteIncomplete: a suite run that ended before every position was
// searched (the suite view quit early) is an error, so the command exits
// non-zero and no script takes the partial score for the suite's.
func TestSuiteIncomplete(t *testing.T) {
	if err := suiteIncomplete(3, 3); err != nil {
		t.Errorf("a whole run: %v", err)
	}
	if err := suiteIncomplete(1, 3); err == nil || !strings.Contains(err.Error(), "1 of 3") {
		t.Errorf("a partial run: %v", err)
	}
}
