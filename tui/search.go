package tui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/livecmd"
)

// searchKind says why a search runs.
type searchKind int

const (
	searchAnalysis searchKind = iota + 1 // infinite analysis of the shown position
	searchMove                           // the engine's move in a game
	searchHint                           // a short search for a hint
)

// searchRun is one search of the board's: why it runs and for which
// node. The Runner's goroutine owns the search; the board only stops it
// and reads its batches (livecmd.Msg) in Update.
type searchRun struct {
	kind  searchKind
	node  *pgn.Node
	multi int
	s     *live.Search
}

// searchWant is a search the board needs: why, of which node, the game up
// to it, its limits, and the strength it is played at (the level's for
// the engine's move, the zero Level — full strength — for the rest).
type searchWant struct {
	kind   searchKind
	node   *pgn.Node
	game   engine.Game
	limits engine.Limits
	level  level.Level
}

// boardSearch is the board's engines at work, one component: it starts
// the search the board needs (start; Model.sync says which), takes its
// reports (take), holds the engine's move for a watched game's pace
// (hold, release), works out the limits of the engine's move
// (moveLimits), and stops (stop: the one way the board's searches stop).
// Whether a search runs, and whether the engine is thinking of its move,
// follow from the search it holds.
//
// The board's engine (the embedded boardEngine) plays, hints and
// analyses; beside, when set, is a second engine that analyses the same
// position on a Runner of its own while the board analyses (Nibbler's
// and En Croissant's second engine), its lines in a panel of their own.
type boardSearch struct {
	boardEngine
	// beside is the engine analysing beside the board's (nil: none).
	beside *boardEngine
	// held is the generation of the search whose move waits for the
	// watch pace (0: none).
	held uint64
}

// boardEngine is one engine of the board's: its Runner and the search of
// the board's it runs, and what it must be told before its next search.
type boardEngine struct {
	// runner runs every search on the engine, the board's and (for the
	// board's engine) its views' (nil without an engine).
	runner *live.Runner
	// run is the search whose reports the board takes, nil when none
	// runs: stopped, or its end taken.
	run     *searchRun
	newGame bool // tell the engine before its next search
	// elo is the strength last set on the engine (0: full strength);
	// hasElo says whether the engine can limit its strength at all
	// (level.HasElo).
	elo    int
	hasElo bool
	// options are set on the engine before its next search (the options
	// dialog's, spec.Apply), then forgotten.
	options []spec.Option
	// name is what the config calls the engine ("squall", a name of its
	// [engines], or the command line it was started with): its options
	// are remembered under it.
	name string
	// owned says the board opened the engine and closes it; the engine
	// the board was started with is its caller's.
	owned bool
}

// newBoardSearch is the search component of a board with engine a (nil:
// none), called name in the config.
func newBoardSearch(a engine.Analyzer, name string) boardSearch {
	return boardSearch{boardEngine: newBoardEngine(a, name, nil)}
}

// newBoardEngine is engine a of the board's, called name in the config,
// in the place of the engine whose Runner was prev (nil: none): the
// generations go on from prev's (live.NewAfter).
func newBoardEngine(a engine.Analyzer, name string, prev *live.Runner) boardEngine {
	return boardEngine{runner: live.NewAfter(a, prev), hasElo: a != nil && level.HasElo(a), name: name}
}

// close stops the engines' searches and waits for them; the engines the
// board opened are closed.
func (b *boardSearch) close() {
	b.boardEngine.close()
	if b.beside != nil {
		b.beside.close()
	}
}

// close stops the engine's search, waits for it and, if the board opened
// the engine, closes it. It blocks: off Update, where the board replaces
// an engine (closeCmd).
func (e *boardEngine) close() {
	if e.runner == nil {
		return
	}
	e.runner.Close()
	if e.owned {
		_ = e.runner.Analyzer().Close()
	}
}

// closeCmd closes e off the Update goroutine (close waits for its
// search to return), for an engine the board no longer uses.
func (e boardEngine) closeCmd() tea.Cmd {
	if e.runner == nil {
		return nil
	}
	return func() tea.Msg { e.close(); return nil }
}

// analyzer is the engine (nil: none).
func (e *boardEngine) analyzer() engine.Analyzer {
	if e.runner == nil {
		return nil
	}
	return e.runner.Analyzer()
}

// running reports whether the board's search runs.
func (b *boardSearch) running() bool { return b.run != nil }

// kind is why the board's search runs (0: none runs).
func (b *boardSearch) kind() searchKind {
	if b.run == nil {
		return 0
	}
	return b.run.kind
}

// thinking reports whether the engine is searching for its move.
func (b *boardSearch) thinking() bool { return b.kind() == searchMove }

