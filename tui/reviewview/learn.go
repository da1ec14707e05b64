package reviewview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/review"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// learning is lichess's "learn from your mistakes": F steps to each of the
// player's mistakes and blunders in turn (the position before it shown)
// and asks for a better move. A try is judged as the review judges the
// moves played (review.Judge, against the evaluation of the position
// before it, which is the engine's best): as good as the best when the
// review would not call it even an inaccuracy. Its position is searched at
// the review's limits, and after a try the engine's line is shown.
type learning struct {
	moves []int // indexes in Report.Moves of the mistakes to learn from
	at    int   // which of them is shown
	in    textinput.Model
	// tried says a try has been judged: verdict says how, good whether it
	// was as good as the best, and the engine's line is shown.
	tried   bool
	good    bool
	verdict string
	// run is the search of the position a try leads to (try), last its
	// newest report of the best line.
	run  *live.Search
	last engine.Info
	try  chess.Move
}

// search is the try's search running (nil for none, or not learning).
func (l *learning) search() *live.Search {
	if l == nil {
		return nil
	}
	return l.run
}

// showsBest reports whether the engine's best move may be drawn on the
// board: not while the user is asked to find it.
func (l *learning) showsBest() bool { return l == nil || l.tried }

// mistake is the report's move being learnt from.
func (v *reviewView) mistake() *review.Move { return &v.report.Moves[v.learn.moves[v.learn.at]] }

// learnable are the indexes in Report.Moves of the mistakes and blunders
// of the player (Env.Player; both sides when nil), in the game's order.
func (v *reviewView) learnable() []int {
	var out []int
	for i, mv := range v.report.Moves {
		if (mv.Judgment == review.Mistake || mv.Judgment == review.Blunder) && mv.Best != chess.NullMove &&
			(v.env.Player == nil || *v.env.Player == mv.Color) {
			out = append(out, i)
		}
	}
	return out
}

// startLearning shows the player's first mistake, or says why there is
// none.
func (v *reviewView) startLearning() {
	if v.report == nil {
		v.msg = "the review is still running"
		return
	}
	moves := v.learnable()
	if len(moves) == 0 {
		whose := "either side"
		if v.env.Player != nil {
			whose = v.env.Player.Name()
		}
		v.msg = "no mistakes or blunders of " + whose + " to learn from"
		return
	}
	in := textinput.New()
	in.Prompt = "move> "
	in.Placeholder = "SAN or UCI"
	in.CharLimit = 12
	in.Width = 16
	in.Cursor.SetMode(cursor.CursorStatic) // no blink: no tick outlives the prompt
	in.Focus()
	v.learn = &learning{moves: moves, in: in}
	v.showMistake(0)
}

// showMistake shows mistake at (of learn.moves) and asks again.
func (v *reviewView) showMistake(at int) {
	l := v.learn
	v.stopTry()
	l.at, l.tried, l.good, l.verdict = at, false, false, ""
	l.in.SetValue("")
	v.sel = v.mistake().Ply - 1
	v.msg = ""
}

// stopTry stops the try's search, if one runs.
func (v *reviewView) stopTry() {
	if s := v.learn.search(); s != nil {
		s.Stop()
		v.learn.run = nil // its last batch is dropped
	}
}

// learnKey: enter tries the move typed, F goes to the next mistake (round
// again after the last), esc stops learning; the rest edits the move.
func (v *reviewView) learnKey(k tea.KeyMsg) tea.Cmd {
	l := v.learn
	switch k.String() {
	case "esc":
		v.stopTry()
		v.learn = nil
		v.msg = ""
		return nil
	case "F":
		v.showMistake((l.at + 1) % len(l.moves))
		if l.at == 0 && len(l.moves) > 1 {
			v.msg = "back to the first mistake"
		}
		return nil
	case "enter":
		return v.tryMove(strings.TrimSpace(l.in.Value()))
	}
	var cmd tea.Cmd
	l.in, cmd = l.in.Update(k)
	return cmd
}

