package tui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/termtext"
)

// styles are the theme's colours turned into lipgloss styles of one
// renderer (each SSH session has its own renderer and colour profile). The
// board and eval bar are drawn by board, the renderer shared with serve.
type styles struct {
	theme themes.Theme
	board *boardview.Painter

	text, muted, accent, err, bold, title, selected lipgloss.Style
	dialog                                          lipgloss.Style
}

func newStyles(r *lipgloss.Renderer, t themes.Theme, letters bool) *styles {
	pieces := boardview.Glyphs
	if letters {
		pieces = boardview.Letters
	}
	s := &styles{theme: t, board: boardview.New(r, t, pieces)}
	s.text = r.NewStyle().Foreground(termtext.Color(t.Text))
	s.muted = r.NewStyle().Foreground(termtext.Color(t.Muted))
	s.accent = r.NewStyle().Foreground(termtext.Color(t.Accent)).Bold(true)
	s.err = r.NewStyle().Foreground(termtext.Color(t.Error)).Bold(true)
	s.bold = r.NewStyle().Bold(true)
	s.title = r.NewStyle().Foreground(termtext.Color(t.Accent)).Bold(true)
	s.selected = r.NewStyle().Reverse(true)
	s.dialog = r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(termtext.Color(t.Accent)).Padding(0, 1)
	return s
}
