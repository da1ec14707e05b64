package movelist

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// row is one row of a list; cur marks the row of the current move.
type row struct {
	text string
	cur  bool
}

// Columns draws the game as lichess's analysis board does, in at most
// height rows of width cells: the main line in two numbered columns; after
// a move, its comments and the variations that branch there, indented, as
// running text with nested variations in parentheses; then Game.Tail. The
// current move is marked with ◂ (▸ in a variation) and reverse video, and
// the list scrolls to keep it in view.
func (l *List) Columns(st Styles, g Game, width, height int) []string {
	if height <= 0 {
		return nil
	}
	rows := columnRows(st, &g, width)
	if len(rows) == 0 {
		return []string{st.Muted.Render(termtext.Cut(g.empty(), max(width, 1)))}
	}
	cur := -1
	for i, r := range rows {
		if r.cur {
			cur = i
			break
		}
	}
	if g.current() == nil {
		cur = 0 // the start position: the top of the list
	}
	top := l.window(len(rows), cur, height)
	out := make([]string, 0, height)
	for i := top; i < len(rows) && len(out) < height; i++ {
		out = append(out, rows[i].text)
	}
	return out
}

// columnRows lays out the whole tree in rows of width cells.
func columnRows(st Styles, g *Game, width int) []row {
	cur := g.current()
	// Columns as wide as a long SAN with its marks ("exd8=Q+!?◂"), not
	// half the panel: the eye reads a move pair as one unit. Where even
	// two narrow columns do not fit (a panel of 20 cells), the numbers
	// take only the cells they need and the columns share the rest.
	numW := 4
	colW := min(11, max(8, (width-numW-2)/2))
	if numW+2+2*colW > width {
		numW = len(strconv.Itoa((g.StartPly+mainLength(g.Root))/2 + 1))
		colW = max((width-numW-2)/2, 1)
	}
	var rows []row
	cell := func(n *pgn.Node) string {
		mark, style := g.mark(st, n)
		s := n.SAN + mark
		if n == cur {
			return st.Selected.Render(view.Pad(s+"◂", colW))
		}
		return style.Render(view.Pad(s, colW))
	}
	num := func(p int) string {
		s := strconv.Itoa(p/2 + 1)
		return st.Muted.Render(strings.Repeat(" ", max(numW-len(s), 0)) + s + ".")
	}
	blank := strings.Repeat(" ", colW)
	dots := st.Muted.Render(view.Pad("…", colW))
	// extras are the rows after a main-line move: its comments, then the
	// variations that are alternatives to it.
	extras := func(n *pgn.Node) []row {
		var out []row
		for _, c := range n.After {
			for _, line := range view.WrapWords(termtext.SafeLine(c), max(width-3, 10)) {
				out = append(out, row{text: "   " + st.Muted.Render(line)})
			}
		}
		if n == n.Parent.Children[0] {
			for _, alt := range n.Parent.Children[1:] {
				out = append(out, variationRows(st, g, alt, cur, g.StartPly+alt.Ply()-1, width)...)
			}
		}
		return out
	}
	if c := g.Root.After; len(c) > 0 {
		for _, line := range view.WrapWords(termtext.SafeLine(strings.Join(c, " ")), max(width, 10)) {
			rows = append(rows, row{text: st.Muted.Render(line)})
		}
	}
	ply := g.StartPly
	n := g.Root.Next()
	for n != nil {
		if ply%2 == 0 {
			white := n
			black := white.Next()
			ex := extras(white)
			if len(ex) > 0 || black == nil {
				rows = append(rows, row{text: num(ply) + " " + cell(white) + blank, cur: white == cur})
				rows = append(rows, ex...)
				if black == nil {
					break
				}
				rows = append(rows, row{text: num(ply) + " " + dots + cell(black), cur: black == cur})
			} else {
				rows = append(rows, row{text: num(ply) + " " + cell(white) + cell(black), cur: white == cur || black == cur})
			}
			rows = append(rows, extras(black)...)
			n, ply = black.Next(), ply+2
			continue
		}
		// The game starts with Black to move.
		rows = append(rows, row{text: num(ply) + " " + dots + cell(n), cur: n == cur})
		rows = append(rows, extras(n)...)
		n, ply = n.Next(), ply+1
	}
	if g.Tail != nil {
		for _, t := range g.Tail(width) {
			rows = append(rows, row{text: t})
		}
	}
	return rows
}

// mainLength is the number of moves in root's main line.
func mainLength(root *pgn.Node) int {
	n := 0
	for c := root.Next(); c != nil; c = c.Next() {
		n++
	}
	return n
}

// variationRows writes the variation that starts with node first (at ply,
// the game ply of its position) as indented running text, nested
// variations in parentheses, wrapped to width.
func variationRows(st Styles, g *Game, first, cur *pgn.Node, ply, width int) []row {
	type token struct {
		text string
		cur  bool
	}
	var toks []token
	// A variation's parentheses are part of its first and last moves'
	// tokens, so that a row never begins with ")" or ends with "(".
	open := ""
	var walk func(n *pgn.Node, ply int, opened bool)
	walk = func(n *pgn.Node, ply int, opened bool) {
		for i := 0; n != nil; i++ {
			for _, c := range n.Before {
				// A comment before a variation's first move (the only
				// place a file can put one), as text before it.
				for _, w := range strings.Fields(termtext.SafeLine(c)) {
					toks = append(toks, token{open + w, false})
					open = ""
				}
			}
			mark, _ := g.mark(st, n)
			s := n.SAN + mark
			if ply%2 == 0 || i == 0 || opened {
				s = Number(ply) + " " + s
			}
			opened = false
			toks = append(toks, token{open + s, n == cur})
			open = ""
			for _, c := range n.After {
				// Comments read as text, as on the main line: the braces
				// are the file's syntax, not what a reader wants to see.
				for _, w := range strings.Fields(termtext.SafeLine(c)) {
					toks = append(toks, token{w, false})
				}
			}
			// Variations on this move: alternatives to it.
			if n.Parent != nil && n == n.Parent.Children[0] && i > 0 {
				for _, alt := range n.Parent.Children[1:] {
					open = "("
					walk(alt, ply, true)
					toks[len(toks)-1].text += ")"
				}
			}
			n, ply = n.Next(), ply+1
		}
	}
	walk(first, ply, true)
	// Wrap the tokens into rows after a two-space indent.
	const indent = "  "
	var rows []row
	var line strings.Builder
	lineW, hasCur := 0, false
	flush := func() {
		if lineW > 0 {
			rows = append(rows, row{text: indent + line.String(), cur: hasCur})
		}
		line.Reset()
		lineW, hasCur = 0, false
	}
	avail := max(width-len(indent), 1)
	for _, tk := range toks {
		text := tk.text
		if tk.cur {
			text = "▸" + text
		}
		w := lipgloss.Width(text)
		if lineW > 0 && lineW+1+w > avail {
			flush()
		}
		if lineW > 0 {
			line.WriteByte(' ')
			lineW++
		}
		text = termtext.Cut(text, avail-lineW)
		if tk.cur {
			line.WriteString(st.Selected.Render(text))
			hasCur = true
		} else {
			line.WriteString(st.Muted.Render(text))
		}
		lineW += lipgloss.Width(text)
	}
	flush()
	return rows
}
