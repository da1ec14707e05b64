package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/themes"
)

// styles are the theme's colours turned into lipgloss styles of one
// renderer (each SSH session has its own renderer and colour profile).
type styles struct {
	r       *lipgloss.Renderer
	theme   themes.Theme
	letters bool
	mono    bool

	text, muted, accent, err, bold, title, selected lipgloss.Style
	dialog                                          lipgloss.Style
	square                                          map[squareKey]cellCodes
}

// cellCodes are the escape sequences that open and close a board cell's
// style. The board is 8×8 squares of up to 4 lines redrawn on every frame;
// rendering each through lipgloss cost most of View's time (≈1 ms at
// 120×40), so each (background, foreground) pair is rendered once and its
// codes are reused.
type cellCodes struct{ open, close string }

func (c cellCodes) wrap(s string) string { return c.open + s + c.close }

type squareKey struct{ bg, fg themes.Color }

func newStyles(r *lipgloss.Renderer, t themes.Theme, letters bool) *styles {
	s := &styles{r: r, theme: t, letters: letters || t.Monochrome, mono: t.Monochrome,
		square: map[squareKey]cellCodes{}}
	ad := func(a themes.Adaptive) lipgloss.TerminalColor {
		if a.Light == "" && a.Dark == "" {
			return lipgloss.NoColor{}
		}
		return lipgloss.AdaptiveColor{Light: string(a.Light), Dark: string(a.Dark)}
	}
	s.text = r.NewStyle().Foreground(ad(t.Text))
	s.muted = r.NewStyle().Foreground(ad(t.Muted))
	s.accent = r.NewStyle().Foreground(ad(t.Accent)).Bold(true)
	s.err = r.NewStyle().Foreground(ad(t.Error)).Bold(true)
	s.bold = r.NewStyle().Bold(true)
	s.title = r.NewStyle().Foreground(ad(t.Accent)).Bold(true)
	s.selected = r.NewStyle().Reverse(true)
	s.dialog = r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(ad(t.Accent)).Padding(0, 1)
	return s
}

// sq returns the codes of a board cell with background bg and foreground
// fg, made once per pair by rendering a marker and splitting around it.
func (s *styles) sq(bg, fg themes.Color) cellCodes {
	k := squareKey{bg, fg}
	c, ok := s.square[k]
	if !ok {
		st := s.r.NewStyle().Bold(true)
		if bg != "" {
			st = st.Background(lipgloss.Color(bg))
		}
		if fg != "" {
			st = st.Foreground(lipgloss.Color(fg))
		}
		c = codesOf(st)
		s.square[k] = c
	}
	return c
}

// codesOf splits a style's rendering of a marker into the codes around it.
// Valid for styles without padding, margins, borders or width.
func codesOf(st lipgloss.Style) cellCodes {
	const marker = "X"
	r := st.Render(marker)
	i := strings.Index(r, marker)
	return cellCodes{open: r[:i], close: r[i+len(marker):]}
}
