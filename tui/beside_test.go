package tui

import (
	"context"
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
	"github.com/squall-chess/squall/engine/spec"
)

// twoEngines are two fake engines that tell apart: their names, their
// scores (line k of Alpha +0.40 − 0.20k, of Beta −1.20 − 0.30k) and how
// deep they go (Alpha 6, Beta 11), each holding its infinite analysis
// until stopped.
func twoEngines() (alpha, beta *enginetest.Engine) {
	alpha = &enginetest.Engine{ID: "Alpha 1", Tick: 2 * time.Millisecond, MaxDepth: 6, WaitForStop: true,
		Score: func(_ engine.Game, _, k int) engine.Score { return engine.Score{CP: 40 - 20*k} }}
	beta = &enginetest.Engine{ID: "Beta 2", Tick: 3 * time.Millisecond, MaxDepth: 11, WaitForStop: true,
		Score: func(_ engine.Game, _, k int) engine.Score { return engine.Score{CP: -120 - 30*k} }}
	return alpha, beta
}

// TestTwoEnginesInPanel (issue 36, acceptance 6): the engine picker (U)
// sets a second engine analysing beside the board's; both panels update,
// each with its own engine's name, depth and lines, side by side in a
// wide window and one over the other in a narrow one. The eval bar
// follows the board's engine, and the one beside is closed with the
// board.
func TestTwoEnginesInPanel(t *testing.T) {
	for _, size := range []struct{ w, h int }{{160, 50}, {100, 30}} {
		alpha, beta := twoEngines()
		var opened []spec.Spec
		opt := Options{Mode: Analysis, MultiPV: 2, Now: func() time.Time { return fixedNow },
			Settings: Settings{Engines: []NamedEngine{{Name: "beta", Command: "beta-uci --fast"}}},
			OpenEngine: func(_ context.Context, sp spec.Spec) (engine.Analyzer, error) {
				opened = append(opened, sp)
				return beta, nil
			}}
		m := New(testRenderer(termenv.TrueColor), alpha, opt)
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size.w, size.h))
		waitScreen(t, tm, regexp.MustCompile(`depth 6/9`))
		tm.Send(press("esc"))
		tm.Send(press("U"))
		waitScreen(t, tm, regexp.MustCompile(`Engines`))
		tm.Send(press("down")) // squall is listed first, then the config's beta
		tm.Send(press("b"))
		waitScreen(t, tm, regexp.MustCompile(`(?s)depth 6/9.*depth 11/14|depth 11/14.*depth 6/9`))
		quitProgram(tm)
		fm := tm.FinalModel(t, teatest.WithFinalTimeout(patience)).(Model)
		fm.Close()

		if len(opened) != 1 || opened[0].Command != "beta-uci --fast" {
			t.Fatalf("opened %+v; want beta's command from the config", opened)
		}
		if !beta.Closed() {
			t.Error("the engine beside was not closed with the board")
		}
		if alpha.Closed() {
			t.Error("the board closed the engine its caller gave it")
		}
		plain := ansi.Strip(fm.View())
		for _, want := range []string{"Alpha 1 · analysing", "Beta 2 · analysing", "depth 6/9", "depth 11/14",
			"+0.40", "+0.20", "-1.20", "-1.50"} {
			if !strings.Contains(plain, want) {
				t.Errorf("%d×%d: %q not on the screen:\n%s", size.w, size.h, want, plain)
			}
		}
		// Side by side: both titles on one row; one over the other: Beta's
		// below Alpha's lines.
		row := regexp.MustCompile(`(?m)^.*Alpha 1 · analysing.*$`).FindString(plain)
		if wide := size.w >= 160; wide != strings.Contains(row, "Beta 2") {
			t.Errorf("%d×%d: titles' row %q; side by side wanted: %v", size.w, size.h, row, wide)
		}
		// Each engine's own lines: Alpha's scores are all above zero,
		// Beta's all below; the eval bar follows Alpha's +0.40.
		if b := fm.besidePanel.best(); b == nil || b.info.Depth != 11 || b.info.Score.CP != -120 {
			t.Errorf("beside's best line %+v; want depth 11, -120", b)
		}
		if b := fm.panel.best(); b == nil || b.info.Depth != 6 || b.info.Score.CP != 40 {
			t.Errorf("the board's best line %+v; want depth 6, +40", b)
		}
		if c := fm.whiteChances(); c <= 0 { // White's chances in [-1, 1]
			t.Errorf("eval bar at %.2f: it follows Beta's score, not the board's engine's", c)
		}
		golden(t, "two-engines-"+map[bool]string{true: "160x50", false: "100x30"}[size.w >= 160], fm.View())
	}
}

