package view

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/boardview"
)

// EvalBarWidth is what the eval bar takes beside a board, in columns: a
// gap, the bar's two columns, and a gap of two before the panel.
const EvalBarWidth = 5

// PanelMins are, for each square size (boardview.Sizes, smallest first),
// the narrowest panel a screen keeps beside a board of that size: a bigger
// board is chosen only when its panel keeps room to breathe. Each screen
// has its own (the board's lines and the rooms' differ), which SquareSize
// takes.
type PanelMins [boardview.NumSizes]int

// SquareSize picks, as an index into boardview.Sizes, the largest square
// size whose board, eval bar and a panel of at least mins of that size fit
// in w columns, and whose board fits in h rows; the smallest when none
// does.
func SquareSize(w, h int, mins PanelMins) int {
	best := 0
	for i, sz := range boardview.Sizes() {
		if BoardFits(sz, mins[i], w, h) {
			best = i
		}
	}
	return best
}

// BoardFits reports whether a board of squares sz with the eval bar and a
// panel of panel columns beside it fits in w columns, and the board in h
// rows.
func BoardFits(sz boardview.Size, panel, w, h int) bool {
	return sz.Width()+EvalBarWidth+panel <= w && sz.Height() <= h
}

// Colourless reports whether a terminal, by its renderer's colour
// profile, cannot draw the board in colour: no colour, or only the 16 ANSI
// colours whose shades vary by terminal. It gets the monochrome theme
// (TerminalTheme), the board's and every SSH screen's alike.
func Colourless(r *lipgloss.Renderer) bool {
	p := r.ColorProfile()
	return p == termenv.Ascii || p == termenv.ANSI
}

// TerminalTheme is theme t as r's terminal can draw it: t, or the
// monochrome theme where the terminal is Colourless.
func TerminalTheme(r *lipgloss.Renderer, t themes.Theme) themes.Theme {
	if Colourless(r) {
		return themes.Monochrome()
	}
	return t
}
