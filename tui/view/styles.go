package view

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/analysisview"
	"github.com/squall-chess/squall/tui/boardview"
)

// Styles are a theme's text styles and board painter, as the board and its
// views draw with them.
type Styles struct {
	Theme themes.Theme
	Board *boardview.Painter

	Text, Muted, Accent, Err, Bold, Title, Selected lipgloss.Style
	Dialog                                          lipgloss.Style
}

// NewStyles makes the styles of theme t for renderer r; letters draws the
// pieces as letters instead of glyphs.
func NewStyles(r *lipgloss.Renderer, t themes.Theme, letters bool) *Styles {
	pieces := boardview.Glyphs
	if letters {
		pieces = boardview.Letters
	}
	s := &Styles{Theme: t, Board: boardview.New(r, t, pieces)}
	s.Text = r.NewStyle().Foreground(boardview.Color(t.Text))
	s.Muted = r.NewStyle().Foreground(boardview.Color(t.Muted))
	s.Accent = r.NewStyle().Foreground(boardview.Color(t.Accent)).Bold(true)
	s.Err = r.NewStyle().Foreground(boardview.Color(t.Error)).Bold(true)
	s.Bold = r.NewStyle().Bold(true)
	s.Title = r.NewStyle().Foreground(boardview.Color(t.Accent)).Bold(true)
	s.Selected = r.NewStyle().Reverse(true)
	s.Dialog = r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(boardview.Color(t.Accent)).Padding(0, 1)
	return s
}

// Analysis are the analysis panel's styles (analysisview) in this kit, as
// the board and the SSH screens draw it.
func (s *Styles) Analysis() analysisview.Styles {
	return analysisview.Styles{Title: s.Title, Muted: s.Muted, Score: s.Accent, Text: s.Text, Warn: s.Err}
}
