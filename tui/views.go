package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/tui/view"
)

// The full-screen views the board opens over itself (the suite runner,
// game review) live in their own packages behind package view's seam;
// Options.Views lists those offered.

// eloUnknown is boardSearch.elo once a view may have changed the engine's
// strength: neither full strength nor a level, so that the board's next
// search, a move or an analysis, sets the strength it wants again.
const eloUnknown = -1

// env is what a view gets from the board: every view gets it here, and so
// every view searches at full strength. The board's engine plays its moves
// at the level's strength (UCI_Elo) and keeps that setting between
// searches; a view's searches put it back to full strength first.
func (m *Model) env() view.Env {
	env := view.Env{Renderer: m.r, Theme: m.st.Theme, Runner: m.search.runner, Game: m.tree.EngineGame(m.cur), PGN: m.tree.Export(), Path: m.listPath, Flipped: m.board.flipped}
	if m.tree.source != nil {
		env.Path = m.tree.source.file.path
	}
	if m.mode == VsEngine {
		human := m.human
		env.Player = &human // the review's "your mistakes"
	}
	if m.search.hasElo {
		env.Setup = fullStrength
		m.search.elo = eloUnknown
	}
	return env
}

// fullStrength is a view's Setup: no UCI_Elo limit (the zero Level's
// strength), set as the board sets its own.
func fullStrength(a engine.Analyzer) error {
	setStrength(a, level.Level{}.Setup())
	return nil
}

// openView pushes a view, stopping the board's search first.
func (m *Model) openView(v view.View) tea.Cmd {
	m.search.stop()
	// The view learns the screen's size now, not from a queued message:
	// one queued here was delivered after a newer size from the terminal
	// (at the start, before the first size arrived) and put the old one
	// back for the board too.
	init := v.Init()
	v, size := v.Update(tea.WindowSizeMsg{Width: m.width, Height: m.height})
	m.views, m.viewKeys = append(m.views, v), append(m.viewKeys, "")
	return tea.Batch(init, size)
}
