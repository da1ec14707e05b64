package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/live"
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

// searchRun is the board's handle on one search of its Runner: why it runs
// and for which node. The Runner's goroutine owns the search; the model
// only stops it and reads its batches (livecmd.Msg) in Update.
type searchRun struct {
	kind  searchKind
	node  *pgn.Node
	multi int
	s     *live.Search
}

// boardSearch is the board's engine at work: the Runner that runs every
// search on it, the board's and its views' (nil without an engine), the
// board's newest search, and what the engine must be told before the next.
type boardSearch struct {
	runner  *live.Runner
	run     *searchRun
	running bool
	newGame bool // tell the engine before its next search
	// elo is the strength last set on the engine (0: full strength);
	// hasElo says whether the engine offers UCI_Elo at all.
	elo    int
	hasElo bool
}

// stop stops the board's search, if one runs.
func (b *boardSearch) stop() {
	if b.running {
		b.run.stop()
		b.running = false
	}
}

// newRunner is the Runner of a (nil without an engine).
func newRunner(a engine.Analyzer) *live.Runner {
	if a == nil {
		return nil
	}
	return live.New(a)
}

// startSearch starts a search on the board's Runner, which first cancels
// the running one and waits for it to return. newGame and setup (option
// name and value pairs) are applied to the engine just before this search.
func startSearch(r *live.Runner, kind searchKind, node *pgn.Node, g engine.Game, lim engine.Limits, newGame bool, setup [][2]string) *searchRun {
	s := r.Start(live.Job{Game: g, Limits: lim, Setup: func(a engine.Analyzer) error {
		if newGame {
			_ = a.NewGame()
		}
		for _, kv := range setup {
			_ = a.SetOption(kv[0], kv[1]) // an engine that refuses plays at full strength
		}
		return nil
	}})
	return &searchRun{kind: kind, node: node, multi: lim.MultiPV, s: s}
}

// gen is the search's generation (0 for no search).
func (r *searchRun) gen() uint64 {
	if r == nil {
		return 0
	}
	return r.s.Gen
}

// stop cancels the search (no later one of the Runner: a view's search
// goes on); its end still arrives as a batch.
func (r *searchRun) stop() {
	if r != nil {
		r.s.Stop()
	}
}

// wait is the command that delivers the search's next batch.
func (r *searchRun) wait() tea.Cmd { return livecmd.Wait(r.s) }
