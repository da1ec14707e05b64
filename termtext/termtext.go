// Package termtext is text for a terminal, used by every layer: the one
// sanitiser (Safe, SafeLine) that every text from outside passes through
// before it is drawn or printed — by the board, the SSH screens, the server's
// chat and the command line alike — and the two ways Squall fits text to a
// terminal's cells: lines cut to a width, counters written short. It sits at
// the top of the tree, beside the engine and the server, because the server
// and the command line need it as much as the screens do; it knows nothing of
// themes or styles (those are tui's).
package termtext

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"
)

// Cut shortens a line to at most w terminal cells, ending it with "…" when
// anything was cut. The line may hold ANSI styles; widths are counted in
// cells, so wide runes take two.
func Cut(s string, w int) string {
	if ansi.StringWidth(s) <= w {
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
