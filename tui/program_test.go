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
)

// randomEngine plays pseudo-random legal moves (a fixed LCG, so games are
// reproducible) at "depth 1", reporting one info line per search.
type randomEngine struct {
	fakeEngine
	seed uint64
}

func (r *randomEngine) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	if r.active.Add(1) > 1 {
		r.overlap.Store(true)
	}
	defer r.active.Add(-1)
	r.searches.Add(1)
	p, err := g.Position()
	if err != nil {
		return engine.Result{}, err
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		return engine.Result{}, nil
	}
	// Seeded by the game so far, not by shared state: each search is a pure
	// function of its input.
	h := r.seed + uint64(len(g.Moves))*0x9e3779b97f4a7c15
	h ^= h >> 29
	m := ml.Moves[int(h%uint64(ml.N))]
	// Prefer captures so the game ends by mate or bare kings quickly.
	for _, c := range ml.Slice() {
		if c.IsCapture() {
			m = c
			break
		}
	}
	i := fakeInfo(p, m, 1, 0)
	if info != nil {
		info(i)
	}
	return engine.Result{BestMove: m, Last: i}, nil
}

// TestEngineVsEngineGame plays a whole engine-vs-engine game through a real
// bubbletea program (commands, channels, the throttled info pump) and
// checks that every goroutine is gone afterwards.
func TestEngineVsEngineGame(t *testing.T) {
	before := runtime.NumGoroutine()
	eng := &randomEngine{seed: 7}
	dir := t.TempDir()
	autosave := filepath.Join(dir, "games.pgn")
	m := New(testRenderer(termenv.Ascii), eng, Options{Mode: Watch, QuitOnGameOver: true, Autosave: autosave})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(),
		tea.WithContext(ctx), tea.WithoutRenderer())
	go p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	final, err := p.Run()
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	fm := final.(Model)
	fm.Close()
	over, banner := fm.Over()
	if !over {
		t.Fatal("game did not finish")
	}
	line := fm.tree.MainLine()
	t.Logf("%d plies, %s, %s", len(line), banner, fm.tree.Result)
	if len(line) < 2 || fm.tree.Result == "*" {
		t.Fatalf("implausible game: %d plies, result %s", len(line), fm.tree.Result)
	}
	if eng.overlap.Load() {
		t.Fatal("two searches ran on the engine at once")
	}
	if int(eng.searches.Load()) < len(line) {
		t.Fatalf("%d searches for %d moves", eng.searches.Load(), len(line))
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
	// Goroutines return to the baseline (allow the runtime a moment).
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestPlayVsEngineAndQuit: the user plays e4 through the program, the
// engine answers, quitting mid-game leaves the game in the autosave file.
func TestPlayVsEngineAndQuit(t *testing.T) {
	eng := &fakeEngine{}
	autosave := filepath.Join(t.TempDir(), "games.pgn")
	m := New(testRenderer(termenv.Ascii), eng, Options{Autosave: autosave})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(),
		tea.WithContext(ctx), tea.WithoutRenderer())
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
