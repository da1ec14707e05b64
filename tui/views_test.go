package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/tui/reviewview"
	"github.com/squall-chess/squall/tui/view"
)

// TestReviewFromBoard opens the review with "r" from the board (its
// ViewEntry); closing the program's model stops the analysis.
func TestReviewFromBoard(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Hour} // never finishes: Close must stop it
	m := newTestModel(t, Options{Mode: TwoHumans, Views: []view.Entry{reviewview.Entry(reviewview.Options{Limits: engine.Limits{Depth: 3}})}})
	m.eng, m.search.runner = eng, live.New(eng)
	m = playAll(t, m, "e4", "e5")
	m = send(m, press("esc"), press("r"))
	if len(m.views) != 1 || !strings.Contains(ansi.Strip(m.View()), "analysing 0/3 positions") {
		t.Fatalf("r did not open the review:\n%s", ansi.Strip(m.View()))
	}
	m.Close()
	if eng.Active() != 0 {
		t.Error("the review's search still runs after Close")
	}
}

// TestViewWaitsForBoardSearch: a view's search starts only once the
// board's has returned, however slowly the engine stops: the board and its
// views share one Runner, since an engine runs one search at a time.
func TestViewWaitsForBoardSearch(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Millisecond, WaitForStop: true, Lag: 100 * time.Millisecond}
	m := New(testRenderer(termenv.Ascii), eng, Options{Mode: Analysis, Now: func() time.Time { return fixedNow },
		Views: []view.Entry{reviewview.Entry(reviewview.Options{Limits: engine.Limits{Depth: 2}})}})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = playAll(t, m, "e4", "e5")
	if !m.search.running {
		m = send(m, press("esc"), press("a"))
	}
	if !m.search.running || m.search.run.kind != searchAnalysis {
		t.Fatal("no analysis runs")
	}
	for deadline := time.Now().Add(patience); eng.Active() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the board's analysis never started")
		}
	}
	m = send(m, press("esc"), press("r"))
	if len(m.views) != 1 {
		t.Fatal("r did not open the review")
	}
	for deadline := time.Now().Add(patience); eng.Searches() < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the review's first search never started")
		}
	}
	m.Close()
	if err := eng.Misuse(); err != nil {
		t.Error(err)
	}
}
