package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/referee"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// compactWidth and compactHeight are the smallest terminal the board is
// drawn in at all: narrower than view.MinWidth (a 60-column split) it is drawn
// compact, in its smallest squares with a narrow panel beside it.
const (
	compactWidth  = 55
	compactHeight = 12
	compactPanel  = 24
)

// bottomLines are the rows under the board: status, input, help.
const bottomLines = 3

// minPanel is the narrowest side panel for each square size: bigger boards
// are chosen only when the analysis keeps room to breathe. 36 columns still
// hold a score and four moves of a PV, so a 100×30 terminal gets the 7×3
// board rather than a small one over ten empty rows.
var minPanel = view.PanelMins{30, 33, 36, 50}

// geometry chooses the square size for the window and places the board.
func (m *Model) geometry() (boardGeom, bool) {
	if m.width < compactWidth || m.height < compactHeight {
		return boardGeom{}, false
	}
	if m.width < view.MinWidth || m.height < view.MinHeight {
		// Compact: the smallest squares, if a narrow panel fits beside.
		sz := boardview.Sizes()[0]
		if !view.BoardFits(sz, compactPanel, m.width, m.height-bottomLines) {
			return boardGeom{}, false
		}
		return boardGeom{w: sz.W, h: sz.H, x0: rankLabelWidth, y0: 0}, true
	}
	best := 0 // small
	switch p := minPanel[0]; m.opt.Board {
	case "large":
		best = view.SquareSize(m.width, m.height-bottomLines, view.PanelMins{p, p, p, p})
	case "small":
	default:
		best = view.SquareSize(m.width, m.height-bottomLines, minPanel)
	}
	return boardGeom{w: squareSizes[best][0], h: squareSizes[best][1], x0: rankLabelWidth, y0: 0}, true
}

// View draws the screen.
func (m Model) View() string {
	if len(m.views) > 0 {
		return m.views[len(m.views)-1].View(m.width, m.height)
	}
	g, ok := m.geometry()
	if !ok {
		return view.TooSmall("board", compactWidth, compactHeight, m.width, m.height, "q quits")
	}
	bodyH := m.height - bottomLines
	var body string
	if d, isHelp := m.dialog.(*helpDialog); isHelp {
		body = m.fullHelp(d, bodyH)
	} else {
		body = m.mainView(g, bodyH)
	}
	return body + "\n" + m.statusLine() + "\n" + m.inputLine() + "\n" + m.helpLine()
}

