package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/internal/tuitest"
)

// waitScreen waits until the program's output matches re.
func waitScreen(t *testing.T, tm *teatest.TestModel, re *regexp.Regexp) {
	t.Helper()
	tuitest.WaitScreen(t, tm, re)
}

// quitProgram presses ctrl+c twice: the first asks when a game is in
// progress, the second quits all the same.
func quitProgram(tm *teatest.TestModel) {
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
}

// TestTeatestPlayAndAnalyse drives the whole program as a user would, at
// 100×30 with a deterministic engine: type e4 and enter, wait for the
// engine's reply, switch to board keys and toggle a 3-line analysis, quit.
// The final screen is a golden file; the goroutines end with the program.
func TestTeatestPlayAndAnalyse(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Millisecond, MaxDepth: 8}
	m := New(testRenderer(termenv.TrueColor), eng, Options{MultiPV: 3, Now: func() time.Time { return fixedNow }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitScreen(t, tm, regexp.MustCompile(`move>`))
	tm.Type("e4")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	// The fake engine's move is Black's first legal move.
	waitScreen(t, tm, regexp.MustCompile(`1\. e4 +[a-hNO]\S*`))
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'a'}})
	// Depth 8 is the fake engine's last: the screen then stays put.
	waitScreen(t, tm, regexp.MustCompile(`depth 8/11`))
	quitProgram(tm)
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(patience)).(Model)
	fm.Close()

	v := fm.View()
	golden(t, "teatest-play-analyse", v)
	plain := ansi.Strip(v)
	pv := regexp.MustCompile(`(?m)^.*[+-]\d+\.\d\d 2\. \S+ \S+`)
	if n := len(pv.FindAllString(plain, -1)); n != 3 {
		t.Errorf("%d PV lines shown, want 3:\n%s", n, plain)
	}
	for _, want := range []string{"1. e4", "Fake 1.0 · analysing", "White to move", "▶ You · White"} {
		if !strings.Contains(plain, want) {
			t.Errorf("final screen lacks %q:\n%s", want, plain)
		}
	}
	if g, _ := fm.geometry(); g.w != 7 || g.h != 3 {
		t.Errorf("100×30 squares %d×%d, want 7×3", g.w, g.h)
	}
	waitGoroutines(t)
}

