package serve

import (
	"slices"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// moveList is a server screen's move list: tui/movelist's Running layout
// (the one list of every screen) of a game held as moves in SAN, with its
// scroll state. The tree is made again only when the moves change.
type moveList struct {
	list movelist.List
	sans []string // the moves root was made of
	root *pgn.Node
	// drawn are the rows last drawn, from what drawnFrom says: a screen is
	// drawn on every clock tick and key, its moves change a few times a
	// minute, and drawing the list afresh each frame was most of a play
	// screen's View in the load run's profile (issue 37, acceptance 4).
	drawn     []string
	drawnFrom drawnKey
}

// drawnKey is all a move list's rows are drawn from: the styles (a new
// theme is a new *view.Styles), the moves, and the rows' place and size.
// The scroll state follows from these, so the same key draws the same rows.
type drawnKey struct {
	styles                       *view.Styles
	root                         *pgn.Node
	startPly, ply, width, height int
	empty                        string
}

// rows draws sans, played from game ply startPly, in at most height rows
// of width cells, the move after ply plies marked and kept in view (ply
// < 0: the newest); empty is said when there are no moves.
func (l *moveList) rows(st styles, sans []string, startPly, ply int, empty string, width, height int) []string {
	if l.root == nil || !sameSlice(l.sans, sans) {
		l.sans, l.root = sans, movelist.FromSANs(sans)
	}
	key := drawnKey{st.Styles, l.root, startPly, ply, width, height, empty}
	if l.drawn == nil || key != l.drawnFrom {
		g := movelist.Game{Root: l.root, StartPly: startPly, Empty: empty}
		if ply >= 0 {
			g.Current = movelist.At(l.root, ply)
		}
		l.drawn = l.list.Running(movelist.Styles{Text: st.r.NewStyle(), Muted: st.Muted, Selected: st.Selected}, g, width, height)
		l.drawnFrom = key
	}
	return slices.Clone(l.drawn) // the caller's to change
}

// sameSlice tells whether a and b are the same slice (the moves of one
// snapshot or update), not merely equal: a new update is a new slice.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
