package tui

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// randomEngine plays pseudo-random legal moves (a fixed LCG, so games are
// reproducible) at depth 1, preferring captures so that games end quickly.
func randomEngine(seed uint64) *enginetest.Engine {
	return &enginetest.Engine{MaxDepth: 1, Best: func(g engine.Game, p *chess.Position) (chess.Move, error) {
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		for _, c := range ml.Slice() {
			if c.IsCapture() {
				return c, nil
			}
		}
		// Seeded by the game so far, not by shared state: each search is
		// a pure function of its input.
		h := seed + uint64(len(g.Moves))*0x9e3779b97f4a7c15
		h ^= h >> 29
		return ml.Moves[int(h%uint64(ml.N))], nil
	}}
}

// headless is a program running m without a terminal until ctx ends.
func headless(ctx context.Context, m Model) *tea.Program {
	return tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(),
		tea.WithContext(ctx), tea.WithoutRenderer())
}

// watchGame runs a game between engines (opt has QuitOnGameOver) in a
// headless program of w×h cells, and returns its final model, closed.
func watchGame(t *testing.T, eng engine.Analyzer, opt Options, w, h int, timeout time.Duration) Model {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p := headless(ctx, New(testRenderer(termenv.Ascii), eng, opt))
	go p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	final, err := p.Run()
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	fm := final.(Model)
	fm.Close()
	return fm
}

// goroutinesBack fails unless the number of goroutines returns to before
// (the runtime is allowed a moment).
func goroutinesBack(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestEngineVsEngineGame plays a whole engine-vs-engine game through a real
// bubbletea program (commands, channels, the throttled info pump) and
// checks that every goroutine is gone afterwards.
func TestEngineVsEngineGame(t *testing.T) {
	before := runtime.NumGoroutine()
	eng := randomEngine(7)
	autosave := filepath.Join(t.TempDir(), "games.pgn")
	fm := watchGame(t, eng, Options{Mode: Watch, QuitOnGameOver: true, Autosave: autosave}, 120, 40, 60*time.Second)
	over, banner := fm.Over()
	if !over {
		t.Fatal("game did not finish")
	}
	line := fm.tree.Mainline()
	t.Logf("%d plies, %s, %s", len(line), banner, fm.tree.Result)
	if len(line) < 2 || fm.tree.Result == "*" {
		t.Fatalf("implausible game: %d plies, result %s", len(line), fm.tree.Result)
	}
	if err := eng.Misuse(); err != nil {
		t.Fatal(err)
	}
	if eng.Searches() < len(line) {
		t.Fatalf("%d searches for %d moves", eng.Searches(), len(line))
	}
	// The finished game is in the autosave file, with its result, and
	// reads back as the game on the board.
	data, err := os.ReadFile(autosave)
	if err != nil || !strings.Contains(string(data), fm.tree.Result+"\n") {
		t.Fatalf("autosave: %v\n%s", err, data)
	}
	back, err := ReadPGN(bytes.NewReader(data), autosave)
	if err != nil || len(back) != 1 || dumpTree(dropAddedOpening(back[0], fm.tree)) != dumpTree(fm.tree) {
		t.Fatalf("autosave reads back as %d games (%v), not the game played:\n%s", len(back), err, data)
	}
	goroutinesBack(t, before)
}

// TestPlayVsEngineAndQuit: the user plays e4 through the program, the
// engine answers, quitting mid-game leaves the game in the autosave file.
func TestPlayVsEngineAndQuit(t *testing.T) {
	eng := &enginetest.Engine{}
	autosave := filepath.Join(t.TempDir(), "games.pgn")
	m := New(testRenderer(termenv.Ascii), eng, Options{Autosave: autosave})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := headless(ctx, m)
	done := make(chan tea.Model)
	go func() {
		fm, _ := p.Run()
		done <- fm
	}()
	p.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, r := range "e4" {
		p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	p.Send(tea.KeyMsg{Type: tea.KeyEnter})
	// Wait for the engine's reply to reach the autosave file.
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(autosave)
		if strings.Contains(string(b), "1. e4 ") && !strings.Contains(string(b), "1. e4 *") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no engine reply in autosave: %q", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	fm := (<-done).(Model)
	fm.Close()
	b, _ := os.ReadFile(autosave)
	if !strings.Contains(string(b), `[Result "*"]`) || !strings.Contains(string(b), "[Black \"Fake 1.0\"]") {
		t.Fatalf("autosave after quit:\n%s", b)
	}
}
