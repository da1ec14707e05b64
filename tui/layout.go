package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/tui/termtext"
)

// pad cuts or pads a styled line to exactly w cells.
func pad(s string, w int) string {
	s = termtext.Cut(s, w)
	if n := lipgloss.Width(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// besideRows sets two columns side by side in h rows: each left line
// padded to leftW cells, two spaces, the right line padded to rightW. The
// shorter column ends in blank cells, so every row has the same width.
func besideRows(left, right []string, leftW, rightW, h int) []string {
	rows := make([]string, 0, max(h, 0))
	for i := 0; i < h; i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		rows = append(rows, pad(l, leftW)+"  "+pad(r, rightW))
	}
	return rows
}
