package tui

import (
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// moveList is the side panel's list of the game (tui/movelist's Columns,
// as the review draws it): the whole tree, the shown move marked and kept
// in view, and where a game read only in part stops.
func (m *Model) moveList(w, h int) []string {
	g := movelist.Game{Root: m.tree.Root, StartPly: m.tree.Start.GamePly(), Current: m.cur}
	if err := m.tree.partial; err != nil {
		// A game read only up to its first bad move says so where it
		// stops (issue 32, D3).
		g.Tail = func(w int) []string {
			rows := view.WrapWords("⚠ the file's game stops here: "+termtext.SafeLine(err.Error()), max(w, 10))
			for i, r := range rows {
				rows[i] = m.st.Err.Render(r)
			}
			return rows
		}
	}
	return m.moves.Columns(listStyles(m.st), g, w, h)
}

// listStyles are the move list's styles from the board's.
func listStyles(st *view.Styles) movelist.Styles {
	return movelist.Styles{Text: st.Text, Muted: st.Muted, Selected: st.Selected}
}