// runs reports whether the search running is the one wanted: of kind,
// for node, with multi lines if it is an analysis.
func (e *boardEngine) runs(kind searchKind, node *pgn.Node, multi int) bool {
	return e.run != nil && e.run.kind == kind && e.run.node == node && (kind != searchAnalysis || e.run.multi == multi)
}

// stop stops the board's searches, the engine beside's too, and drops a
// held move: the one way the board's search stops. A stopped search's
// last batch still comes, and is dropped (take). A view's search on the
// same Runner goes on.
func (b *boardSearch) stop() {
	b.boardEngine.stop()
	if b.beside != nil {
		b.beside.stop()
	}
	b.held = 0
}

// stop stops this engine's search of the board's, if one runs.
func (e *boardEngine) stop() {
	if e.run != nil {
		e.run.s.Stop()
		e.run = nil
	}
}

// start starts w, after stopping the running search (the Runner cancels
// it and waits for it to return). A new game, the strength and the
// options, if any changed, are told the engine just before w's search;
// an option it refuses ends the search with the reason.
func (e *boardEngine) start(w searchWant) *live.Search {
	e.stop()
	newGame, setup, opts := e.newGame, e.strength(w.level), e.options
	s := e.runner.Start(live.Job{Game: w.game, Limits: w.limits, Setup: func(a engine.Analyzer) error {
		if newGame {
			_ = a.NewGame()
		}
		setStrength(a, setup)
		if len(opts) == 0 {
			return nil
		}
		return spec.Apply(a, opts)
	}})
	e.run = &searchRun{kind: w.kind, node: w.node, multi: w.limits.MultiPV, s: s}
	e.newGame, e.options = false, nil
	return s
}

// start starts w on the board's engine: its reports come as livecmd.Msg.
func (b *boardSearch) start(w searchWant) tea.Cmd {
	return livecmd.Wait(b.boardEngine.start(w))
}

// strength is what the engine must be told to play at lv's strength
// (level.Level.Setup), or nothing if it does already or cannot limit its
// strength. Options change only between searches, in the search
// goroutine after the previous search has returned.
func (e *boardEngine) strength(lv level.Level) [][2]string {
	if !e.hasElo || lv.Elo == e.elo {
		return nil
	}
	e.elo = lv.Elo
	return lv.Setup()
}

// setStrength sets a strength's options (level.Level.Setup) on a. A
// refusal is ignored: an engine that refuses plays at full strength.
func setStrength(a engine.Analyzer, setup [][2]string) {
	for _, kv := range setup {
		_ = a.SetOption(kv[0], kv[1])
	}
}

// gen is the generation of the board's search (0: none runs).
func (b *boardSearch) gen() uint64 {
	if b.run == nil {
		return 0
	}
	return b.run.s.Gen
}

// searchEnd is how the board's search ended: why it ran, for which node,
// and the engine's answer or error.
type searchEnd struct {
	kind   searchKind
	node   *pgn.Node
	gen    uint64
	result engine.Result
	err    error
}

// take takes a batch of the board's search: ok is false for a batch of a
// search the board has replaced or stopped (whatever stopped it has
// already decided what runs next). In the last batch, end is the search's
// end and the search no longer runs; before it, next waits for the next
// batch.
func (b *boardSearch) take(batch live.Batch) (end *searchEnd, next tea.Cmd, ok bool) {
	if b.run == nil || batch.Gen != b.run.s.Gen {
		return nil, nil, false
	}
	if !batch.Done {
		return nil, livecmd.Wait(b.run.s), true
	}
	end = &searchEnd{kind: b.run.kind, node: b.run.node, gen: batch.Gen, result: batch.Result, err: batch.Err}
	b.run = nil
	return end, nil, true
}

// pacedMoveMsg plays a watched engine's move once the pace allows.
type pacedMoveMsg struct {
	gen  uint64
	node *pgn.Node
	move chess.Move
}

// hold holds the engine's move mv, the end of search end, for wait: the
// command delivers it (release) when the pace allows.
func (b *boardSearch) hold(end *searchEnd, mv chess.Move, wait time.Duration) tea.Cmd {
	b.held = end.gen
	msg := pacedMoveMsg{gen: end.gen, node: end.node, move: mv}
	return tea.Tick(wait, func(time.Time) tea.Msg { return msg })
}

// release reports whether msg is the move held, and lets it go: a move
// held by a search since stopped or replaced is not.
func (b *boardSearch) release(msg pacedMoveMsg) bool {
	if b.held == 0 || msg.gen != b.held {
		return false
	}
	b.held = 0
	return true
}