// TestBesideFromConfig: the config's beside = NAME starts that engine
// when the board opens, and b on it in the picker takes it away, the
// choice written to the config.
func TestBesideFromConfig(t *testing.T) {
	alpha, beta := twoEngines()
	cfg := t.TempDir() + "/config.toml"
	set := DefaultSettings()
	set.Beside = "beta"
	set.Engines = []NamedEngine{{Name: "beta", Command: "beta-uci"}}
	set.Options = map[string][]spec.Option{"beta": {{Name: "Hash", Value: "32"}}}
	opt := Options{Mode: Analysis, Now: func() time.Time { return fixedNow }, Settings: set, ConfigPath: cfg,
		OpenEngine: func(_ context.Context, sp spec.Spec) (engine.Analyzer, error) {
			if len(sp.Options) != 1 || sp.Options[0].String() != "Hash=32" {
				t.Errorf("beta opened with %v; want its remembered Hash=32", sp.Options)
			}
			return beta, nil
		}}
	m := New(testRenderer(termenv.TrueColor), alpha, opt)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 50))
	waitScreen(t, tm, regexp.MustCompile(`depth 11/14`))
	tm.Send(press("esc"))
	tm.Send(press("U"))
	tm.Send(press("down"))
	tm.Send(press("b"))
	waitScreen(t, tm, regexp.MustCompile(`no engine beside`))
	quitProgram(tm)
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(patience)).(Model)
	fm.Close()
	if fm.search.beside != nil {
		t.Fatal("the engine beside is still there")
	}
	waitFor(t, func() bool { return beta.Closed() })
	got, err := LoadSettings(cfg)
	if err != nil || got.Beside != "" || len(got.Engines) != 1 || got.Options["beta"][0].Value != "32" {
		t.Fatalf("config after: %+v, %v", got, err)
	}
	if strings.Contains(ansi.Strip(fm.View()), "Beta 2") {
		t.Error("Beta's panel still drawn")
	}
}

// waitFor waits until ok, failing the test after patience.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

var _ tea.Model = Model{}

// TestBesideWaitsForTheMove: in a game against the engine, the engine
// beside analyses with the board's while the human is to move and waits,
// said so in its panel, while the board's engine thinks of its move.
func TestBesideWaitsForTheMove(t *testing.T) {
	alpha, beta := twoEngines()
	alpha.Tick = time.Hour // thinks until stopped
	m := New(testRenderer(termenv.TrueColor), alpha, Options{Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 50},
		engineOpenedMsg{useEngineMsg: useEngineMsg{name: "beta", beside: true}, a: beta},
		press("esc"), press("a"))
	if m.search.beside == nil || m.search.beside.run == nil {
		t.Fatal("the engine beside does not analyse with the board's")
	}
	m = send(m, press("tab"))
	m, _ = typeMove(m, "e4")
	if !m.search.thinking() || m.search.beside.run != nil {
		t.Fatalf("engine thinking %v, beside searching %v; want the board's engine alone", m.search.thinking(), m.search.beside.run != nil)
	}
	if !strings.Contains(ansi.Strip(m.View()), "Beta 2 · waits for the move") {
		t.Errorf("the panel beside does not say it waits:\n%s", ansi.Strip(m.View()))
	}
}
