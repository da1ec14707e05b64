package tui

import (
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/view"
)

// The board's side of the game list (package gamelist, offered as the
// view.Entry marked Games): a file of several games opens in the list
// (squall FILE.pgn, o), the list hands the game chosen back as a
// view.GameMsg, and the list is kept to show again by its key.

// SeveralGames reports whether the PGN text of r (the file name) holds
// more than one game, skimming no further than the second: a file of
// several opens in the game list, streamed, instead of being read whole.
func SeveralGames(rd io.Reader, name string) (bool, error) {
	r := pgn.NewReader(rd, name)
	for i := 0; i < 2; i++ {
		if _, err := r.NextEntry(); err == io.EOF {
			return false, nil
		} else if err != nil {
			return false, err
		}
	}
	return true, nil
}

// severalGamesIn is SeveralGames of the file at path.
func severalGamesIn(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return SeveralGames(f, path)
}

// gamesEntry is the view that lists a file's games, if the board offers
// one.
func (m *Model) gamesEntry() (view.Entry, bool) {
	for _, e := range m.opt.Views {
		if e.Games {
			return e, true
		}
	}
	return view.Entry{}, false
}

// listFileMsg opens the game list of a file (the prompt's answer, or o on
// a file of several games).
type listFileMsg struct{ path string }

// openEntry opens the view of e: the one kept from before where it takes
// the board's Env of now, else a new one; path, if set, is the file to
// list (else the board's). The game list with no file to list asks for
// one first.
func (m *Model) openEntry(e view.Entry, path string) tea.Cmd {
	env := m.env()
	if path != "" {
		env.Path = path
	}
	if e.Games && env.Path == "" {
		d := newPrompt(m.st, "Game list of PGN file", "", func(p string) tea.Msg { return listFileMsg{p} })
		d.paths = true
		m.dialog = d
		return nil
	}
	if k, ok := m.kept[e.Key].(view.Kept); ok {
		delete(m.kept, e.Key)
		if v := k.Reopen(env); v != nil {
			return m.openKeyed(e.Key, v)
		}
		closeView(k)
	}
	return m.openKeyed(e.Key, e.New(env))
}

// openList opens the game list of the file at path.
func (m *Model) openList(path string) tea.Cmd {
	e, ok := m.gamesEntry()
	if !ok || path == "" {
		return nil
	}
	m.listPath = expandHome(path)
	return m.openEntry(e, m.listPath)
}

// openPositionList is Y: the game list of the board's file, filtered to
// the games that reach the shown position (view.PositionMsg, handed to
// the list as it opens). Without a file the list asks for one first, and
// then opens unfiltered.
func (m *Model) openPositionList() tea.Cmd {
	e, ok := m.gamesEntry()
	if !ok {
		return nil
	}
	cmd := m.openEntry(e, "")
	top := len(m.views) - 1
	if top < 0 || m.viewKeys[top] != e.Key {
		return cmd
	}
	v, find := m.views[top].Update(view.PositionMsg{FEN: m.pos.FEN()})
	m.views[top] = v
	return tea.Batch(cmd, find)
}

// openKeyed opens v, a view of the entry keyed key.
func (m *Model) openKeyed(key string, v view.View) tea.Cmd {
	cmd := m.openView(v)
	m.viewKeys[len(m.views)-1] = key
	return cmd
}

// handleGame takes the game a view chose: the view closes (kept, to show
// again by its key) and the game opens as one opened from its file,
// asking first about unsaved analysis.
func (m *Model) handleGame(msg view.GameMsg) tea.Cmd {
	if top := len(m.views) - 1; top >= 0 {
		if k, ok := m.views[top].(view.Kept); ok && m.viewKeys[top] != "" {
			if old := m.kept[m.viewKeys[top]]; old != nil && old != view.View(k) {
				closeView(old)
			}
			m.kept[m.viewKeys[top]] = k
		}
		m.popView()
	}
	t, err := TreeFromGame(msg.Game)
	if err != nil {
		m.setError(err)
		return m.sync()
	}
	t.partial = msg.Err
	if msg.Sum != nil {
		file := &pgnFile{path: msg.Path, sum: *msg.Sum}
		t.source = &gameSource{file: file, number: msg.Number, offset: msg.Offset, end: msg.End}
		file.games = []*gameSource{t.source}
	}
	if msg.Err != nil {
		m.setError(msg.Err)
	}
	return tea.Batch(m.sync(), m.whenSaved("open another game", openTreeMsg{t}))
}

// popView closes the top view.
func (m *Model) popView() {
	if n := len(m.views); n > 0 {
		m.views, m.viewKeys = m.views[:n-1], m.viewKeys[:n-1]
	}
}

// closeView stops a view's background work, if it has any.
func closeView(v view.View) {
	if c, ok := v.(interface{ Close() }); ok {
		c.Close()
	}
}
