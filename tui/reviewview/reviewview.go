package reviewview

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/review"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// Options say how the review view analyses the game.
type Options struct {
	Limits engine.Limits // per position
	// SavePath is where "s" writes the annotated PGN; empty disables it.
	SavePath string
	// SaveNote is what "s" says where there is no file to write (a
	// server's review: the command that prints the game's PGN).
	SaveNote string
}

// Entry is the "r" entry of the board: review the main line of
// the game on the board.
func Entry(opt Options) view.Entry {
	return view.Entry{Key: "r", Help: "game review (?!, ?, ?? and an eval graph)", New: func(env view.Env) view.View {
		return New(env, opt)
	}}
}

// reviewView analyses every position of the game's main line in the
// background (review.Analyze through the engine seam), then shows the
// moves with their judgments, an eval graph of White's win% per ply, the
// selected position and each side's totals.
type reviewView struct {
	env    view.Env
	st     *view.Styles
	opt    Options
	start  *chess.Position
	moves  []chess.Move
	sans   []string
	line   *pgn.Node // the moves as the move list draws them
	list   movelist.List
	evals  []review.PositionEval // as they arrive
	report *review.Report
	err    error
	sel    int // ply shown: 0 is the start, i is after move i
	msg    string

	// run is the search of the next position to evaluate (evals holds
	// those before it), last its newest report of the best line.
	run  *live.Search
	last engine.Info
}

// New builds the review view of the main line of the board's
// game (env.PGN; none: nothing to review).
func New(env view.Env, opt Options) view.View {
	v := &reviewView{env: env, st: view.NewStyles(env.Renderer, env.Theme, false), opt: opt}
	v.start = chess.NewPosition()
	if env.PGN != nil {
		if p, err := env.PGN.StartPosition(); err == nil {
			v.start = p
		}
		for _, n := range env.PGN.Mainline() {
			v.moves = append(v.moves, n.Move)
			v.sans = append(v.sans, n.SAN)
		}
	}
	v.line = movelist.FromSANs(v.sans)
	return v
}

// Init starts the analysis.
func (v *reviewView) Init() tea.Cmd {
	if v.env.Runner == nil {
		v.err = fmt.Errorf("no engine to review with")
		return nil
	}
	return v.next()
}

// next evaluates the next position of the line: a finished game at once,
// any other by a search on the Runner, whose end comes to Update. After the
// last position it builds the report.
func (v *reviewView) next() tea.Cmd {
	for len(v.evals) <= len(v.moves) {
		g := engine.Game{Start: v.start, Moves: v.moves[:len(v.evals)]}
		p, err := g.Position()
		if err != nil {
			v.err = fmt.Errorf("review: position after %s: %w", plural.Count(len(v.evals), "ply"), err)
			return nil
		}
		if pe, over := review.Settled(p); over {
			v.evals = append(v.evals, pe)
			continue
		}
		first := len(v.evals) == 0
		v.last = engine.Info{}
		v.run = v.env.Start(live.Job{Game: g, Limits: v.opt.Limits, Setup: func(a engine.Analyzer) error {
			if first {
				return a.NewGame()
			}
			return nil
		}})
		return livecmd.Wait(v.run)
	}
	v.run = nil
	v.report, v.err = review.Build(v.start, v.moves, v.evals)
	return nil
}

// Close stops the analysis.
func (v *reviewView) Close() {
	if v.run != nil {
		v.run.Stop()
		<-v.run.Done()
	}
}

func (v *reviewView) Update(msg tea.Msg) (view.View, tea.Cmd) {
	switch msg := msg.(type) {
	case livecmd.Msg:
		if v.run == nil || msg.Gen != v.run.Gen {
			return v, nil
		}
		for _, in := range msg.Infos {
			if in.BestLine() {
				v.last = in
			}
		}
		if !msg.Done {
			return v, livecmd.Wait(v.run)
		}
		n := len(v.evals)
		err := msg.Err
		if err == nil {
			p, _ := engine.Game{Start: v.start, Moves: v.moves[:n]}.Position() // next made it once already
			var pe review.PositionEval
			if pe, err = review.FromSearch(p, msg.Result, v.last, v.env.Runner.Analyzer().Name()); err == nil {
				v.evals = append(v.evals, pe)
				return v, v.next()
			}
		}
		v.run = nil
		v.err = fmt.Errorf("review: position after %s: %w", plural.Count(n, "ply"), err)
		return v, nil
	case tea.KeyMsg:
		return v, v.key(msg)
	}
	return v, nil
}

