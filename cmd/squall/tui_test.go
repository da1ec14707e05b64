package main

import (
	"bytes"
	"context"
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

// TestOpenPGN: every game of a file opens, one with an illegal move up to
// it (issue 32's D3); the bad move is named by file:line and does not stop
// the rest.
func TestOpenPGN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pgn")
	data := "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. e4 e5 2. Ke3 *\n\n[White \"C\"]\n\n1. d4 {ok} 1-0\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	games, err := openPGN(path)
	if len(games) != 3 || games[0].Tag("White") != "A" || games[1].Tag("White") != "B" || games[2].Tag("White") != "C" || games[2].Result != "1-0" {
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
		{[]string{empty, "--level", "2"}, "empty.pgn holds no games"},
		{[]string{dir}, dir + " is a directory, not a PGN file"},
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
	if snap.Ply != 1 || len(snap.Moves) != 2 || strings.Join(snap.SANs, " ") != "e4 c5" {
		t.Errorf("room shows ply %d of %d moves, %q; want 1. e4 of 1. e4 c5", snap.Ply, len(snap.Moves), snap.SANs)
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

// TestRequestedEngineStopsTheBoard is issue 32's W5: an engine the user
// asked for that does not start stops the board with one line naming it
// and exit status 1. (Issue 18 had the built-in engine take its place: the
// board then played Squall, the warning cut off on its message line.)
func TestRequestedEngineStopsTheBoard(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	var stdout, stderr bytes.Buffer
	code := run([]string{"--engine", "/bin/false"}, &stdout, &stderr)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if !strings.HasPrefix(l, "squall: starting ") { // the notice of a slow start
			lines = append(lines, l)
		}
	}
	if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], "/bin/false") || strings.Contains(stderr.String(), "built-in") {
		t.Errorf("squall --engine /bin/false: exit %d, stderr:\n%s\nwant exit 1 and one line naming /bin/false", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q: the board started", stdout.String())
	}
}

// TestSlowEngineStartAnnounced: while an engine takes its time to answer
// the handshake, stderr says it is starting (the terminal showed nothing
// for ten seconds); then the start fails with the engine's reason.
func TestSlowEngineStartAnnounced(t *testing.T) {
	script := filepath.Join(t.TempDir(), "mute-engine")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec cat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	a, err := newEngine(ctx, spec.Spec{Command: script}, tui.Settings{Threads: 1, Hash: 16}, &stderr, 0)
	if err == nil {
		a.Close()
		t.Fatal("an engine that never answers started")
	}
	if want := "squall: starting " + script + "…\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if !strings.Contains(err.Error(), script) {
		t.Errorf("error %q does not name the engine", err)
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

// TestModeAnyCase: --mode takes its values in any case — the help shows
// the first one capitalised ("Engine (play the engine)…"), and
// `--mode Engine` was refused.
func TestModeAnyCase(t *testing.T) {
	for in, want := range map[string]tui.Mode{"Engine": tui.VsEngine, "WATCH": tui.Watch, "humans": tui.TwoHumans, " Analysis": tui.Analysis} {
		var f boardFlags
		fs := pflag.NewFlagSet("squall", pflag.ContinueOnError)
		f.register(fs)
		if err := fs.Parse([]string{"--mode", in}); err != nil {
			t.Fatal(err)
		}
		if opt, err := f.options(tui.Settings{}); err != nil || opt.Mode != want {
			t.Errorf("--mode %q: mode %v, error %v; want %v", in, opt.Mode, err, want)
		}
	}
	var f boardFlags
	fs := pflag.NewFlagSet("squall", pflag.ContinueOnError)
	f.register(fs)
	_ = fs.Parse([]string{"--mode", "blitz"})
	if _, err := f.options(tui.Settings{}); err == nil || err.Error() != "--mode blitz: want engine, watch, humans or analysis" {
		t.Errorf("--mode blitz: %v", err)
	}
}

// TestChess960Flag: --960 N starts the board from Chess960 position N
// (Scharnagl's numbers), refused beside --fen and outside 0–959.
func TestChess960Flag(t *testing.T) {
	parse := func(args ...string) (tui.Options, error) {
		var f boardFlags
		fs := pflag.NewFlagSet("squall", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.register(fs)
		if err := fs.Parse(args); err != nil {
			return tui.Options{}, err
		}
		return f.options(tui.Settings{})
	}
	opt, err := parse("--960", "0")
	if err != nil {
		t.Fatal(err)
	}
	if got := opt.Start.FEN(); got != "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1" {
		t.Errorf("--960 0: %s", got)
	}
	if opt, err := parse(); err != nil || opt.Start != nil {
		t.Errorf("no --960: start %v, error %v", opt.Start, err)
	}
	if opt, err := parse("--960", "518"); err != nil || opt.Start.FEN() != chess.StartFEN || opt.Start.Chess960() {
		t.Errorf("--960 518: %v, %v", opt.Start, err)
	}
	if _, err := parse("--960", "960"); err == nil || !strings.Contains(err.Error(), "out of range 0–959") {
		t.Errorf("--960 960: %v", err)
	}
	if _, err := parse("--960", "5", "--fen", chess.StartFEN); err == nil || !strings.Contains(err.Error(), "give one start position") {
		t.Errorf("--960 and --fen: %v", err)
	}
}