// tryMove judges the move text: the engine's best at once, any other once
// the position it leads to is searched (learnBatch).
func (v *reviewView) tryMove(text string) tea.Cmd {
	l, mv := v.learn, v.mistake()
	if text == "" || l.run != nil {
		return nil
	}
	ply := mv.Ply - 1
	p := v.position(ply)
	m, err := p.ParseTyped(text)
	l.in.SetValue("") // as the board's move box, cleared for the next try
	if err != nil {
		l.verdict, l.good = fmt.Sprintf("%s is not a legal move here", termtext.Cut(termtext.SafeLine(text), 12)), false
		return nil
	}
	san := p.SAN(m)
	switch m {
	case mv.Move:
		l.verdict, l.good = san+" is the move played: find a better one", false
		return nil
	case mv.Best:
		l.tried, l.good, l.verdict = true, true, "✓ "+san+" is the engine's best move"
		return nil
	}
	l.try = m
	moves := append(slices.Clone(v.moves[:ply]), m)
	g := engine.Game{Start: v.start, Moves: moves}
	after, _ := g.Position() // m is legal in p
	if pe, over := review.Settled(after); over {
		v.judgeTry(pe)
		return nil
	}
	l.verdict, l.last = "thinking about "+san+" …", engine.Info{}
	l.run = v.env.Start(live.Job{Game: g, Limits: v.opt.Limits})
	return livecmd.Wait(l.run)
}

// learnBatch takes the reports of the try's search; at its end it judges
// the try.
func (v *reviewView) learnBatch(msg livecmd.Msg) tea.Cmd {
	l := v.learn
	for _, in := range msg.Infos {
		if in.BestLine() {
			l.last = in
		}
	}
	if !msg.Done {
		return livecmd.Wait(l.run)
	}
	l.run = nil
	err := msg.Err
	if err == nil {
		after, _ := engine.Game{Start: v.start, Moves: append(slices.Clone(v.moves[:v.mistake().Ply-1]), l.try)}.Position()
		var pe review.PositionEval
		if pe, err = review.FromSearch(after, msg.Result, l.last, v.env.Runner.Analyzer().Name()); err == nil {
			v.judgeTry(pe)
			return nil
		}
	}
	l.verdict, l.good = "engine: "+termtext.SafeLine(err.Error()), false
	return nil
}

// judgeTry says whether the try, whose position evaluates to pe, is as
// good as the engine's best, by the review's thresholds.
func (v *reviewView) judgeTry(pe review.PositionEval) {
	l, mv := v.learn, v.mistake()
	p := v.position(mv.Ply - 1)
	san := p.SAN(l.try)
	before := v.report.Positions[mv.Ply-1].Eval
	l.tried = true
	switch j := review.Judge(mv.Color, before, pe.Eval); j {
	case review.Good:
		l.good, l.verdict = true, fmt.Sprintf("✓ %s is as good as the best (%s, best %s)", san, pe.Eval, before)
	default:
		l.good, l.verdict = false, fmt.Sprintf("✗ %s: %s, an %s (best %s)", san, pe.Eval, strings.ToLower(j.String()), before)
		if j != review.Inaccuracy {
			l.verdict = fmt.Sprintf("✗ %s: %s, a %s too (best %s)", san, pe.Eval, strings.ToLower(j.String()), before)
		}
	}
}

// learnText is what stands under the board while learning, w cells wide:
// the mistake and the move box (ask), then the verdict on the last try
// and, after a try, the engine's line (told), each wrapped to w; said are
// the latter as one line, for the message line when they do not fit
// under the board.
func (v *reviewView) learnText(w int) (ask, told []string, said string) {
	st, l, mv := v.st, v.learn, v.mistake()
	head := fmt.Sprintf("%s %s%s was a %s (%d of %d): find a better move for %s", movelist.Number(v.start.GamePly()+mv.Ply-1),
		mv.SAN, mv.Judgment.Symbol(), strings.ToLower(mv.Judgment.String()), l.at+1, len(l.moves), mv.Color.Name())
	for _, s := range view.WrapWords(head, w) {
		ask = append(ask, st.Err.Render(s))
	}
	ask = append(ask, l.in.View())
	var parts []string
	add := func(text string, style lipgloss.Style) {
		for _, s := range view.WrapWords(text, w) {
			told = append(told, style.Render(s))
		}
		parts = append(parts, style.Render(text))
	}
	if l.verdict != "" {
		style := st.Text
		if l.tried {
			style = st.Err
			if l.good {
				style = st.Accent
			}
		}
		add(l.verdict, style)
	}
	if l.tried {
		add("Best was "+mv.BestLine+".", st.Muted)
	}
	return ask, told, strings.Join(parts, "  ")
}
