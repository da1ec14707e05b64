package tui

import (
	"errors"
	"fmt"
	"io/fs"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/explore"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// The explorer panel: the moves the games of the board's PGN file played
// from the shown position, with their games and results, from the file's
// opening-explorer index (package explore, FILE.pgn.sqx: `squall explore`
// or x in the game list builds it). It shows by itself when the index is
// there; Z hides it, or shows it (saying why it is empty) when it is not.

// explorerRows is how many moves the panel lists.
const explorerRows = 6

// explorerPanel is the panel's state. The index is opened, and each
// position looked up, by a command (explorerCmd): a look-up reads a block
// of the index from disk, which Update must not wait for.
type explorerPanel struct {
	// shown: nil follows the index (shown when there is one), else Z's
	// choice.
	shown *bool
	path  string         // the PGN file whose index ix is
	ix    *explore.Index // nil: none open
	// The shown position's moves, once its look-up is back: key is the
	// position's (chess.Position.Key), has says moves are its.
	key     uint64
	has     bool
	moves   []explore.Move
	err     error
	pending bool // a command is out; its answer may be for an older position
}

// explorerMsg is a look-up's answer: the moves from the position with key,
// from the index of path (ix, opened by the command where it was not).
type explorerMsg struct {
	path  string
	ix    *explore.Index
	key   uint64
	moves []explore.Move
	err   error
}

// explorerPath is the PGN file the panel explores: the board's game's, else
// the game list's.
func (m *Model) explorerPath() string {
	if m.tree.source != nil {
		return m.tree.source.file.path
	}
	return m.listPath
}

// explorerCmd looks p up in the index of path, opening it first if ix is
// not it.
func explorerCmd(path string, ix *explore.Index, p *chess.Position) tea.Cmd {
	return func() tea.Msg {
		msg := explorerMsg{path: path, ix: ix, key: p.Key()}
		if ix == nil {
			if msg.ix, msg.err = explore.Open(path); msg.err != nil {
				return msg
			}
		}
		msg.moves, msg.err = msg.ix.Moves(p)
		return msg
	}
}

// askExplorer issues the look-up of the shown position, once, when the
// panel may show.
func (m *Model) askExplorer() tea.Cmd {
	e := &m.explorer
	if e.shown != nil && !*e.shown || e.pending || e.has && e.key == m.pos.Key() {
		return nil
	}
	path := m.explorerPath()
	if path == "" {
		return nil
	}
	if path != e.path && e.ix != nil {
		e.ix.Close()
		e.ix = nil
	}
	e.path, e.pending = path, true
	return explorerCmd(path, e.ix, m.pos.Clone())
}

// handleExplorer takes a look-up's answer; one for a position left
// meanwhile is dropped, and the shown one asked for (Update's askExplorer).
func (m *Model) handleExplorer(msg explorerMsg) {
	e := &m.explorer
	e.pending = false
	if msg.ix != nil && msg.ix != e.ix {
		if msg.path != e.path {
			msg.ix.Close()
			return
		}
		e.ix = msg.ix
	}
	if msg.key != m.pos.Key() {
		return
	}
	e.key, e.has, e.moves, e.err = msg.key, true, msg.moves, msg.err
	if msg.err != nil && e.ix != nil {
		e.ix.Close() // a corrupt or vanished index is opened again next time
		e.ix = nil
	}
}

// forget drops the shown position's moves (another position is shown).
func (e *explorerPanel) forget() { e.has, e.moves, e.err = false, nil, nil }

// toggleExplorer is Z: hide the panel if it shows, else show it.
func (m *Model) toggleExplorer() {
	e := &m.explorer
	show := !e.visible()
	e.shown = &show
	if show && m.explorerPath() == "" {
		m.setMessage("the explorer needs a PGN file: open one (o), its games indexed by x in the game list or squall explore FILE")
	}
}

// visible reports whether the panel takes room: Z said so, or an index
// answered.
func (e *explorerPanel) visible() bool {
	if e.shown != nil {
		return *e.shown
	}
	return e.ix != nil && e.has && e.err == nil
}

// close closes the index.
func (e *explorerPanel) close() {
	if e.ix != nil {
		e.ix.Close()
		e.ix = nil
	}
}

// lines draws the panel in w cells: a title with the position's games,
// then the most played moves, each with its games and White's, the
// draws' and Black's share, as lichess's explorer shows them.
func (e *explorerPanel) lines(st *view.Styles, w int) []string {
	if !e.visible() {
		return nil
	}
	title := st.Title.Render("explorer")
	switch {
	case e.err != nil && errors.Is(e.err, fs.ErrNotExist):
		return []string{title + st.Muted.Render(termtext.Cut(" · no index: x in the game list (G) builds it", w-8))}
	case e.err != nil:
		return []string{title + " " + st.Err.Render(termtext.Cut(termtext.SafeLine(e.err.Error()), w-9))}
	case !e.has:
		return []string{title + st.Muted.Render(" · …")}
	case len(e.moves) == 0:
		return []string{title + st.Muted.Render(" · no game reaches this position")}
	}
	var total explore.Move
	for _, mv := range e.moves {
		total.White += mv.White
		total.Draws += mv.Draws
		total.Black += mv.Black
		total.Unfinished += mv.Unfinished
	}
	out := []string{title + st.Muted.Render(termtext.Cut(fmt.Sprintf(" · %s · white/draw/black", plural.Count(int(total.Games()), "game")), w-8))}
	for i, mv := range e.moves {
		if i == explorerRows {
			out = append(out, st.Muted.Render(fmt.Sprintf("… %d more", len(e.moves)-i)))
			break
		}
		out = append(out, termtext.Cut(st.Text.Render(fmt.Sprintf("%-7s", mv.SAN))+explorerCounts(mv, st), w))
	}
	return out
}

// explorerCounts is one move's games and results: "  41  39% 27% 34%", a
// dash for the shares where no game finished.
func explorerCounts(mv explore.Move, st *view.Styles) string {
	s := fmt.Sprintf("%6d", mv.Games())
	finished := mv.White + mv.Draws + mv.Black
	if finished == 0 {
		return s + st.Muted.Render("    –    –    –")
	}
	pc := func(n uint64) string { return fmt.Sprintf(" %3d%%", (200*n+finished)/(2*finished)) }
	return s + pc(mv.White) + st.Muted.Render(pc(mv.Draws)) + pc(mv.Black)
}
