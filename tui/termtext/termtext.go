// Package termtext formats the text around Squall's board for a terminal:
// lines cut to a width, engine counters written short, and the theme's text
// colours as lipgloss colours. The local board (package tui) and every SSH
// viewer (package tui/serve) draw their panels with it, so the two cannot
// drift apart in how they fit or write the same things. It also holds the one
// sanitiser (Safe, SafeLine) that every text from outside passes through
// before it is drawn or printed.
package termtext

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/themes"
)

// Cut shortens a line to at most w terminal cells, ending it with "…" when
// anything was cut. The line may hold ANSI styles; widths are counted in
// cells, so wide runes take two.
func Cut(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Count writes a counter (nodes, nodes per second) in few characters for a
// status line: exact below 10 000, then rounded to thousands (k), millions
// (M) or billions (G), with one decimal between 1M and 10M: 9999, 148k,
// 1.2M, 35M, 12G.
func Count(n uint64) string {
	switch {
	case n >= 10_000_000_000:
		return fmt.Sprintf("%.0fG", float64(n)/1e9)
	case n >= 10_000_000:
		return fmt.Sprintf("%.0fM", float64(n)/1e6)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// Color is a theme's text colour for lipgloss: its light or dark value by
// the terminal's background, or the terminal's own colour when the theme
// gives neither (the monochrome theme).
func Color(a themes.Adaptive) lipgloss.TerminalColor {
	if a.Light == "" && a.Dark == "" {
		return lipgloss.NoColor{}
	}
	return lipgloss.AdaptiveColor{Light: string(a.Light), Dark: string(a.Dark)}
}
