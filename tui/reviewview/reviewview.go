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
	"github.com/squall-chess/squall/tui/evalgraph"
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
	// Ask, when set, has the review ask for its limits before it runs,
	// offering *Ask (Limits when it is zero), and keeps the choice in
	// *Ask for the next review: the board's review, whose depth or time
	// the user sets as `squall review` takes --depth or --movetime. A
	// server's review runs at once at the Limits it is given.
	Ask *engine.Limits
}

// EntryHelp is the board's "?" help of the review entry.
const EntryHelp = "game review (?!, ?, ?? and an eval graph): asks the depth or time per move first (enter keeps it); " +
	"J steps to the biggest eval swings, F to your mistakes to find the better move"

// Entry is the "r" entry of the board: review the main line of the game
// on the board, asking first for the limits (opt.Limits the first time,
// then the last ones chosen).
func Entry(opt Options) view.Entry {
	chosen := opt.Limits
	return view.Entry{Key: "r", Help: EntryHelp, New: func(env view.Env) view.View {
		o := opt
		o.Ask = &chosen
		return New(env, o)
	}}
}

// reviewView analyses every position of the game's main line in the
// background (review.Analyze through the engine seam), then shows the
// moves with their judgments, the eval graph (tui/evalgraph), the
// selected position and each side's totals. With Options.Ask it first asks
// for the limits (ask.go); once the report is built, F steps through the
// player's mistakes asking for a better move (learn.go).
type reviewView struct {
	env    view.Env
	st     *view.Styles
	opt    Options
	start  *chess.Position
	moves  []chess.Move
	sans   []string
	nodes  []*pgn.Node // the board's nodes of the line (ScoredMsg): the root, then each move's
	line   *pgn.Node   // the moves as the move list draws them
	list   movelist.List
	evals  []review.PositionEval // as they arrive
	report *review.Report
	err    error
	sel    int // ply shown: 0 is the start, i is after move i
	msg    string

	// asking is the limits' prompt before the analysis (nil once it runs).
	asking *askPrompt
	// learn is "find a better move" at one of the player's mistakes (nil
	// when not learning).
	learn *learning

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
		v.nodes = append(v.nodes, env.PGN.Root)
		for _, n := range env.PGN.Mainline() {
			v.moves = append(v.moves, n.Move)
			v.sans = append(v.sans, n.SAN)
			v.nodes = append(v.nodes, n)
		}
	}
	v.line = movelist.FromSANs(v.sans)
	if opt.Ask != nil {
		if !opt.Ask.IsZero() {
			v.opt.Limits = *opt.Ask
		}
		v.asking = newAskPrompt(v.opt.Limits)
	}
	return v
}

