package tui

import (
	"fmt"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// publish hands the game on the board to Options.Publish: the line
// through the shown position (its continuation included, so that viewers
// see the whole game while the user looks back) and the shown ply.
func (m *Model) publish() {
	m.unpublished = false
	if m.opt.Publish == nil || m.publishOff {
		return
	}
	line := m.tree.LineThrough(m.cur)
	g := engine.Game{Start: m.tree.Start.Clone(), Moves: make([]chess.Move, 0, len(line))}
	for _, n := range line {
		g.Moves = append(g.Moves, n.Move)
	}
	if err := m.opt.Publish(g, m.cur.Ply()); err != nil {
		// Once: a broadcast that failed (its server stopped) would fail
		// again on every move and hide every other message.
		m.publishOff = true
		m.setError(fmt.Errorf("broadcast stopped: %w", err))
	}
}
