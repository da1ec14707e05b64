package movelist

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/termtext"
)

// runToken is one move of the running text: its number (White's moves,
// and Black's at the start of a row) and its SAN with its mark.
type runToken struct {
	ply   int
	san   string
	cur   bool
	style lipgloss.Style
}

// text is the token as written at the start of a row (first) or after
// another move.
func (t runToken) text(first bool) string {
	if t.ply%2 == 0 || first {
		return Number(t.ply) + " " + t.san
	}
	return t.san
}

// Running draws the main line as running text ("1. e4 e5 2. Nf3 …")
// wrapped to width in at most height rows, for the narrow places (the
// rooms' panel, the game and spectator screens). When the moves need more
// rows, it shows the rows that hold the current move (the newest, unless
// Game.Current says otherwise), "…" leading where earlier rows are left
// out and ending where later ones are. A row that begins with Black's
// move numbers it ("23… Qd6"), so each row reads on its own. Comments and
// variations are left to Columns; Game.Tail follows the moves.
func (l *List) Running(st Styles, g Game, width, height int) []string {
	if height <= 0 {
		return nil
	}
	width = max(width, 1)
	cur := g.current()
	var toks []runToken
	ply := g.StartPly
	for n := g.Root.Next(); n != nil; n, ply = n.Next(), ply+1 {
		mark, style := g.mark(st, n)
		toks = append(toks, runToken{ply: ply, san: n.SAN + mark, cur: n == cur, style: style})
	}
	var tail []string
	if g.Tail != nil {
		tail = g.Tail(width)
	}
	if len(toks) == 0 && len(tail) == 0 {
		return []string{st.Muted.Render(termtext.Cut(g.empty(), width))}
	}
	if rows, _ := wrapRun(st, toks, width); len(rows)+len(tail) <= height {
		return append(rows, tail...)
	}
	// Too many rows: leave room for the marks of rows left out, before
	// and after, and wrap again; the tail gives way to the moves.
	rows, curRow := wrapRun(st, toks, max(width-4, 1))
	if cur == nil {
		curRow = 0 // the start position: the first moves
	}
	top := l.window(len(rows), curRow, height)
	shown := rows[top:min(top+height, len(rows))]
	out := make([]string, len(shown), height)
	copy(out, shown)
	if top > 0 {
		out[0] = st.Muted.Render("…") + " " + out[0]
	}
	if end := top + len(shown); end < len(rows) && lipgloss.Width(out[len(out)-1])+2 <= width {
		out[len(out)-1] += " " + st.Muted.Render("…")
	}
	for _, t := range tail {
		if len(out) == height {
			break
		}
		out = append(out, t)
	}
	return out
}

// wrapRun sets the tokens in rows of at most width cells, and says which
// row holds the current move (-1: none).
func wrapRun(st Styles, toks []runToken, width int) ([]string, int) {
	var rows []string
	var b strings.Builder
	lineW, curRow := 0, -1
	flush := func() {
		if lineW > 0 {
			rows = append(rows, b.String())
		}
		b.Reset()
		lineW = 0
	}
	for _, t := range toks {
		text := t.text(lineW == 0)
		if w := lipgloss.Width(text) + markWidth(t); lineW > 0 && lineW+1+w > width {
			flush()
			text = t.text(true)
		}
		if lineW > 0 {
			b.WriteByte(' ')
			lineW++
		}
		num, san := "", text
		if i := strings.LastIndexByte(text, ' '); i >= 0 {
			num, san = text[:i+1], text[i+1:]
		}
		if t.cur {
			san = san + "◂"
		}
		// A move wider than the row (a SAN with many marks in 3 cells)
		// is cut, never left to overflow.
		if room := width - lineW; lipgloss.Width(num+san) > room {
			num, san = "", termtext.Cut(san, room)
		}
		if num != "" {
			b.WriteString(st.Muted.Render(num))
		}
		if t.cur {
			b.WriteString(st.Selected.Render(san))
			curRow = len(rows)
		} else {
			b.WriteString(t.style.Render(san))
		}
		lineW += lipgloss.Width(num + san)
	}
	flush()
	return rows, curRow
}

// markWidth is the cells the current move's ◂ adds.
func markWidth(t runToken) int {
	if t.cur {
		return 1
	}
	return 0
}
