package serve

import (
	"strings"

	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// fitScreen lays a screen's lines out in its w×h terminal (issue 33, G12:
// lines were never cut or wrapped, and a small terminal got a cut screen
// with no word): below the screen's least size, minW×minH, it says so as
// the board does (view.TooSmall, naming what and the key that still
// works); otherwise every line is cut to the width and, where the screen
// made more lines than there are rows, the last ones before its final line
// (the help or the input line) give way. A size not known yet (0) draws
// the lines as they are.
func fitScreen(lines []string, w, h, minW, minH int, what, key string) string {
	var flat []string
	for _, l := range lines {
		flat = append(flat, strings.Split(l, "\n")...)
	}
	lines = flat
	if w <= 0 || h <= 0 {
		return strings.Join(lines, "\n")
	}
	if w < minW || h < minH {
		return view.TooSmall(what, minW, minH, w, h, key)
	}
	if len(lines) > h {
		lines = append(lines[:h-1:h-1], lines[len(lines)-1])
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = termtext.Cut(l, w)
	}
	return strings.Join(out, "\n")
}

// take is at most n of lines, the first ones.
func take(lines []string, n int) []string {
	return lines[:min(len(lines), max(n, 0))]
}

// last is at most n of lines, the last ones.
func last(lines []string, n int) []string {
	return lines[len(lines)-min(len(lines), max(n, 0)):]
}

// listWindow is the first of the rows of an n-item list shown in rows
// rows with item sel in view: the list scrolls only as far as the
// selection needs, and never past its end (the lobby's seeks, the games in
// progress, the rooms).
func listWindow(sel, n, rows int) int {
	return max(0, min(sel-rows+1, n-rows))
}

// quitKey is what q does on a screen: it quits the session, or, on a screen
// opened from the home screen, goes back there. Each screen's help and its
// "too small" line say which (the help said "q quit" where q went home).
type quitKey struct{ home bool }

// fromHome says the screen was opened from the home screen (the home
// screen calls it on the screens it opens).
func (q *quitKey) fromHome() { q.home = true }

// quitHelp is the key's entry in a help line.
func (q quitKey) quitHelp() string {
	if q.home {
		return "q home"
	}
	return "q quit"
}

// quitSentence is the key as the "too small" line says it.
func (q quitKey) quitSentence() string {
	if q.home {
		return "q goes home"
	}
	return "q quits"
}
