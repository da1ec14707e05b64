package tui

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/search"
)

// TestSquallVsSquall watches a whole game of the built-in engine against
// itself at depth 2 through a real program, then checks that no goroutine
// is left behind.
func TestSquallVsSquall(t *testing.T) {
	before := runtime.NumGoroutine()
	eng := search.New()
	fm := watchGame(t, eng, Options{Mode: Watch, QuitOnGameOver: true, MoveLimits: engine.Limits{Depth: 2}}, 100, 30, 120*time.Second)
	eng.Close()
	over, banner := fm.Over()
	if !over || fm.tree.Result == "*" {
		t.Fatalf("game not finished: %v %q", over, banner)
	}
	t.Logf("%d plies: %s %s", len(fm.tree.Mainline()), banner, fm.tree.Result)
	goroutinesBack(t, before)
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