// moveLimits are the limits of the engine's move: the clock c at now if
// the game has one, else fixed if set (Options.MoveLimits), else lv's —
// its Fallback for an engine that cannot limit its strength, which then
// plays weaker by searching less.
func (b *boardSearch) moveLimits(c *clock.Clock, now time.Time, fixed engine.Limits, lv level.Level) engine.Limits {
	switch {
	case c.Enabled():
		return engine.Limits{
			WTime: c.Remaining(chess.White, now), BTime: c.Remaining(chess.Black, now),
			WInc: c.Increment(), BInc: c.Increment(),
		}
	case !fixed.IsZero():
		return fixed
	case b.hasElo:
		return lv.Limits
	}
	return lv.Fallback
}

// sync makes the board's searches match what the screen needs: the
// engine's move, a hint, the analysis of the shown position, or nothing;
// and the engine beside analysing with the board's, or nothing.
func (m *Model) sync() tea.Cmd {
	first := m.syncFirst()
	return tea.Batch(first, m.syncBeside())
}

// syncFirst makes the board's engine's search match what the screen
// needs.
func (m *Model) syncFirst() tea.Cmd {
	kind := m.wantedSearch()
	if m.bookPlay.pending != nil && m.bookPlay.pending.node == m.cur && kind == searchMove {
		return nil // the engine's book move is on its way
	}
	m.bookPlay.pending = nil // superseded: its message is dropped when it comes
	if m.search.runs(kind, m.cur, m.multiPV) {
		return nil
	}
	m.search.boardEngine.stop()
	m.search.held = 0
	if kind == searchMove {
		// The engine's move comes from the book while the book has one;
		// analysis and hints always search.
		if mv, ok := m.bookPlay.pick(m.opt.Book, m.pos, m.opt.BookLearning); ok {
			return m.bookPlay.send(m.cur, mv)
		}
	}
	if kind == 0 {
		return nil
	}
	return m.search.start(m.searchFor(kind))
}

// wantedSearch is the search the screen needs (0: none).
func (m *Model) wantedSearch() searchKind {
	switch {
	case m.eng == nil || m.quitting || len(m.views) > 0 || !m.pos.HasLegalMoves():
		return 0
	case m.engineToMove():
		return searchMove
	case m.hintWanted:
		return searchHint
	case m.analysisOn:
		return searchAnalysis
	}
	return 0
}

// searchFor is the search of kind the shown position needs: the engine's
// move at the level's strength, a second's hint or infinite analysis at
// full strength.
func (m *Model) searchFor(kind searchKind) searchWant {
	w := searchWant{kind: kind, node: m.cur, game: m.tree.EngineGame(m.cur)}
	switch kind {
	case searchMove:
		w.level = Levels[m.level]
		w.limits = m.search.moveLimits(&m.clock, m.opt.Now(), m.opt.MoveLimits, w.level)
	case searchHint:
		w.limits = engine.Limits{MoveTime: time.Second}
	case searchAnalysis:
		w.limits = engine.Limits{Infinite: true, MultiPV: m.multiPV}
	}
	return w
}

// handleBatch takes a frame's reports of the board's search into the
// panel and, in its last batch, acts on its end: plays the engine's move
// (held for a watched game's pace), shows a hint.
func (m *Model) handleBatch(b live.Batch) tea.Cmd {
	var node *pgn.Node
	if r := m.search.run; r != nil && r.kind == searchAnalysis {
		node = r.node
	}
	end, next, ok := m.search.take(b)
	if !ok {
		return nil // a replaced or stopped search
	}
	for _, i := range b.Infos {
		m.panel.add(m.pos, i)
		if node != nil {
			m.keepAnalysis(node, i) // the eval graph's
		}
	}
	if end == nil {
		return next
	}
	if end.err != nil {
		m.setError(fmt.Errorf("engine: %w", end.err))
		return nil
	}
	mv := end.result.BestMove
	switch end.kind {
	case searchMove:
		if end.node != m.cur {
			return m.sync()
		}
		if !m.pos.IsLegal(mv) {
			// Not retried: an engine that cannot move would loop forever.
			m.setError(fmt.Errorf("the engine returned no legal move (%s): u takes back, n starts anew",
				mv.UCI(m.pos.Chess960())))
			return nil
		}
		if wait := m.opt.WatchPace - m.opt.Now().Sub(m.movedAt); m.mode == Watch && wait > 0 {
			return m.search.hold(end, mv, wait)
		}
		return m.playMove(mv)
	case searchHint:
		m.hintWanted = false
		if m.pos.IsLegal(mv) {
			m.board.hint = mv
			m.setMessage("hint: " + m.pos.SAN(mv))
		}
		return m.sync()
	}
	return nil
}

// handlePaced plays the held move, unless the game moved on meanwhile (a
// new game, a takeback, navigation) or the search was stopped.
func (m *Model) handlePaced(msg pacedMoveMsg) tea.Cmd {
	if !m.search.release(msg) || msg.node != m.cur || m.over || !m.pos.IsLegal(msg.move) {
		return nil
	}
	return m.playMove(msg.move)
}
