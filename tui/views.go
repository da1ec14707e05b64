package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/tui/view"
)

// The full-screen views the board opens over itself (the suite runner,
// game review) live in their own packages behind package view's seam;
// Options.Views lists those offered.

func (m *Model) env() view.Env {
	return view.Env{Renderer: m.r, Theme: m.st.Theme, Runner: m.search.runner, Game: m.tree.EngineGame(m.cur), PGN: m.tree.Export()}
}

// openView pushes a view, stopping the board's search first.
func (m *Model) openView(v view.View) tea.Cmd {
	m.views = append(m.views, v)
	m.search.stop()
	return tea.Batch(v.Init(), func() tea.Msg { return tea.WindowSizeMsg{Width: m.width, Height: m.height} })
}
