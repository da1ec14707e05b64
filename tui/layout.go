package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// cut truncates a styled line to w cells.
func cut(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// pad cuts or pads a styled line to exactly w cells.
func pad(s string, w int) string {
	s = cut(s, w)
	if n := lipgloss.Width(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
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
