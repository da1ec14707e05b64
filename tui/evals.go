package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/review"
	"github.com/squall-chess/squall/tui/evalgraph"
	"github.com/squall-chess/squall/tui/movelist"
)

// The board's eval graph (tui/evalgraph) of the line shown: the start,
// the moves to the shown position and the main continuation after it.
// Each position's evaluation is, first, what the engine said of it in this
// session — the live analysis' best line, or a review (view.ScoredMsg) —
// the deeper search kept; else the file's [%eval]; else, after a mate, the
// result. The session's evaluations are the board's own (scores): they do
// not change the game or its file.

// scores are the session's evaluations of the positions after the nodes
// of the board's tree (White's view, with their depth).
type scores map[*pgn.Node]pgn.Eval

// keep keeps e for n unless a deeper search's is kept already.
func (s scores) keep(n *pgn.Node, e pgn.Eval) {
	if old, ok := s[n]; ok && old.Depth > e.Depth {
		return
	}
	s[n] = e
}

// keepAnalysis keeps the score of the analysis' best line in info, a
// report of the search of node n (whose position is m.pos).
func (m *Model) keepAnalysis(n *pgn.Node, info engine.Info) {
	if !info.BestLine() {
		return
	}
	if e, ok := evalgraph.PGNEval(info.Score, m.pos.SideToMove(), info.Depth); ok {
		m.scores.keep(n, e)
	}
}

// line is the nodes of the line shown: the root to the shown node, then
// its main continuation.
func (m *Model) line() []*pgn.Node {
	var out []*pgn.Node
	for n := m.cur; n != nil; n = n.Parent {
		out = append(out, n)
	}
	slices.Reverse(out)
	for n := m.cur.Next(); n != nil; n = n.Next() {
		out = append(out, n)
	}
	return out
}

// points are the graph's evaluations of the nodes of line; scored says
// whether any is an engine's (a mate alone is no graph).
func (m *Model) points(line []*pgn.Node) (out []evalgraph.Point, scored bool) {
	out = make([]evalgraph.Point, len(line))
	white := m.tree.Start.SideToMove() == chess.White
	for i, n := range line {
		switch e, ok := m.scores[n]; {
		case ok:
			out[i], scored = evalgraph.FromPGN(e), true
		case n.Commands != nil && n.Commands.Eval.Kind != pgn.NoEval:
			out[i], scored = evalgraph.FromPGN(n.Commands.Eval), true
		case strings.HasSuffix(n.SAN, "#"):
			// Ply i was played by the side to move at the start when i is odd.
			mate := review.Eval{CP: review.Ceiling, Over: true}
			if (i%2 == 1) != white {
				mate.CP = -review.Ceiling
			}
			out[i] = evalgraph.FromReview(mate)
		}
	}
	return out, scored
}

// graphRows is the most rows the board's graph takes (six rows of bars
// and the axis under them).
const graphRows = 7

// evalGraph is the eval graph for the free rows under a board w cells
// wide: none without an engine's evaluation in the line or with fewer than
// two rows free; in up to five rows all of them (a 100×30 terminal has
// two: one row of bars and the axis); with more, a blank row first and
// room left for the game's header (gameHeader) when the game came from a
// file. The bars take an even number of rows where they can, so that the
// zero line is drawn.
func (m *Model) evalGraph(w, free int) []string {
	if free < 2 {
		return nil
	}
	points, scored := m.points(m.line())
	if !scored {
		return nil
	}
	cur := m.cur.Ply()
	if free <= 5 {
		return evalgraph.Render(m.st, points, cur, w, free)
	}
	header := 0
	if m.tree.source != nil {
		header = 4
	}
	rows := min(graphRows, free-1-header)
	if rows < 3 {
		rows = min(graphRows, free-1)
	}
	if rows%2 == 0 {
		rows-- // bars (rows-1) even
	}
	return append([]string{strings.Repeat(" ", w)}, evalgraph.Render(m.st, points, cur, w, rows)...)
}

// nextSwing shows the position after the next biggest swing of the
// evaluation along the line shown (J), biggest first.
func (m *Model) nextSwing() {
	line := m.line()
	points, _ := m.points(line)
	ply, ok := evalgraph.NextSwing(points, m.cur.Ply())
	if !ok {
		m.setMessage("no swing of the eval in this line: analyse (a) or review (r) it first")
		return
	}
	swings := evalgraph.Swings(points)
	n := line[ply]
	m.setCur(n)
	m.setMessage(fmt.Sprintf("eval swing %d of %d: %s %s", slices.Index(swings, ply)+1, len(swings),
		movelist.Number(m.tree.Start.GamePly()+ply-1), n.SAN))
}