// mainView is the board, eval bar and side panel, bodyH rows high.
func (m *Model) mainView(g boardGeom, bodyH int) string {
	scene := boardScene{pos: m.pos, targets: m.targets(), marks: m.cur.Marks()}
	if m.cur.Parent != nil {
		scene.last = m.cur.Move
	}
	if b := m.panel.best(); b != nil && m.analysisOn && len(b.info.PV) > 0 {
		scene.best = b.info.PV[0] // the best move on the board, as lichess draws its arrow
	}
	if d, ok := m.dialog.(*setupDialog); ok {
		scene = boardScene{placement: &d.s.Board} // the board being set up
	}
	boardLines := strings.Split(m.board.render(m.st, g, scene), "\n")
	boardLines[len(boardLines)-1] = view.Pad(boardLines[len(boardLines)-1], rankLabelWidth+8*g.w)
	boardLines = append(boardLines, m.evalGraph(rankLabelWidth+8*g.w, bodyH-len(boardLines))...)
	boardLines = append(boardLines, m.gameHeader(rankLabelWidth+8*g.w, bodyH-len(boardLines))...)
	bar := renderEvalBar(m.st, 8*g.h, m.whiteChances(), m.board.flipped)
	boardW := rankLabelWidth + 8*g.w
	rightW := m.width - boardW - view.EvalBarWidth
	right := m.sidePanel(rightW, bodyH)
	var b strings.Builder
	for y := 0; y < bodyH; y++ {
		left := strings.Repeat(" ", boardW)
		if y < len(boardLines) {
			left = boardLines[y] // each boardW cells
		}
		b.WriteString(left)
		b.WriteString(" ")
		if y < len(bar) {
			b.WriteString(bar[y] + bar[y])
		} else {
			b.WriteString("  ")
		}
		b.WriteString("  ")
		if y < len(right) {
			b.WriteString(view.Pad(right[y], rightW))
		} else {
			b.WriteString(strings.Repeat(" ", rightW))
		}
		if y < bodyH-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// whiteChances is the eval bar's fill from the best line, or from the
// file's evaluation where there is none.
func (m *Model) whiteChances() float64 {
	if b := m.panel.best(); b != nil {
		return boardview.BarChances(m.pos, &b.info.Score)
	}
	if r := m.fileEval(); r != nil {
		return boardview.BarChances(m.pos, &r.Score)
	}
	return boardview.BarChances(m.pos, nil)
}

// sidePanel is players and clocks, analysis and the move list — or the open
// dialog.
func (m *Model) sidePanel(w, h int) []string {
	if m.dialog != nil {
		return strings.Split(m.dialog.view(m.st, w), "\n")
	}
	var out []string
	clocks, hasClocks := m.boardClocks(m.opt.Now())
	for _, c := range []chess.Color{chess.Black, chess.White} {
		if m.board.flipped {
			c = c.Other()
		}
		marker := "  "
		if m.pos.SideToMove() == c && !m.over {
			marker = m.st.Accent.Render("▶ ")
		}
		name := termtext.SafeLine(m.tree.Tag(c.Name()))
		if name == "" || name == "?" {
			name = c.Name()
		}
		line := marker + m.st.Bold.Render(termtext.Cut(name, 20))
		if name != c.Name() {
			line += m.st.Muted.Render(" · " + c.Name())
		}
		if hasClocks {
			st := m.st.Text
			switch {
			case clocks[c].running:
				st = m.st.Accent
			case clocks[c].recorded:
				st = m.st.Muted
			}
			line = view.Pad(line, w-9) + st.Render(fmt.Sprintf("%9s", clocks[c].text))
		}
		out = append(out, line)
	}
	out = append(out, m.know.lines(m.st, w)...)
	out = append(out, m.explorer.lines(m.st, w)...)
	out = append(out, "")
	n := 0
	if k := m.search.kind(); m.analysisOn || k != 0 {
		n = m.multiPV
		if k != 0 && k != searchAnalysis {
			n = 1
		}
	}
	out = append(out, m.analysisPanels(w, n)...)
	out = append(out, m.comment(w, 3)...)
	out = append(out, m.alternatives()...)
	out = append(out, m.st.Muted.Render(strings.Repeat("─", w)))
	rest := h - len(out)
	out = append(out, m.moveList(w, rest)...)
	return out
}

// comment is the shown move's PGN comments, wrapped into at most h lines
// of w cells (the last one cut short when there is more).
func (m *Model) comment(w, h int) []string {
	if m.cur.Parent == nil {
		return nil // the comment before the first move heads the move list
	}
	text := termtext.SafeLine(strings.Join(append(append([]string(nil), m.cur.Before...), m.cur.After...), " "))
	if text == "" {
		return nil
	}
	lines := view.WrapWords(text, w)
	if len(lines) > h {
		lines = lines[:h]
		lines[h-1] = termtext.Cut(lines[h-1]+" …", w)
	}
	for i := range lines {
		lines[i] = m.st.Text.Italic(true).Render(lines[i])
	}
	return lines
}

// alternatives is the line naming the moves played in the shown move's
// place (variations of a game read from a file, or made in analysis), the
// shown one highlighted; nil when there are none.
func (m *Model) alternatives() []string {
	p := m.cur.Parent
	if p == nil || len(p.Children) < 2 {
		return nil
	}
	num := movelist.Number(m.tree.Start.GamePly() + m.cur.Ply() - 1) // as the move list writes it
	line := m.st.Muted.Render("here: " + num)
	for _, c := range p.Children {
		s := c.SAN + movelist.NAGSymbol(c.NAGs)
		if c == m.cur {
			line += " " + m.st.Selected.Render(s)
		} else {
			line += " " + m.st.Text.Render(s)
		}
	}
	return []string{line + m.st.Muted.Render(" · [/] switch")}
}

// statusLine shows the side to move, check, the result.
func (m *Model) statusLine() string {
	var s string
	switch {
	case m.over:
		s = m.st.Err.Render(m.banner + "  " + m.result)
	default:
		if r, over := referee.Judge(m.pos); over {
			s = m.st.Err.Render(judgedText(r))
			break
		}
		s = m.st.Bold.Render(m.pos.SideToMove().Name() + " to move")
		if m.pos.InCheck() {
			s += m.st.Err.Render(" · check")
		}
	}
	if cs, ok := m.boardClocks(m.opt.Now()); ok {
		s += m.st.Text.Render("  ·  " + m.clocksText(cs))
	}
	info := m.mode.String()
	if m.mode == VsEngine || m.mode == Watch {
		info += " · level " + Levels[m.level].Name // always: a level changes only when chosen
	}
	if m.clock.Enabled() && m.mode != Analysis {
		info += " · " + m.clock.TimeControl().String()
	}
	if !onMainLine(m.cur) {
		info += " · variation"
	} else if m.mode == Analysis && m.tree.Result != "*" && len(m.cur.Children) == 0 && m.cur.Parent != nil {
		info += " · game ended " + m.tree.Result // a game opened from a file
	}
	return view.Pad(s+m.st.Muted.Render("  ·  "+info), m.width)
}

// inputLine is the move input, or the last message.
func (m *Model) inputLine() string {
	msg := ""
	if m.message != "" {
		st := m.st.Muted
		if m.msgIsErr {
			st = m.st.Err
		}
		msg = st.Render(m.message)
	}
	if m.focus == focusInput {
		input := m.input
		if m.over {
			input.Placeholder = "game over · esc, then n new game, s save"
		}
		in := input.View()
		if msg != "" {
			in = view.Pad(in, 30) + "  " + msg
		}
		return view.Pad(in, m.width)
	}
	if msg == "" {
		msg = m.st.Muted.Render("board keys · tab to type a move")
	}
	return view.Pad(msg, m.width)
}

func (m *Model) helpLine() string {
	switch m.dialog.(type) {
	case nil:
	case *helpDialog:
		if len(m.helpLines()) > m.height-bottomLines {
			return view.Pad(m.st.Muted.Render("↓↑ pgdn/pgup scroll · any other key closes the help"), m.width)
		}
		return view.Pad(m.st.Muted.Render("any key closes the help"), m.width)
	default:
		// The dialog shows its own keys; the board's would mislead.
		return view.Pad(m.st.Muted.Render("esc closes the dialog • ctrl+c quit"), m.width)
	}
	if m.focus == focusInput {
		h := inputHelp{k: m.keys}
		if _, b, ok := m.pendingCommand(); ok {
			h.command = &b
		}
		return view.Pad(m.help.ShortHelpView(h.ShortHelp()), m.width)
	}
	return view.Pad(m.help.ShortHelpView(boardHelp{k: m.keys}.ShortHelp()), m.width)
}

// fullHelp is the "?" overlay, h rows from d's first line: the key
// groups laid out in as many rows of columns as the width needs, then the
// notes, wrapped to the width.
func (m *Model) fullHelp(d *helpDialog, h int) string {
	lines := m.helpLines()
	top := min(d.top, max(0, len(lines)-h))
	lines = lines[top:]
	if len(lines) > h {
		lines = lines[:h]
		lines[h-1] = m.st.Muted.Render(fmt.Sprintf("↓ more (%d of %d lines)", top+h-1, len(m.helpLines())))
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i := range lines {
		lines[i] = view.Pad(lines[i], m.width)
	}
	return strings.Join(lines, "\n")
}

// helpLines are the whole "?" overlay, line by line, for the width.
func (m *Model) helpLines() []string {
	hm := m.help
	hm.ShowAll = true
	hm.Width = 0
	groups := boardHelp{k: m.keys, book: m.opt.Book != nil}.FullHelp()
	var blocks []string
	for len(groups) > 0 {
		n := len(groups)
		for n > 1 && lipgloss.Width(hm.FullHelpView(groups[:n])) > m.width {
			n--
		}
		blocks = append(blocks, hm.FullHelpView(groups[:n]))
		groups = groups[n:]
	}
	// Paragraphs, each wrapped to the width.
	notes := []string{
		"Move input: type SAN or UCI (tab completes, again for the next move), enter plays; a piece letter may be lower case (nf3; b is the b-file). With the input empty, arrows move through the game; esc switches to board keys.",
		"A letter that begins no legal move here is a board key and runs at once; one that begins a move (a for a3) is typed, and enter on it alone runs its board key. A pasted FEN or game is offered for loading.",
		"Board keys: enter shows a cursor (arrows/hjkl; space/enter pick, drop). Mouse: click a piece, then its destination.",
		"Annotating: ; comments the shown move (at the start, the game), ! gives it a glyph (type it: !? += ~ …), A draws an arrow (e2e4) or marks a square (d4) on the board after it, a colour letter G R Y B first or last (the same again takes it off; with the cursor shown, A starts at its square); all are saved in the PGN, the marks as lichess writes them ([%cal], [%csl]). In analysis, x deletes the variation the move is in, X the moves after it, P promotes the variation, M makes it the main line, u deletes the move; ctrl+z undoes each change, one at a time, and ctrl+y redoes it.",
		"Quitting, resigning, or leaving unsaved analysis asks first; ctrl+c twice always quits (the game is in the autosave, the analysis offered back at the next start).",
	}
	if m.opt.Book != nil {
		notes = append(notes, "Book: moves with their weights; b picks one, B marks it always (✓), never (✗) or neither, in the book's learning file. In games the engine plays from the book, and each result teaches it which lines to prefer.")
	}
	notes = append(notes, "Explorer: while the board's PGN file has its explorer index beside it (x in the game list, G, or squall explore FILE builds it), a panel lists the moves its games played from the shown position, with their games and White/draw/Black shares; Z hides or shows it. Y opens the game list of the file filtered to the games that reach the shown position (any move order), each with the move it played next.")
	if m.opt.Tablebase != nil {
		notes = append(notes, "TB: the tablebase result for the side to move; DTZ counts plies to a capture or pawn move.")
	}
	for _, v := range m.opt.Views {
		notes = append(notes, v.Key+": "+v.Help)
	}
	body := m.st.Title.Render("Keys") + "\n\n" + strings.Join(blocks, "\n\n") + "\n"
	out := strings.Split(body, "\n")
	for _, n := range notes {
		for _, l := range view.WrapWords(n, max(20, m.width-1)) {
			out = append(out, m.st.Muted.Render(l))
		}
	}
	return out
}

// gameHeader is what a game opened from a file says about itself, for the
// rows under the board: event, round, site, date and result, and the
// file's own Opening tag when it has one. A game played on the board has
// none of it to say. Empty when fewer than two rows are free.
func (m *Model) gameHeader(w, free int) []string {
	if free < 2 || m.tree.source == nil {
		return nil
	}
	tag := func(n string) string {
		v := termtext.SafeLine(m.tree.Tag(n))
		if strings.Trim(v, "?.") == "" {
			return ""
		}
		return v
	}
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " · ")
	}
	round := tag("Round")
	if round != "" {
		round = "round " + round
	}
	lines := []string{"", m.st.Bold.Render(termtext.Cut(join(tag("Event"), round), w))}
	if l := join(tag("Site"), tag("Date"), m.tree.Result); l != "" {
		lines = append(lines, m.st.Muted.Render(termtext.Cut(l, w)))
	}
	if o := join(tag("ECO"), tag("Opening"), tag("Variation")); tag("Opening") != "" {
		lines = append(lines, m.st.Muted.Render(termtext.Cut(o, w)))
	}
	lines = lines[:min(len(lines), free)]
	for i, l := range lines {
		lines[i] = view.Pad(l, w)
	}
	return lines
}
