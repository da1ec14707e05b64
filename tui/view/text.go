package view

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/termtext"
)

// The smallest terminal the board and its views lay themselves out in.
const (
	MinWidth  = 80
	MinHeight = 24
)

// TooSmall is what every screen — the board, its views, the server's —
// shows in a w×h terminal smaller than the needW×needH it needs: what
// ("board") needs, and the key that still works ("q quits"; "" for none).
// Wrapped and centred, never cut (at 40 columns a one-line message was cut
// before the sizes), in at most h rows.
func TooSmall(what string, needW, needH, w, h int, key string) string {
	msg := fmt.Sprintf("Too small: the %s needs %d×%d, this is %d×%d. Enlarge the window", what, needW, needH, w, h)
	if key != "" {
		msg += ", or " + key
	}
	w = max(w, 1)
	lines := WrapWords(msg+".", w)
	for i, l := range lines {
		lines[i] = lipgloss.PlaceHorizontal(w, lipgloss.Center, l)
	}
	return strings.Join(lines[:min(len(lines), max(h, 1))], "\n")
}

// Pad cuts or pads a styled line to exactly w cells.
func Pad(s string, w int) string {
	s = termtext.Cut(s, w)
	if n := lipgloss.Width(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// BesideRows sets two columns side by side in h rows: each left line
// padded to leftW cells, two spaces, the right line padded to rightW. The
// shorter column ends in blank cells, so every row has the same width.
func BesideRows(left, right []string, leftW, rightW, h int) []string {
	rows := make([]string, 0, max(h, 0))
	for i := 0; i < h; i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		rows = append(rows, Pad(l, leftW)+"  "+Pad(r, rightW))
	}
	return rows
}

// SearchTitle is the first line of a view that searches positions one by
// one: its title, then the engine and the limits of each search.
func SearchTitle(st *Styles, title string, r *live.Runner, lim engine.Limits) string {
	name := "no engine"
	if r != nil {
		name = termtext.SafeLine(r.Analyzer().Name())
	}
	return st.Title.Render(title) + st.Muted.Render(fmt.Sprintf("  %s · %s", name, lim.String()))
}

// Seconds shows a duration as seconds with two decimals ("" for none).
func Seconds(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

// SANList writes moves, each legal in p, in SAN.
func SANList(p *chess.Position, ms []chess.Move) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, p.SAN(m))
	}
	return out
}

// PVSAN writes up to n moves of a line from p in SAN; an illegal move
// ends it.
func PVSAN(p *chess.Position, pv []chess.Move, n int) string {
	q := p.Clone()
	var u chess.Undo
	var out []string
	for i, m := range pv {
		if i == n || !q.IsLegal(m) {
			break
		}
		out = append(out, q.SAN(m))
		q.MakeMove(m, &u)
	}
	return strings.Join(out, " ")
}

// WrapWords breaks text into lines of at most w cells at spaces; a word
// longer than a line (a path, a URL) is broken where the line ends rather
// than left to overflow it.
func WrapWords(s string, w int) []string {
	w = max(w, 1)
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		for len([]rune(word)) > w {
			r := []rune(word)
			room := w
			if line != "" {
				room = w - len([]rune(line)) - 1
			}
			if room < min(8, w) { // too little left for a useful piece
				out = append(out, line)
				line, room = "", w
			}
			if line != "" {
				line += " "
			}
			out = append(out, line+string(r[:room]))
			line, word = "", string(r[room:])
		}
		if line != "" && len([]rune(line))+1+len([]rune(word)) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// Wrap is WrapWords for text of several paragraphs (lines): each is
// wrapped on its own.
func Wrap(s string, w int) []string {
	var out []string
	for _, p := range strings.Split(s, "\n") {
		out = append(out, WrapWords(p, w)...)
	}
	return out
}