func (v *reviewView) key(k tea.KeyMsg) tea.Cmd {
	n := len(v.moves)
	switch k.String() {
	case "esc", "q":
		v.Close()
		return view.Close
	case "left", "k", "h":
		v.sel = max(0, v.sel-1)
	case "right", "j", "l":
		v.sel = min(n, v.sel+1)
	case "up", "home":
		v.sel = 0
	case "down", "end":
		v.sel = n
	case "n": // next mistake
		if v.report != nil {
			if i := v.report.NextMistake(v.sel - 1); i >= 0 {
				v.sel = i + 1
			} else {
				v.msg = "no more mistakes"
			}
		}
	case "p": // previous mistake
		if v.report != nil {
			for i := v.sel - 2; i >= 0; i-- {
				if v.report.Moves[i].Judgment != review.Good {
					v.sel = i + 1
					break
				}
			}
		}
	case "s":
		v.msg = v.save()
	}
	return nil
}

// save writes the annotated game to SavePath.
func (v *reviewView) save() string {
	if v.opt.SavePath == "" && v.opt.SaveNote != "" {
		return v.opt.SaveNote
	}
	if v.report == nil || v.opt.SavePath == "" {
		return "nothing to save yet"
	}
	// The board's tags, result and start position, and only the main line:
	// the review's judgments and evals are the annotations.
	g := pgn.NewGame()
	if v.env.PGN != nil {
		h := *v.env.PGN // named by the board, ECO and Opening too
		h.Tags = slices.Clone(h.Tags)
		g = &h
	}
	g.Root = &pgn.Node{}
	n := g.Root
	for i, m := range v.moves {
		n = n.AddChild(m, v.sans[i])
	}
	if err := v.report.Annotate(g); err != nil {
		return "save: " + err.Error()
	}
	if err := pgn.WriteFile(v.opt.SavePath, []*pgn.Game{g}); err != nil {
		return "save: " + err.Error()
	}
	return "annotated game saved to " + v.opt.SavePath
}

// View draws the header, the move list beside the board, the eval graph
// and the help line.
func (v *reviewView) View(width, height int) string {
	if width < view.MinWidth || height < view.MinHeight {
		return view.TooSmall("review", view.MinWidth, view.MinHeight, width, height, "esc goes back")
	}
	st := v.st
	head := view.SearchTitle(st, "Game review", v.env.Runner, v.opt.Limits)
	status := ""
	switch {
	case v.err != nil:
		status = st.Err.Render(v.err.Error())
	case v.report == nil:
		status = st.Accent.Render(fmt.Sprintf("analysing %d/%d positions", len(v.evals), len(v.moves)+1))
	default:
		status = v.totals(width)
	}
	// Rows: title, status, the body, the graph's label, graphH rows and
	// its marker row, the message and the keys. The graph gives up a row
	// before the board shrinks.
	graphH := 4
	if height < 34 {
		graphH = 3
	}
	bodyH := height - 2 - (1 + graphH + 1) - 2
	// The large board when it leaves four rows for the eval and the
	// judgment under it.
	sz := boardview.Size{W: 3, H: 1}
	if bodyH >= 8*2+1+4 && width >= 2+8*5+40 {
		sz = boardview.Size{W: 5, H: 2}
	}
	pos := v.position(v.sel)
	sc := boardview.NewScene(pos)
	if v.sel > 0 {
		sc.Last = v.moves[v.sel-1]
	}
	// The engine's best move in the shown position, as lichess draws its
	// arrow (Moves[sel-1].Best, the better choice than the move that led
	// here, belongs to the position before and is in the text beside).
	if v.report != nil && v.sel < len(v.report.Positions) {
		if best := v.report.Positions[v.sel].Best; best != chess.NullMove && pos.IsLegal(best) {
			sc.Hint = best
		}
	}
	right := strings.Split(st.Board.Board(sc, sz), "\n")
	right = append(right, "")
	boardW := sz.Width()
	right = append(right, v.selectedText(boardW)...)
	listW := width - boardW - 2
	left := v.moveList(listW, bodyH)
	lines := []string{view.Pad(head, width), view.Pad(status, width)}
	lines = append(lines, view.BesideRows(left, right, listW, boardW, bodyH)...)
	lines = append(lines, view.Pad(st.Muted.Render("White's win% per ply"), width))
	lines = append(lines, v.graph(width, graphH)...)
	lines = append(lines, view.Pad(st.Muted.Render(v.msg), width))
	lines = append(lines, view.Pad(st.Muted.Render("←/→ h/l move · n/p next/previous mistake · home/end · s save PGN · esc back"), width))
	return strings.Join(lines, "\n")
}

