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

// oneLine makes free text (an error, a comment, a file's tag) safe for a
// single screen line: line breaks, tabs and other control characters, whose
// width the terminal decides, become spaces, and runs of spaces one.
func oneLine(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }), " ")
}
