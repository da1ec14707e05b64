package tui

import (
	"fmt"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/referee"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/movelist"
)

// tickMsg advances the clocks.
type tickMsg time.Time

func (m Model) tickCmd() tea.Cmd {
	if _, run := m.clock.Running(); !run || m.over {
		return nil
	}
	return tea.Tick(100*time.Millisecond, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// atEnd reports whether the shown position is the end of the game being
// played (moves can be played only there in a game).
func (m *Model) atEnd() bool { return len(m.cur.Children) == 0 && onMainLine(m.cur) }

func onMainLine(n *pgn.Node) bool {
	for ; n.Parent != nil; n = n.Parent {
		if n.Parent.Children[0] != n {
			return false
		}
	}
	return true
}

// engineToMove reports whether the engine should be searching for its move.
func (m *Model) engineToMove() bool {
	if m.over || m.eng == nil || !m.atEnd() || len(m.views) > 0 {
		return false
	}
	switch m.mode {
	case Watch:
		return true
	case VsEngine:
		return m.pos.SideToMove() != m.human
	}
	return false
}

// humanMayMove reports whether the user may play a move now, with the
// reason when not.
func (m *Model) humanMayMove() error {
	switch {
	case m.mode == Analysis:
		return nil
	case m.over:
		return fmt.Errorf("the game is over: n starts a new one")
	case !m.atEnd():
		return fmt.Errorf("go to the last move (end) to play")
	case m.mode == Watch:
		return fmt.Errorf("the engines are playing: n for a new game")
	case m.mode == VsEngine && m.pos.SideToMove() != m.human:
		return fmt.Errorf("wait for the engine's move")
	}
	return nil
}

// playMove plays m (legal in the shown position) and returns what follows:
// the engine's reply, a new analysis, the autosave, the end of the game.
func (m *Model) playMove(mv chess.Move) tea.Cmd { return m.play(mv, false) }

// play is playMove; fromBook says the engine plays mv from its book: the
// move is recorded for learning (before a result it may bring is learned
// from), commented as a book move and announced.
func (m *Model) play(mv chess.Move, fromBook bool) tea.Cmd {
	mover := m.pos.SideToMove()
	inGame := m.mode != Analysis && !m.over && m.atEnd()
	var note string
	if fromBook {
		m.bookPlay.record(m.pos, m.cur.Ply()+1, mv)
		note = "book move " + movelist.Line(m.pos, []chess.Move{mv})[0]
	}
	m.movedAt = m.opt.Now()
	before := len(m.cur.Children)
	n := m.tree.Play(m.cur, m.pos, mv)
	if len(m.cur.Children) != before {
		m.edited()
	}
	if fromBook && !slices.Contains(n.After, bookComment) {
		n.After = append(n.After, bookComment)
	}
	m.setCur(n)
	if note != "" || !m.msgIsErr {
		// An error stays until the next key: a watched game's next move
		// used to wipe "the engines are playing" before it could be read.
		m.message, m.msgIsErr = note, false
	}
	var cmds []tea.Cmd
	if inGame {
		now := m.opt.Now()
		m.clock.Moved(mover, m.cur.Ply(), now)
		m.recordClock(n, mover, now)
		if r, over := referee.Judge(m.pos); over {
			cmds = append(cmds, m.endGame(r, judgedText(r)))
		} else {
			cmds = append(cmds, m.autosave())
		}
		if !m.ticking {
			cmds = append(cmds, m.startTicking())
		}
	}
	cmds = append(cmds, m.sync())
	return tea.Batch(cmds...)
}

func (m *Model) startTicking() tea.Cmd {
	c := m.tickCmd()
	m.ticking = c != nil
	return c
}

// judgedText is the banner of a game the position ended (referee.Judge).
func judgedText(r referee.Result) string {
	if r.Termination == referee.Checkmate {
		return fmt.Sprintf("Checkmate · %s wins", r.Winner.Name())
	}
	return map[referee.Termination]string{
		referee.Stalemate:            "Stalemate · draw",
		referee.InsufficientMaterial: "Insufficient material · draw",
		referee.FiftyMoves:           "Fifty-move rule · draw",
		referee.Repetition:           "Threefold repetition · draw",
	}[r.Termination]
}

// endGame finishes the game in play with the referee's result, written
// with the PGN standard's Termination tag, which other programs
// understand; the banner says more, on the screen. The engine's search
// stops: whatever it was for, the game it was for is over.
func (m *Model) endGame(r referee.Result, banner string) tea.Cmd {
	m.search.stop()
	m.over, m.result, m.banner = true, r.PGN(), banner
	m.tree.SetTag("Result", m.result)
	m.tree.SetTag("Termination", r.Termination.PGN())
	m.clock.Stop(m.opt.Now())
	m.ticking = false
	m.learnBook(m.result)
	cmds := []tea.Cmd{m.autosave()}
	if m.opt.QuitOnGameOver {
		m.quitting = true
		cmds = append(cmds, tea.Quit)
		return tea.Sequence(cmds...)
	}
	return tea.Batch(cmds...)
}

// autosave hands the game in progress to the autosave writer: the file's
// earlier games followed by this one. A game with no move is not written
// (the file would fill with empty games from sessions where nothing was
// played); one whose moves were all taken back is removed again.
func (m *Model) autosave() tea.Cmd {
	if m.mode == Analysis || m.saver == nil {
		return nil
	}
	if len(m.tree.Root.Children) == 0 {
		if m.autosaved {
			m.saver.save(append([]byte(nil), m.autosavePrefix...))
			m.autosaved = false
		}
		return nil
	}
	m.autosaved = true
	b, err := m.tree.appendPGN(append([]byte(nil), m.autosavePrefix...))
	if err != nil {
		// Not possible for a tree built by play; reported rather than
		// written half.
		m.setError(fmt.Errorf("autosave: %w", err))
		return nil
	}
	m.saver.save(b)
	return nil
}

// handleTick checks the flag.
func (m *Model) handleTick() tea.Cmd {
	if _, run := m.clock.Running(); m.over || !run {
		m.ticking = false
		return nil
	}
	now := m.opt.Now()
	if side, ok := m.clock.Flagged(now); ok {
		// Judged on the game's position, not the one shown.
		r := referee.Flag(m.tree.Position(m.gameEnd()), side)
		return m.endGame(r, fmt.Sprintf("%s's time is up · %s", side.Name(), resultWords(r.PGN())))
	}
	return m.tickCmd()
}

// gameEnd is the last node of the game in play (the main line's end),
// wherever the user is looking: the referee judges the game there.
func (m *Model) gameEnd() *pgn.Node { return End(m.tree.Root) }

func resultWords(r string) string {
	switch r {
	case "1-0":
		return "White wins"
	case "0-1":
		return "Black wins"
	}
	return "draw"
}

func (m *Model) setError(err error)  { m.message, m.msgIsErr = termtext.SafeLine(err.Error()), true }
func (m *Model) setMessage(s string) { m.message, m.msgIsErr = termtext.SafeLine(s), false }

// resign asks, then ends the game in the engine's (or, with two humans,
// the opponent's) favour; before both sides have moved it aborts the game
// instead, as lichess does: nobody has lost anything yet. One stray R
// must not end a game, so it always asks.
func (m *Model) resign() tea.Cmd {
	if m.over || m.mode == Analysis || m.mode == Watch {
		m.setError(fmt.Errorf("no game to resign"))
		return nil
	}
	r := m.resignation()
	if !r.Decided() {
		m.dialog = confirm("Abort?", "Abort this game? Neither side has moved twice yet, so nobody loses.", "abort", resignMsg{})
		return nil
	}
	m.dialog = confirm("Resign?", fmt.Sprintf("Resign this game as %s? %s.", r.Winner.Other().Name(), resultWords(r.PGN())), "resign", resignMsg{})
	return nil
}

// resignation is what resigning now comes to (referee.Resign): the
// human's loss against the engine, the side to move's with two humans —
// in the game, wherever the user is looking — or an abort before both
// sides have moved.
func (m *Model) resignation() referee.Result {
	end := m.gameEnd()
	loser := m.tree.Position(end).SideToMove()
	if m.mode == VsEngine {
		loser = m.human
	}
	return referee.Resign(loser, end.Ply())
}

// doResign is resign's answer yes.
func (m *Model) doResign() tea.Cmd {
	if m.over || m.mode == Analysis || m.mode == Watch {
		return nil
	}
	r := m.resignation()
	if !r.Decided() {
		return m.endGame(r, "Game aborted")
	}
	return m.endGame(r, fmt.Sprintf("%s resigns · %s", r.Winner.Other().Name(), resultWords(r.PGN())))
}

// offerDraw: the engine accepts as level.AcceptsDraw says (worse by more
// than a pawn, or dead level after move 40), as its seat on the server does.
func (m *Model) offerDraw() tea.Cmd {
	if m.over || m.mode == Analysis || m.mode == Watch {
		m.setError(fmt.Errorf("no game to offer a draw in"))
		return nil
	}
	if m.mode == TwoHumans {
		return m.endGame(referee.Draw(referee.Agreement), "Draw agreed")
	}
	if b := m.panel.best(); b != nil {
		engineView := b.white
		if m.human == chess.White {
			engineView = engineView.Negate()
		}
		if level.AcceptsDraw(engineView, m.pos.FullmoveNumber()) { // the server's seat answers alike
			return m.endGame(referee.Draw(referee.Agreement), "Draw agreed")
		}
	}
	m.setMessage("the engine declines the draw")
	return nil
}

// takeback undoes moves: in a game, back to the human's last turn; in
// analysis, the shown move is deleted. A finished game stays finished:
// takeback there offers to reopen it as analysis.
func (m *Model) takeback() tea.Cmd {
	if m.cur.Parent == nil {
		m.setError(fmt.Errorf("nothing to take back"))
		return nil
	}
	if m.over && m.mode != Analysis {
		q := fmt.Sprintf("The game is over (%s, %s). Go on from a move back as analysis? The game stays as it ended.", m.banner, m.result)
		m.dialog = confirm("Game over", q, "analyse", reopenMsg{})
		return nil
	}
	if m.mode == Analysis || m.mode == TwoHumans {
		m.edited()
		m.setCur(m.tree.Truncate(m.cur))
		return m.sync()
	}
	if m.mode == Watch {
		m.setError(fmt.Errorf("no takebacks while watching"))
		return nil
	}
	n := End(m.cur)
	n = m.tree.Truncate(n)
	for n.Parent != nil && m.tree.Position(n).SideToMove() != m.human {
		n = m.tree.Truncate(n)
	}
	m.edited()
	m.bookPlay.dropAfter(n.Ply())
	m.setCur(n)
	m.clock.Resume(m.pos.SideToMove(), n.Ply(), m.opt.Now())
	return tea.Batch(m.sync(), m.startTicking(), m.autosave())
}

// reopenAsAnalysis turns a finished game into analysis of it, shown a move
// back (before the human's last move against the engine): the game keeps
// its moves and result, and moves played now make variations.
func (m *Model) reopenAsAnalysis() tea.Cmd {
	n := End(m.cur)
	if n.Parent != nil {
		n = n.Parent
	}
	for m.mode == VsEngine && n.Parent != nil && m.tree.Position(n).SideToMove() != m.human {
		n = n.Parent
	}
	m.search.stop()
	m.mode, m.over, m.banner = Analysis, false, ""
	// The game's moves are not changes to undo: u takes them back, asked.
	m.tree.edits.Clear()
	m.markSaved(m.treeRev) // the game is in the autosave as it ended
	m.setCur(n)
	m.setMessage("analysis of the finished game: moves make variations")
	return m.sync()
}
