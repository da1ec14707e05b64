package gamelist

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// View draws the title (file, counts, reading progress), the header row
// with the sort column marked, the games, the status line and the keys.
// Every text from the file goes through termtext.SafeLine.
func (l *List) View(width, height int) string {
	const minW, minH = 40, 8
	if width < minW || height < minH {
		return view.TooSmall("game list", minW, minH, width, height, "esc goes back")
	}
	st := l.st
	lines := []string{view.Pad(termtext.Cut(l.title(), width), width)}
	numW := max(len(fmt.Sprint(len(l.rows))), 2) // room for "#▲"
	// With a position searched for, the move each game played next
	// follows its number.
	next := l.filter.Position != nil
	cols, widths := layout(width-map[bool]int{true: nextW + 1}[next], numW)
	var head []string
	for k, i := range cols {
		t := columns[i].title
		if i == l.sortBy {
			t += map[bool]string{false: "▲", true: "▼"}[l.desc]
		}
		head = append(head, cell(t, widths[k], i == 0))
		if k == 0 && next {
			head = append(head, cell("Next", nextW, false))
		}
	}
	lines = append(lines, st.Bold.Render(termtext.Cut(strings.Join(head, " "), width)))
	keys := view.WrapWords(help, width)
	if len(keys) > 2 {
		keys = keys[:2]
	}
	// Rows: title, header, games, then the filter, status and keys lines.
	l.h = max(height-2-2-len(keys), 1)
	if l.sel < l.top {
		l.top = l.sel
	}
	if l.sel >= l.top+l.h {
		l.top = l.sel - l.h + 1
	}
	l.top = max(0, min(l.top, len(l.shown)-l.h))
	for k := l.top; k < len(l.shown) && k < l.top+l.h; k++ {
		r := &l.rows[l.shown[k]]
		var cells []string
		for c, i := range cols {
			cells = append(cells, cell(termtext.SafeLine(columns[i].cell(l.names, r)), widths[c], columns[i].right))
			if c == 0 && next {
				cells = append(cells, cell(termtext.SafeLine(l.nextMove(r)), nextW, false))
			}
		}
		line := termtext.Cut(strings.Join(cells, " "), width)
		if k == l.sel {
			line = st.Selected.Render(view.Pad(line, width))
		}
		lines = append(lines, line)
	}
	if len(l.shown) == 0 {
		switch {
		case l.loading:
			lines = append(lines, st.Muted.Render("reading…"))
		case l.pos.running:
			lines = append(lines, st.Muted.Render("replaying the games for the position…"))
		case len(l.rows) > 0:
			lines = append(lines, st.Muted.Render("no game matches the filter (esc clears it)"))
		case l.err == nil:
			lines = append(lines, st.Muted.Render("the file holds no games"))
		}
	}
	for len(lines) < height-2-len(keys) {
		lines = append(lines, "")
	}
	lines = append(lines, view.Pad(l.filterLine(width), width))
	lines = append(lines, view.Pad(l.status(width), width))
	for _, k := range keys {
		lines = append(lines, view.Pad(st.Muted.Render(k), width))
	}
	return strings.Join(lines, "\n")
}

// title is the file's name and how many games it holds, of which the
// filter shows how many, and the reading's progress until it is done.
func (l *List) title() string {
	st := l.st
	s := st.Title.Render("Games") + " " + termtext.SafeLine(l.path) + " · "
	n := plural.Count(len(l.rows), "game")
	if l.query != "" {
		n = fmt.Sprintf("%d of %s", len(l.shown), n)
	}
	s += n
	if l.loading {
		pct := 0
		if l.size > 0 {
			pct = int(l.read * 100 / l.size)
		}
		s += st.Accent.Render(fmt.Sprintf(" · reading %d%%", pct))
	}
	if l.pos.running {
		pct := 0
		if l.pos.size > 0 {
			pct = int(l.pos.read * 100 / l.pos.size)
		}
		s += st.Accent.Render(fmt.Sprintf(" · position search %d%%", pct))
	}
	return s
}

// filterLine is the filter being typed, or the one applied.
func (l *List) filterLine(width int) string {
	switch {
	case l.typing:
		l.input.Width = max(10, width-len(l.input.Prompt)-2)
		return l.input.View()
	case l.query != "":
		return l.st.Muted.Render(termtext.Cut("filter: "+termtext.SafeLine(l.query)+" · / changes it, esc clears it", width))
	}
	return l.st.Muted.Render(termtext.Cut("/ filters: a player's name, or player= elo= eco= opening= event= year= result= fen=", width))
}

// status is the question being asked, else the error, else the message.
func (l *List) status(width int) string {
	st := l.st
	switch {
	case l.ask != nil:
		return st.Accent.Render(termtext.Cut(termtext.SafeLine(l.ask.text), width))
	case l.err != nil:
		return st.Err.Render(termtext.Cut(termtext.SafeLine(l.err.Error()), width))
	case l.busy:
		return st.Accent.Render("writing…")
	case l.indexing:
		return st.Accent.Render(termtext.Cut("indexing the games for the opening explorer (the board's Z panel)… the list stays usable", width))
	}
	return st.Muted.Render(termtext.Cut(termtext.SafeLine(l.msg), width))
}

// nextW is the width of the Next column ("exd8=Q+").
const nextW = 7

// cell fits s to w cells, on the right when right is set.
func cell(s string, w int, right bool) string {
	s = termtext.Cut(s, w)
	if right {
		pad := w - lipgloss.Width(s)
		if pad > 0 {
			return strings.Repeat(" ", pad) + s
		}
		return s
	}
	return view.Pad(s, w)
}
