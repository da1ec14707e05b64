package tui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// updating reports whether -update was given: rewrite the golden files.
// The flag is x/exp/golden's (teatest imports it), so one -update rewrites
// both kinds of golden file; it is registered here only if that package is
// ever dropped.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// fixedNow is the fake clock of model tests.
var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// testRenderer renders true colour into a buffer, so golden files show the
// exact escape sequences a colour terminal gets.
func testRenderer(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(&strings.Builder{}, termenv.WithProfile(p))
	r.SetColorProfile(p)
	r.SetHasDarkBackground(true)
	return r
}

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

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// golden compares a view with testdata/golden/name.golden (escape codes
// kept) and the plain text with name.txt, for a reader of the diff.
// goldenDir is absolute so that a test may change its working directory.
var goldenDir, _ = filepath.Abs(filepath.Join("testdata", "golden"))

func golden(t *testing.T, name, view string) {
	t.Helper()
	dir := goldenDir
	plain := ansi.Strip(view)
	for _, f := range []struct{ ext, data string }{{".golden", view}, {".txt", plain}} {
		path := filepath.Join(dir, name+f.ext)
		if updating() {
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(path, []byte(f.data), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./tui -run %s -update)", err, t.Name())
		}
		if string(want) != f.data {
			t.Errorf("%s differs from %s; got:\n%s", name, path, plain)
			return
		}
	}
}

// patience bounds a wait for something that must happen (a search to
// start on another goroutine): generous for a loaded machine, and never
// reached when the code is right.
const patience = 15 * time.Second
