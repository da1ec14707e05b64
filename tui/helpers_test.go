package tui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/tui/internal/tuitest"
)

// fixedNow is the fake clock of model tests.
var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// testRenderer renders into a buffer, so golden files show the exact
// escape sequences a terminal gets.
func testRenderer(p termenv.Profile) *lipgloss.Renderer { return tuitest.Renderer(p) }

func newTestModel(t *testing.T, opt Options) Model {
	t.Helper()
	if opt.Now == nil {
		opt.Now = func() time.Time { return fixedNow }
	}
	m := New(testRenderer(termenv.TrueColor), nil, opt)
	return send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
}

// send passes messages through Update, dropping commands.
func send(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		nm, _ := m.Update(msg)
		m = nm.(Model)
	}
	return m
}

// typeKeys types text and presses enter.
func typeMove(m Model, s string) (Model, tea.Cmd) {
	for _, r := range s {
		m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	nm, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	return nm.(Model), cmd
}

func press(s string) tea.KeyMsg { return tuitest.Press(s) }

// goldenDir holds the board's golden files.
var goldenDir = tuitest.GoldenDir()

func golden(t *testing.T, name, view string) {
	t.Helper()
	tuitest.Golden(t, goldenDir, name, view)
}

// patience bounds a wait for something that must happen.
const patience = tuitest.Patience
