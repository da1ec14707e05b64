package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/tui/gamelist"
	"github.com/squall-chess/squall/tui/view"
)

// runAll runs cmd and what the messages it leads to ask for, as bubbletea
// would, except commands that do not answer at once (the cursor's blink,
// the clock's tick): those are left.
func runAll(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			t.Fatal("commands never end")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		select {
		case msg := <-ch:
			if b, ok := msg.(tea.BatchMsg); ok {
				queue = append(queue, b...)
				continue
			}
			nm, next := m.Update(msg)
			m = nm.(Model)
			queue = append(queue, next)
		case <-time.After(300 * time.Millisecond):
		}
	}
	return m
}

// pressAll presses keys, running what each asks for.
func pressAll(t *testing.T, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		nm, cmd := m.Update(press(k))
		m = runAll(t, nm.(Model), cmd)
	}
	return m
}

// TestGameList: squall FILE.pgn of several games opens in the game list
// (Options.List); enter opens the game on the board as a game of its file
// (saved back in place); G shows the same list again, not read anew; o
// on a file of several games opens its list too.
func TestGameList(t *testing.T) {
	data, err := os.ReadFile("../pgn/testdata/pgn-parser/twic-01-232games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "twic.pgn")
	os.WriteFile(path, data, 0o644)
	if several, err := severalGamesIn(path); !several || err != nil {
		t.Fatalf("SeveralGames = %v, %v", several, err)
	}
	one := filepath.Join(dir, "one.pgn")
	os.WriteFile(one, []byte("[White \"A\"]\n\n1. e4 *\n"), 0o644)
	if several, err := severalGamesIn(one); several || err != nil {
		t.Fatalf("one game: SeveralGames = %v, %v", several, err)
	}

	m := newTestModel(t, Options{Mode: Analysis, List: path, Views: []view.Entry{gamelist.Entry()}, Open: func(p string) ([]*Tree, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadPGN(f, p)
	}})
	m = runAll(t, m, m.Init())
	if len(m.views) != 1 || !strings.Contains(ansi.Strip(m.View()), "232 games") {
		t.Fatalf("%d views at the start:\n%s", len(m.views), ansi.Strip(m.View()))
	}
	list := m.views[0]
	m = pressAll(t, m, "down", "enter")
	if len(m.views) != 0 || m.tree.Tag("White") != "Aronian,L" || m.tree.source == nil || m.tree.source.number != 2 {
		t.Fatalf("after enter: %d views, White %q, source %+v", len(m.views), m.tree.Tag("White"), m.tree.source)
	}
	m = pressAll(t, m, "G")
	if len(m.views) != 1 || m.views[0] != list {
		t.Fatalf("G: %d views, the same list %v", len(m.views), len(m.views) == 1 && m.views[0] == list)
	}
	m = pressAll(t, m, "esc")
	if len(m.views) != 0 || m.tree.Tag("White") != "Aronian,L" {
		t.Fatalf("esc: %d views, White %q", len(m.views), m.tree.Tag("White"))
	}
	// Y: the same list, filtered to the games that reach the board's
	// position, with the move each played next; esc clears it, esc again
	// goes back.
	m = pressAll(t, m, "home", "right", "right", "right", "right", "right", "Y")
	screen := ansi.Strip(m.View())
	if len(m.views) != 1 || !strings.Contains(screen, "filter: fen="+m.pos.FEN()[:20]) || strings.Contains(screen, "232 of 232") ||
		!strings.Contains(screen, " of 232 games") || !strings.Contains(screen, "Next") || !strings.Contains(screen, "Aronian") {
		t.Fatalf("Y: %d views:\n%s", len(m.views), screen)
	}
	m = pressAll(t, m, "esc", "esc")
	if len(m.views) != 0 {
		t.Fatalf("esc esc after Y: %d views", len(m.views))
	}
	// o: a file of one game opens on the board, one of several in its list.
	m = send(m, openFileMsg{one})
	m = runAll(t, m, m.openCmd(one))
	if len(m.views) != 0 || m.tree.Tag("White") != "A" {
		t.Fatalf("o one.pgn: %d views, White %q", len(m.views), m.tree.Tag("White"))
	}
	m = runAll(t, m, m.openCmd(path))
	if len(m.views) != 1 || !strings.Contains(ansi.Strip(m.View()), "232 games") {
		t.Fatalf("o twic.pgn: %d views:\n%s", len(m.views), ansi.Strip(m.View()))
	}
	m.Close()
}

// TestListAtStartKeepsSize: the list opened at the start (squall FILE.pgn)
// took the screen's size of before the terminal's first size arrived, and
// kept the board at 80×24 in a larger terminal: opening a view queued a
// size message of the board's size then, delivered after the real one
// (found in tmux).
func TestListAtStartKeepsSize(t *testing.T) {
	data, err := os.ReadFile("../pgn/testdata/pgn-parser/twic-01-232games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "twic.pgn")
	os.WriteFile(path, data, 0o644)
	m := New(testRenderer(0), nil, Options{Mode: Analysis, List: path, Views: []view.Entry{gamelist.Entry()}})
	nm, cmd := m.Update(startMsg{})
	m = nm.(Model)
	nm, _ = m.Update(tea.WindowSizeMsg{Width: 110, Height: 34})
	m = runAll(t, nm.(Model), cmd)
	if m.width != 110 || m.height != 34 {
		t.Errorf("the board is %d×%d in a 110×34 terminal", m.width, m.height)
	}
	if lines := strings.Split(m.View(), "\n"); len(lines) != 34 || ansi.StringWidth(lines[0]) != 110 {
		t.Errorf("the list is drawn %d rows of %d cells", len(lines), ansi.StringWidth(lines[0]))
	}
	m.Close()
}

// TestListAfterResumeQuestion: squall FILE.pgn with unsaved analysis from
// before asks whether to resume it first, as it did before the list; the
// list opened at the start covered the question (found in tmux) and now
// opens once it is answered.
func TestListAfterResumeQuestion(t *testing.T) {
	session := filepath.Join(t.TempDir(), "session.json")
	m := analysisWithVariation(t, Options{Session: session})
	m.Close()
	data, err := os.ReadFile("../pgn/testdata/pgn-parser/twic-01-232games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "twic.pgn")
	os.WriteFile(path, data, 0o644)
	m = newTestModel(t, Options{Mode: Analysis, List: path, Views: []view.Entry{gamelist.Entry()}, Session: session})
	m = runAll(t, m, m.Init())
	if len(m.views) != 0 || !strings.Contains(ansi.Strip(m.View()), "Resume?") {
		t.Fatalf("%d views; the screen:\n%s", len(m.views), ansi.Strip(m.View()))
	}
	m = pressAll(t, m, "d")
	if len(m.views) != 1 || !strings.Contains(ansi.Strip(m.View()), "232 games") {
		t.Fatalf("after the answer, %d views:\n%s", len(m.views), ansi.Strip(m.View()))
	}
	m.Close()
}
