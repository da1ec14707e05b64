package tui

import (
	"context"
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/search"
)

// TestSquallVsSquall watches a whole game of the built-in engine against
// itself at depth 2 through a real program, then checks that no goroutine
// is left behind.
func TestSquallVsSquall(t *testing.T) {
	before := runtime.NumGoroutine()
	eng := search.New()
	m := New(testRenderer(termenv.Ascii), eng, Options{Mode: Watch, QuitOnGameOver: true,
		MoveLimits: engine.Limits{Depth: 2}})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(),
		tea.WithContext(ctx), tea.WithoutRenderer())
	go p.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	final, err := p.Run()
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	fm := final.(Model)
	fm.Close()
	eng.Close()
	over, banner := fm.Over()
	if !over || fm.tree.Result == "*" {
		t.Fatalf("game not finished: %v %q", over, banner)
	}
	t.Logf("%d plies: %s %s", len(fm.tree.MainLine()), banner, fm.tree.Result)
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// BenchmarkKeyToRenderSearching: a key press through Update and View while
// the built-in engine analyses on every core (target ≤ 16 ms).
func BenchmarkKeyToRenderSearching(b *testing.B) {
	eng := search.New()
	defer eng.Close()
	if err := eng.SetOption("Threads", strconv.Itoa(runtime.NumCPU())); err != nil {
		b.Fatal(err)
	}
	m := analysedModel(b, eng)
	m = playAll2(m, "a3", "b6", "b3")
	m.analysisOn = false
	m = send(m, press("esc"), press("a")) // analysis of the shown position
	defer func() { m.Close() }()
	keys := []tea.KeyMsg{press("left"), press("right")}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		nm, _ := m.Update(keys[i%2])
		m = nm.(Model)
		_ = m.View()
		i++
	}
}