func (v *reviewView) position(ply int) *chess.Position {
	p := v.start.Clone()
	var u chess.Undo
	for _, m := range v.moves[:ply] {
		p.MakeMove(m, &u)
	}
	return p
}

// totals are each side's counts, ACPL and accuracy (— for a side that
// made no move), in words where width allows and in short where it does
// not: at 80 columns the long form was cut ("accu…").
func (v *reviewView) totals(width int) string {
	var long, short []string
	for c, side := range []string{"White", "Black"} {
		p := v.report.Players[c]
		long = append(long, fmt.Sprintf("%s: %d?! %d? %d?? · ACPL %s · accuracy %s", side, p.Inaccuracies, p.Mistakes, p.Blunders, p.ACPLText(), p.AccuracyText()))
		short = append(short, fmt.Sprintf("%s %d?! %d? %d?? ACPL %s %s", side, p.Inaccuracies, p.Mistakes, p.Blunders, p.ACPLText(), p.AccuracyText()))
	}
	text := strings.Join(long, "   ")
	if lipgloss.Width(text) > width {
		text = strings.Join(short, "  ")
	}
	return v.st.Text.Render(text)
}

// selectedText describes the selected move: eval and the judgment's comment.
func (v *reviewView) selectedText(w int) []string {
	st := v.st
	if v.sel < len(v.evals) {
		e := v.evals[v.sel].Eval
		out := []string{st.Bold.Render(fmt.Sprintf("eval %s", e))}
		if v.report != nil && v.sel > 0 {
			mv := v.report.Moves[v.sel-1]
			if c := mv.Comment(); c != "" {
				for _, l := range view.WrapWords(mv.SAN+mv.Judgment.Symbol()+" "+c, w) {
					out = append(out, v.judgmentStyle(mv.Judgment).Render(l))
				}
			}
		}
		return out
	}
	return []string{st.Muted.Render("not analysed yet")}
}

func (v *reviewView) judgmentStyle(j review.Judgment) lipgloss.Style {
	switch j {
	case review.Blunder, review.Mistake:
		return v.st.Err
	case review.Inaccuracy:
		return v.st.Accent
	}
	return v.st.Text
}

// moveList is the game in two columns (tui/movelist's, as the board
// draws it), each move with its judgment's symbol in its colour, the
// selected move kept in view.
func (v *reviewView) moveList(w, h int) []string {
	st := v.st
	g := movelist.Game{Root: v.line, StartPly: v.start.GamePly(), Current: movelist.At(v.line, v.sel), Empty: "no moves to review"}
	g.Mark = func(n *pgn.Node) (string, lipgloss.Style) {
		i := n.Ply() - 1
		if v.report == nil || i >= len(v.report.Moves) {
			return "", st.Text
		}
		j := v.report.Moves[i].Judgment
		if j == review.Good {
			return j.Symbol(), st.Text
		}
		return j.Symbol(), v.judgmentStyle(j)
	}
	return v.list.Columns(movelist.Styles{Text: st.Text, Muted: st.Muted, Selected: st.Selected}, g, w, h)
}

// graph draws White's win% for each analysed position as bars rising from
// the bottom, one column per ply (squeezed when the game is longer than
// the width), the selected ply marked under it.
func (v *reviewView) graph(width, height int) []string {
	n := len(v.moves) + 1
	cols := min(width, n)
	levels := []rune(" ▁▂▃▄▅▆▇█")
	rows := make([][]string, height)
	mark := make([]rune, cols)
	for c := 0; c < cols; c++ {
		ply := c * n / cols
		mark[c] = ' '
		if ply <= v.sel && v.sel < (c+1)*n/cols {
			mark[c] = '▲'
		}
		for r := range rows {
			rows[r] = append(rows[r], " ")
		}
		if ply >= len(v.evals) {
			continue
		}
		win := review.WinPercent(v.evals[ply].Eval.Ceiled())
		units := int(win / 100 * float64(height*8))
		style := v.st.Text
		if win < 50 {
			style = v.st.Muted
		}
		for r := 0; r < height; r++ {
			fromBottom := height - 1 - r
			u := max(0, min(8, units-fromBottom*8))
			rows[r][c] = style.Render(string(levels[u]))
		}
	}
	out := make([]string, 0, height+1)
	for _, r := range rows {
		out = append(out, view.Pad(strings.Join(r, ""), width))
	}
	return append(out, view.Pad(v.st.Accent.Render(string(mark)), width))
}
