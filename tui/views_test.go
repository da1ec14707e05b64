package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/tui/reviewview"
	"github.com/squall-chess/squall/tui/suiteview"
	"github.com/squall-chess/squall/tui/view"
)

// TestReviewFromBoard opens the review with "r" from the board (its
// ViewEntry), enter taking the limits it offers; closing the program's
// model stops the analysis.
func TestReviewFromBoard(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Hour} // never finishes: Close must stop it
	m := newTestModel(t, Options{Mode: TwoHumans, Views: []view.Entry{reviewview.Entry(reviewview.Options{Limits: engine.Limits{Depth: 3}})}})
	m.eng, m.search.runner = eng, live.New(eng)
	m = playAll(t, m, "e4", "e5")
	m = send(m, press("esc"), press("r"), press("enter")) // enter: the depth offered
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
	if !m.search.running() {
		m = send(m, press("esc"), press("a"))
	}
	if !m.search.running() || m.search.kind() != searchAnalysis {
		t.Fatal("no analysis runs")
	}
	for deadline := time.Now().Add(patience); eng.Active() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the board's analysis never started")
		}
	}
	m = send(m, press("esc"), press("r"), press("enter"))
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

// strengthProbe is an engine that can limit its strength (UCI_Elo) and
// records, for each search, whether its strength was limited as it began.
type strengthProbe struct {
	*enginetest.Engine
	mu      sync.Mutex
	limited []bool
}

func newStrengthProbe() *strengthProbe {
	return &strengthProbe{Engine: &enginetest.Engine{MaxDepth: 3, Opts: []engine.Option{
		{Name: "UCI_LimitStrength", Type: "check"}, {Name: "UCI_Elo", Type: "spin", Min: 500, Max: 3000}}}}
}

func (p *strengthProbe) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	on := false
	for _, s := range p.Settings() {
		switch s {
		case "UCI_LimitStrength=true":
			on = true
		case "UCI_LimitStrength=false":
			on = false
		}
	}
	p.mu.Lock()
	p.limited = append(p.limited, on)
	p.mu.Unlock()
	return p.Engine.Search(ctx, g, lim, info)
}

// strengths says, search by search, "weak" or "full".
func (p *strengthProbe) strengths() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, on := range p.limited {
		out = append(out, map[bool]string{true: "weak", false: "full"}[on])
	}
	return strings.Join(out, " ")
}

// playAgainstEngine plays the human's move and lets the engine answer.
func playAgainstEngine(t *testing.T, m Model, move string) Model {
	t.Helper()
	ply := m.cur.Ply()
	m, cmd := typeMove(m, move)
	for cmd != nil && m.cur.Ply() < ply+2 {
		nm, c := m.Update(runCmd(cmd))
		m, cmd = nm.(Model), c
	}
	if m.cur.Ply() != ply+2 {
		t.Fatalf("%s: the engine did not answer (ply %d)", move, m.cur.Ply())
	}
	return m
}

// TestViewsSearchAtFullStrength: at level 2 the board's engine plays its
// moves at Elo 1100, but the review (r) and the suite runner (S) opened
// from the board search at full strength, with their own limits shown in
// their header; the board's next move is at the level's strength again.
func TestViewsSearchAtFullStrength(t *testing.T) {
	for _, c := range []struct {
		name  string
		entry view.Entry
		keys  []string
		title string
		depth int
	}{
		{"review", reviewview.Entry(reviewview.Options{Limits: engine.Limits{Depth: 2}}), []string{"r", "enter"}, "Game review  Fake 1.0 · depth 2", 2},
		// The suite's picker takes enter; before it had one, enter ran the
		// first position.
		{"suite", suiteview.Entry("wac", engine.Limits{Depth: 1}), []string{"S", "enter", "a"}, "Suite wac  Fake 1.0 · depth 1", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			eng := newStrengthProbe()
			m := New(testRenderer(termenv.Ascii), eng, Options{Level: 2, MoveLimits: engine.Limits{Depth: 2},
				Now: func() time.Time { return fixedNow }, Views: []view.Entry{c.entry}})
			defer func() { m.Close() }()
			m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
			m = playAgainstEngine(t, m, "e4")
			m = send(m, press("esc"))
			for _, k := range c.keys {
				m = send(m, press(k))
			}
			if len(m.views) != 1 {
				t.Fatalf("%v opened no view", c.keys)
			}
			for deadline := time.Now().Add(patience); eng.Searches() < 2; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the %s's search never started", c.name)
				}
			}
			if head := strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0]; !strings.Contains(head, c.title) {
				t.Errorf("header %q, want %q", head, c.title)
			}
			nm, closeCmd := m.Update(press("esc"))
			if m = nm.(Model); closeCmd != nil {
				m = send(m, closeCmd()) // view.CloseMsg
			}
			if len(m.views) != 0 {
				t.Fatal("esc did not close the view")
			}
			m = playAgainstEngine(t, send(m, press("tab")), "d4") // tab: back to the move box
			if got := eng.strengths(); got != "weak full weak" {
				t.Errorf("searches (board's move, the %s's, board's move): %s; want weak full weak", c.name, got)
			}
			if lim := eng.Limits(); len(lim) < 2 || lim[1].Depth != c.depth {
				t.Errorf("searches ran with %v; want the %s's depth %d second", lim, c.name, c.depth)
			}
			if err := eng.Misuse(); err != nil {
				t.Error(err)
			}
		})
	}
}
