package tui

import (
	"fmt"
	"strings"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// moveList draws the game tree as lichess's analysis board does: the main
// line in two numbered columns; after a move, its comments and the
// variations that branch there, indented, as running text with nested
// variations in parentheses. The current move is marked with ◂ (▸ in a
// variation) and reverse video, so it shows without colour (NO_COLOR), and
// the list scrolls to keep it in view.
type moveList struct {
	top int // first row shown
}

// listRow is one row of the list; cur marks the row of the current move.
type listRow struct {
	text string
	cur  bool
}

// render draws at most height rows of width columns.
func (ml *moveList) render(st *view.Styles, t *Tree, cur *pgn.Node, width, height int) []string {
	if height <= 0 {
		return nil
	}
	rows := treeRows(st, t, cur, width)
	curRow := -1
	for i, r := range rows {
		if r.cur {
			curRow = i
			break
		}
	}
	if curRow >= 0 {
		if curRow < ml.top {
			ml.top = curRow
		}
		if curRow >= ml.top+height {
			ml.top = curRow - height + 1
		}
	}
	ml.top = max(0, min(ml.top, len(rows)-height))
	if len(rows) == 0 {
		return []string{st.Muted.Render("no moves yet")}
	}
	var out []string
	for i := ml.top; i < len(rows) && len(out) < height; i++ {
		out = append(out, rows[i].text)
	}
	return out
}

// treeRows lays out the whole tree in rows of width columns.
func treeRows(st *view.Styles, t *Tree, cur *pgn.Node, width int) []listRow {
	// Columns as wide as a long SAN with its marks ("exd8=Q+!?◂"), not
	// half the panel: the eye reads a move pair as one unit.
	colW := min(11, max(8, (width-6)/2))
	var rows []listRow
	ply := t.Start.GamePly()
	cell := func(n *pgn.Node) string {
		s := n.SAN + nagSymbol(n.NAGs)
		if n == cur {
			return st.Selected.Render(view.Pad(s+"◂", colW))
		}
		return st.Text.Render(view.Pad(s, colW))
	}
	num := func(p int) string { return st.Muted.Render(fmt.Sprintf("%4d.", p/2+1)) }
	blank := strings.Repeat(" ", colW)
	dots := st.Muted.Render(view.Pad("…", colW))
	// extras are the rows after a main-line move: its comments, then the
	// variations that are alternatives to it.
	extras := func(n *pgn.Node) []listRow {
		var out []listRow
		for _, c := range n.After {
			for _, l := range view.WrapWords(termtext.SafeLine(c), max(width-3, 10)) {
				out = append(out, listRow{text: "   " + st.Muted.Render(l)})
			}
		}
		if n == n.Parent.Children[0] {
			for _, alt := range n.Parent.Children[1:] {
				out = append(out, variationRows(st, alt, cur, t.Start.GamePly()+alt.Ply()-1, width)...)
			}
		}
		return out
	}
	if c := t.Root.After; len(c) > 0 {
		for _, l := range view.WrapWords(termtext.SafeLine(strings.Join(c, " ")), max(width, 10)) {
			rows = append(rows, listRow{text: st.Muted.Render(l)})
		}
	}
	n := next(t.Root)
	for n != nil {
		if ply%2 == 0 {
			white := n
			black := next(n)
			ex := extras(white)
			if len(ex) > 0 || black == nil {
				rows = append(rows, listRow{text: num(ply) + " " + cell(white) + blank, cur: white == cur})
				rows = append(rows, ex...)
				if black == nil {
					break
				}
				rows = append(rows, listRow{text: num(ply) + " " + dots + cell(black), cur: black == cur})
			} else {
				rows = append(rows, listRow{text: num(ply) + " " + cell(white) + cell(black), cur: white == cur || black == cur})
			}
			rows = append(rows, extras(black)...)
			n, ply = next(black), ply+2
			continue
		}
		// The game starts with Black to move.
		rows = append(rows, listRow{text: num(ply) + " " + dots + cell(n), cur: n == cur})
		rows = append(rows, extras(n)...)
		n, ply = next(n), ply+1
	}
	if t.partial != nil {
		// A game read only up to its first bad move says so where it
		// stops (issue 32, D3).
		for _, l := range view.WrapWords("⚠ the file's game stops here: "+termtext.SafeLine(t.partial.Error()), max(width, 10)) {
			rows = append(rows, listRow{text: st.Err.Render(l)})
		}
	}
	return rows
}

// next is the move that continues n's line, or nil.
func next(n *pgn.Node) *pgn.Node {
	if len(n.Children) == 0 {
		return nil
	}
	return n.Children[0]
}

// variationRows writes the variation that starts with node first (at ply,
// the ply of its position) as indented running text, nested variations in
// parentheses, wrapped to width.
func variationRows(st *view.Styles, first *pgn.Node, cur *pgn.Node, ply, width int) []listRow {
	type token struct {
		text string
		cur  bool
	}
	var toks []token
	var walk func(n *pgn.Node, ply int, open bool)
	walk = func(n *pgn.Node, ply int, open bool) {
		for i := 0; n != nil; i++ {
			s := n.SAN + nagSymbol(n.NAGs)
			switch {
			case ply%2 == 0:
				s = fmt.Sprintf("%d. %s", ply/2+1, s)
			case i == 0 || open:
				s = fmt.Sprintf("%d… %s", ply/2+1, s)
			}
			open = false
			toks = append(toks, token{s, n == cur})
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
					toks = append(toks, token{"(", false})
					walk(alt, ply, true)
					toks = append(toks, token{")", false})
				}
			}
			n, ply = next(n), ply+1
		}
	}
	walk(first, ply, true)
	// Wrap the tokens into rows after a two-space indent.
	const indent = "  "
	var rows []listRow
	var line strings.Builder
	lineW, hasCur, last := 0, false, ""
	flush := func() {
		if lineW > 0 {
			rows = append(rows, listRow{text: indent + line.String(), cur: hasCur})
		}
		line.Reset()
		lineW, hasCur, last = 0, false, ""
	}
	avail := max(width-len(indent), 10)
	for _, tk := range toks {
		w := len([]rune(tk.text)) + 1
		if lineW > 0 && lineW+w > avail {
			flush()
		}
		text := termtext.Cut(tk.text, avail)
		sep := ""
		if lineW > 0 && tk.text != ")" && last != "(" {
			sep = " "
		}
		last = tk.text
		switch {
		case tk.cur:
			line.WriteString(sep + st.Selected.Render("▸"+text))
			hasCur = true
		default:
			line.WriteString(sep + st.Muted.Render(text))
		}
		lineW += w
	}
	flush()
	return rows
}