// TestTeatestResize: shrinking the terminal below 55×12 shows the
// too-small message instead of a garbled board, and growing it back
// brings the board back.
func TestTeatestResize(t *testing.T) {
	m := New(testRenderer(termenv.TrueColor), nil, Options{Mode: TwoHumans, Now: func() time.Time { return fixedNow }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitScreen(t, tm, regexp.MustCompile(`move>`))
	tm.Send(tea.WindowSizeMsg{Width: 50, Height: 20})
	waitScreen(t, tm, regexp.MustCompile(`Too small: the board needs 55×12, this is 50×20`))
	tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	waitScreen(t, tm, regexp.MustCompile(`move>`))
	quitProgram(tm)
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(patience)).(Model)
	golden(t, "teatest-resized-80x24", fm.View())
	if lines := strings.Split(fm.View(), "\n"); len(lines) != 24 {
		t.Errorf("80×24 view has %d lines", len(lines))
	}
}

// waitGoroutines fails the test if goroutines running this package's code
// (searches, their wait commands, the autosave writer) outlive the program;
// the engine-vs-engine test checks the bare count with a plain tea.Program.
func waitGoroutines(t *testing.T) {
	t.Helper()
	tuitest.WaitGoroutines(t, "squall-chess/squall/tui")
}

// TestTeatestGoldens replays each golden scene of view_test.go through a
// running program (teatest): typed moves, key presses, mouse clicks and a
// deterministic engine, then compares the final screen with the same golden
// file the direct View test uses. Both paths must draw the same screen.
func TestTeatestGoldens(t *testing.T) {
	promo := "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"
	type scene struct {
		name   string
		opt    Options
		eng    *enginetest.Engine
		w, h   int
		steps  []any // string: a move typed and entered; *regexp.Regexp: waited for on the screen; tea.Msg: sent as is
		waitRe string
	}
	keys := func(s string) tea.KeyMsg { return press(s) }
	// Ng1 at 80×24: 5×2 squares after the 2-cell rank labels.
	clickG1 := tea.MouseMsg{X: rankLabelWidth + 6*5 + 2, Y: 7*2 + 1, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
	scenes := []scene{
		{name: "start-80x24", eng: &enginetest.Engine{}, w: 80, h: 24},
		{name: "start-120x40", eng: &enginetest.Engine{}, w: 120, h: 40},
		{name: "e4-e5", opt: Options{Mode: TwoHumans}, w: 80, h: 24, steps: []any{"e4", "e5"}},
		// --mode analysis analyses from the start and each move's position
		// after it. The eval graph keeps each position's deepest score, so
		// every position's depth 12 (its best line, +1.20 for the side to
		// move, unique to it) is waited for before the next move: else the
		// graph would show what the machine's speed let the engine reach.
		{name: "analysis-3pv", opt: Options{Mode: Analysis, MultiPV: 3}, eng: &enginetest.Engine{Tick: time.Millisecond, MaxDepth: 12},
			w: 120, h: 40, steps: []any{
				regexp.MustCompile(`\+1\.20 1\. `), "e4",
				regexp.MustCompile(`-1\.20 1… `), "e5",
				regexp.MustCompile(`\+1\.20 2\. `), "Nf3", keys("esc"),
			}, waitRe: `-1\.20 2… Ke7`},
		{name: "promotion", opt: Options{Mode: TwoHumans, Start: mustFEN(t, promo)}, w: 80, h: 24, steps: []any{"e8"}},
		{name: "mate", opt: Options{Mode: TwoHumans}, w: 80, h: 24, steps: []any{"f3", "e5", "g4", "Qh4#"}},
		{name: "too-small", w: 50, h: 30},
		{name: "letters", opt: Options{Mode: TwoHumans, Letters: true}, w: 80, h: 24, steps: []any{"e4"}},
	}
	bk, learning, _ := testBook(t)
	scenes = append(scenes, scene{name: "book", opt: Options{Mode: TwoHumans, Book: bk, BookLearning: learning}, w: 80, h: 24,
		steps: []any{"e4", "e5", "Nf3", "Nc6", keys("esc"), keys("b")}})
	// The probe answers by a command: wait for it, or a loaded machine
	// quits before the TB line is drawn.
	scenes = append(scenes, scene{name: "tablebase", opt: Options{Mode: Analysis, Start: mustFEN(t, tbGoldenFEN), Tablebase: openTables(t)}, w: 80, h: 24, waitRe: `TB: win`})
	for _, th := range themes.Builtin() {
		scenes = append(scenes, scene{name: "theme-" + th.Name, opt: Options{Mode: TwoHumans, Theme: th}, w: 80, h: 24,
			steps: []any{"e4", "e5", keys("esc"), clickG1}})
	}
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			sc.opt.Now = func() time.Time { return fixedNow }
			var eng engine.Analyzer // a nil *enginetest.Engine would be a non-nil engine
			if sc.eng != nil {
				eng = sc.eng
			}
			m := New(testRenderer(termenv.TrueColor), eng, sc.opt)
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(sc.w, sc.h))
			for _, s := range sc.steps {
				switch s := s.(type) {
				case string:
					tm.Type(s)
					tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
				case *regexp.Regexp: // before tea.Msg, which is any
					waitScreen(t, tm, s)
				case tea.Msg:
					tm.Send(s)
				}
			}
			if sc.waitRe != "" {
				waitScreen(t, tm, regexp.MustCompile(sc.waitRe))
			}
			quitProgram(tm)
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(patience)).(Model)
			fm.Close()
			golden(t, sc.name, fm.View())
			waitGoroutines(t)
		})
	}
}
