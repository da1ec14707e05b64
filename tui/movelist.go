package tui

import (
	"fmt"
	"strings"
)

// moveList draws the line through the current move in two columns with
// move numbers, the current move highlighted, scrolled to keep it in view.
type moveList struct {
	top int // first row shown
}

// render draws at most height rows of width columns.
func (ml *moveList) render(st *styles, t *Tree, cur *Node, width, height int) []string {
	if height <= 0 {
		return nil
	}
	line := t.LineThrough(cur)
	ply := gamePly(t.Start)
	type row struct {
		num      int
		w, b     *Node
		hasWhite bool
	}
	var rows []row
	for _, n := range line {
		if ply%2 == 0 || len(rows) == 0 {
			rows = append(rows, row{num: ply/2 + 1})
		}
		r := &rows[len(rows)-1]
		if ply%2 == 0 {
			r.w, r.hasWhite = n, true
		} else {
			r.b = n
		}
		ply++
	}
	curRow := -1
	for i, r := range rows {
		if r.w == cur || r.b == cur {
			curRow = i
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
	// Columns as wide as the longest SAN ("(exd8=Q+)"), not half the panel:
	// the eye reads a move pair as one unit.
	colW := min(11, max(8, (width-6)/2))
	var out []string
	if len(rows) == 0 {
		out = append(out, st.muted.Render("no moves yet"))
	}
	for i := ml.top; i < len(rows) && len(out) < height; i++ {
		r := rows[i]
		cell := func(n *Node, dots bool) string {
			if n == nil {
				if dots {
					return pad("…", colW)
				}
				return strings.Repeat(" ", colW)
			}
			s := n.SAN + nagSymbol(n.NAGs)
			if len(n.Parent.Children) > 1 && n.Parent.Children[0] != n {
				s = "(" + s + ")"
			}
			txt := pad(s, colW)
			if n == cur {
				return st.selected.Render(txt)
			}
			return st.text.Render(txt)
		}
		out = append(out, st.muted.Render(fmt.Sprintf("%4d.", r.num))+" "+cell(r.w, !r.hasWhite)+cell(r.b, false))
	}
	return out
}