// Init starts the analysis, or asks for its limits first.
func (v *reviewView) Init() tea.Cmd {
	if v.env.Runner == nil {
		v.err = fmt.Errorf("no engine to review with")
		v.asking = nil
		return nil
	}
	if v.asking != nil {
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

// Close stops the analysis and a try's search.
func (v *reviewView) Close() {
	for _, s := range []*live.Search{v.run, v.learn.search()} {
		if s != nil {
			s.Stop()
			<-s.Done()
		}
	}
}

func (v *reviewView) Update(msg tea.Msg) (view.View, tea.Cmd) {
	switch msg := msg.(type) {
	case livecmd.Msg:
		if s := v.learn.search(); s != nil && msg.Gen == s.Gen {
			return v, v.learnBatch(msg)
		}
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
				return v, tea.Batch(v.scored(n, pe), v.next())
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

// scored tells the board the evaluation of the position after ply, a node
// of its tree (view.ScoredMsg); nil for a finished game, which has none
// to tell.
func (v *reviewView) scored(ply int, pe review.PositionEval) tea.Cmd {
	e, ok := review.PGNEval(pe)
	if !ok || ply >= len(v.nodes) {
		return nil
	}
	msg := view.ScoredMsg{Node: v.nodes[ply], Eval: e}
	return func() tea.Msg { return msg }
}

// points are the eval graph's: one per ply, those not analysed yet
// unknown.
func (v *reviewView) points() []evalgraph.Point {
	out := make([]evalgraph.Point, len(v.moves)+1)
	for i, pe := range v.evals {
		out[i] = evalgraph.FromReview(pe.Eval)
	}
	return out
}

func (v *reviewView) key(k tea.KeyMsg) tea.Cmd {
	if v.asking != nil {
		return v.askKey(k)
	}
	if v.learn != nil {
		return v.learnKey(k)
	}
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
	case "J": // the biggest swings of the eval, in turn
		if ply, ok := evalgraph.NextSwing(v.points(), v.sel); ok {
			v.sel = ply
			v.msg = ""
		} else {
			v.msg = "no swing of the eval yet"
		}
	case "F":
		v.startLearning()
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
	case v.asking != nil:
		status = v.asking.view(st)
	case v.err != nil:
		status = st.Err.Render(v.err.Error())
	case v.report == nil:
		status = st.Accent.Render(fmt.Sprintf("analysing %d/%d positions", len(v.evals), len(v.moves)+1))
	default:
		status = v.totals(width)
	}
	// Rows: title, status, the body, the graph's label, graphH rows of
	// bars and its axis, the message and the keys. The body keeps the 21
	// rows of the large board and the text under it (27 rows in all); the
	// graph takes the rest, from 3 rows of bars (100×30) to 8, an even
	// number above 3 so that its zero line is drawn.
	graphH := max(3, min(8, height-27))
	if graphH > 3 && graphH%2 == 1 {
		graphH--
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
	sc.Flipped = v.env.Flipped
	if v.sel > 0 {
		sc.Last = v.moves[v.sel-1]
	}
	// The engine's best move in the shown position, as lichess draws its
	// arrow (Moves[sel-1].Best, the better choice than the move that led
	// here, belongs to the position before and is in the text beside).
	if v.report != nil && v.sel < len(v.report.Positions) && v.learn.showsBest() {
		if best := v.report.Positions[v.sel].Best; best != chess.NullMove && pos.IsLegal(best) {
			sc.Hint = best
		}
	}
	right := strings.Split(st.Board.Board(sc, sz), "\n")
	right = append(right, "")
	boardW := sz.Width()
	msg := st.Muted.Render(v.msg)
	if v.learn != nil {
		// The question and the move box under the board, and the verdict
		// and the engine's line where they fit, else (at 100×30) on the
		// message line, the whole width.
		ask, told, said := v.learnText(boardW)
		if len(right)+len(ask)+len(told) > bodyH {
			right = right[:len(right)-1] // the blank row first
		}
		right = append(right, ask...)
		if len(right)+len(told) <= bodyH {
			right = append(right, told...)
		} else if said != "" {
			msg = said
		}
	} else {
		right = append(right, v.selectedText(boardW)...)
	}
	listW := width - boardW - 2
	left := v.moveList(listW, bodyH)
	lines := []string{view.Pad(head, width), view.Pad(status, width)}
	lines = append(lines, view.BesideRows(left, right, listW, boardW, bodyH)...)
	lines = append(lines, view.Pad(st.Muted.Render("Eval per ply (White's view, ±5)"), width))
	lines = append(lines, evalgraph.Render(st, v.points(), v.sel, width, graphH+1)...)
	lines = append(lines, view.Pad(msg, width))
	lines = append(lines, view.Pad(st.Muted.Render(v.keysHelp()), width))
	return strings.Join(lines, "\n")
}

// keysHelp is the keys' line for what the view is doing.
func (v *reviewView) keysHelp() string {
	switch {
	case v.asking != nil:
		return "enter starts the review · esc back"
	case v.learn != nil:
		return "type a move, enter tries it · F next mistake · esc stops learning"
	}
	return "←/→ move · n/p mistakes · J swings · F learn · home/end · s save · esc back"
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
