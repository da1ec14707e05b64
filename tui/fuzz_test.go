package tui

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/termtext"
)

// sgr matches the board's own styling (Select Graphic Rendition), the only
// escape sequences Squall itself draws.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkScreen fails unless screen, without Squall's own styling, holds
// nothing a terminal would act on.
func checkScreen(t *testing.T, what, screen string) {
	t.Helper()
	rest := sgr.ReplaceAllString(screen, "")
	if off, r, ok := termtext.Unsafe(rest, false); !ok {
		lo, hi := max(0, off-40), min(len(rest), off+40)
		t.Fatalf("%s: %q reached the screen at %d: %q", what, r, off, rest[lo:hi])
	}
}

// FuzzBoardText is issue 18's B3 for the board: a PGN file (tags,
// comments, move text, its errors), an engine's name and its info string
// and an error message, all chosen by the fuzzer, are drawn without a byte
// a terminal would act on, besides the board's own styling.
func FuzzBoardText(f *testing.F) {
	f.Add("[Event \"x\"]\n[White \"Evil\x1b[2J\x1b[31mRED\"]\n\n1. e4 {a \x1b]52;c;aGk=\x07 comment} e5 (1... c5 {\x9b2J}) *\n", "Fake\x1b[2J", "info\x1bc", "open \x1b[31mfile")
	f.Add("[Event \"x\"]\n\n1. e4 e5\x1bc *\n\n[Event \"y\"]\n\n1. d4 *\n", "\u202eevil", "\r\n", "x\x00y")
	f.Fuzz(func(t *testing.T, pgnText, name, infoText, errText string) {
		trees, err := ReadPGN(strings.NewReader(pgnText), "fuzz.pgn")
		opt := Options{Mode: Analysis, Games: trees, GamesErr: err, Warnings: []string{infoText}}
		m := New(testRenderer(termenv.TrueColor), nil, opt)
		m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
		m.panel.engineName = name
		m.panel.add(m.pos, engine.Info{String: infoText})
		var ml chess.MoveList
		if m.pos.GenerateLegal(&ml); ml.N > 0 {
			m.panel.add(m.pos, engine.Info{Depth: 3, MultiPV: 1, Nodes: 100, PV: ml.Moves[:1]})
		}
		checkScreen(t, "board", m.View())
		if len(trees) > 1 {
			m = send(m, press("esc"))
		}
		m = send(m, press("end"))
		checkScreen(t, "board at the end", m.View())
		m.setError(errors.New(errText))
		checkScreen(t, "error line", m.View())
		m = send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
		checkScreen(t, "small board", m.View())
	})
}

// TestBoardTextEvil is FuzzBoardText's first seed as a plain test: the
// Evil…RED White tag and escapes in comments and an engine's name.
func TestBoardTextEvil(t *testing.T) {
	trees, err := ReadPGN(strings.NewReader("[Event \"x\"]\n[White \"Evil\x1b[2J\x1b[31mRED\"]\n\n1. e4 {a \x1b]52;c;aGk=\x07 comment} e5 *\n"), "evil.pgn")
	if err != nil {
		t.Fatal(err)
	}
	m := New(testRenderer(termenv.TrueColor), nil, Options{Mode: Analysis, Games: trees})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("right"))
	m.panel.engineName = "Fake\x1b[2J"
	checkScreen(t, "evil game", m.View())
	if v := m.View(); !strings.Contains(sgr.ReplaceAllString(v, ""), "Evil␛␛RED") {
		t.Errorf("the White tag is not shown made safe:\n%s", sgr.ReplaceAllString(v, ""))
	}
}
