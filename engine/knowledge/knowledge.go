// Package knowledge gives any engine an opening book and Syzygy endgame
// tables, without the engine knowing about them: Wrap puts an Analyzer
// around another. A book move answers a search that asks for a move of a
// game (no search runs); in a position of the tables, a search may only
// choose among the moves that keep its tablebase result (a won ending is
// converted, a drawn one held), and the root probes count as tbhits.
//
// The book learns from the games played through the wrapper, as Crafty
// does it over protocols that never tell an engine the result: the score
// of the learnAfter-th search after the last book move of a game stands in
// for the game's result, and is credited to every book move played in that
// game, in the learning file next to the book.
//
// The UCI server wraps the engine it serves; its options (OwnBook,
// BookFile, BookVariety, SyzygyPath, SyzygyProbeDepth, Syzygy50MoveRule)
// are this package's.
package knowledge

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/tablebase"
)

// TablebaseAnalyzer is an Analyzer that can also probe Syzygy tables inside
// its search. The wrapper hands it the tables of SyzygyPath together with
// SyzygyProbeDepth and Syzygy50MoveRule, and lists SyzygyProbeDepth only
// for such an Analyzer: root filtering alone has no depth to set.
type TablebaseAnalyzer interface {
	engine.Analyzer
	// SetTablebase gives the search the tables to probe (nil: none), the
	// least remaining depth at which to probe them, and whether the
	// 50-move rule counts (cursed wins and blessed losses score as
	// draws). It is not called during a search.
	SetTablebase(tb *tablebase.Tablebase, probeDepth int, rule50 bool)
}

// The wrapper's own option names.
const (
	OwnBook          = "OwnBook"
	BookFile         = "BookFile"
	BookVariety      = "BookVariety"
	SyzygyPath       = "SyzygyPath"
	SyzygyProbeDepth = "SyzygyProbeDepth"
	Syzygy50MoveRule = "Syzygy50MoveRule"
)

// Analyzer is an engine with a book and tables around it. Like any
// Analyzer it runs one search at a time and takes options only between
// searches; PonderHit may come at any time.
type Analyzer struct {
	inner engine.Analyzer
	// log receives the notes made outside a search (a book or tables
	// opened); in a search they are Text reports.
	log func(string)

	// mu guards the state below against PonderHit, which comes from
	// another goroutine than the search's.
	mu       sync.Mutex
	ownBook  bool
	bookPath string
	book     *book.Book
	learning *book.Learning // never/always marks and learned scores; nil without a book
	variety  int
	rng      *rand.Rand
	chess960 bool // UCI_Chess960, as set on the engine

	tbPath       string
	tb           *tablebase.Tablebase
	tbProbeDepth int
	tb50         bool

	game     bookGame     // the game being played, for book learning
	ponder   *ponderState // the running "go ponder" search, nil for others
	earlyHit bool         // a ponderhit before the ponder search began
}

// Wrap puts a book and tables around a. log, if not nil, receives notes
// made when an option opens a book or tables ("book x.bin: 4 entries").
func Wrap(a engine.Analyzer, log func(string)) *Analyzer {
	if log == nil {
		log = func(string) {}
	}
	return &Analyzer{
		inner:        a,
		log:          log,
		variety:      100,
		rng:          rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
		tbProbeDepth: 1,
		tb50:         true,
	}
}

// Inner is the wrapped engine (for what only it has, an evaluation to
// show, say).
func (a *Analyzer) Inner() engine.Analyzer { return a.inner }

// Name is the wrapped engine's.
func (a *Analyzer) Name() string { return a.inner.Name() }

// Close closes the wrapped engine.
func (a *Analyzer) Close() error { return a.inner.Close() }

// ownOptions lists the wrapper's options. One the wrapped engine lists
// itself is left to it, which then does the job its own way.
func (a *Analyzer) ownOptions() []engine.Option {
	opts := []engine.Option{
		{Name: OwnBook, Type: "check", Default: "false"},
		{Name: BookFile, Type: "string", Default: ""},
		// 0 always plays the heaviest book move, 100 chooses in proportion
		// to the weights (Polyglot's rule); see book.Book.Pick.
		{Name: BookVariety, Type: "spin", Default: "100", Min: 0, Max: 100},
		{Name: SyzygyPath, Type: "string", Default: ""},
	}
	if _, ok := a.inner.(TablebaseAnalyzer); ok {
		opts = append(opts, engine.Option{Name: SyzygyProbeDepth, Type: "spin", Default: "1", Min: 1, Max: 100})
	}
	opts = append(opts, engine.Option{Name: Syzygy50MoveRule, Type: "check", Default: "true"})
	inner := a.inner.Options()
	return slices.DeleteFunc(opts, func(o engine.Option) bool {
		return slices.ContainsFunc(inner, func(i engine.Option) bool { return strings.EqualFold(i.Name, o.Name) })
	})
}

// Options are the wrapped engine's, then the wrapper's own.
func (a *Analyzer) Options() []engine.Option {
	return append(a.inner.Options(), a.ownOptions()...)
}

// SetOption sets one of the wrapper's options, or passes the setting to
// the wrapped engine. A bad value is an error and changes nothing.
func (a *Analyzer) SetOption(name, value string) error {
	i := slices.IndexFunc(a.ownOptions(), func(o engine.Option) bool { return strings.EqualFold(o.Name, name) })
	if i < 0 {
		if err := a.inner.SetOption(name, value); err != nil {
			return err
		}
		if strings.EqualFold(name, "UCI_Chess960") {
			a.mu.Lock()
			a.chess960 = strings.EqualFold(strings.TrimSpace(value), "true")
			a.mu.Unlock()
		}
		return nil
	}
	opt := a.ownOptions()[i]
	value, err := opt.Check(value)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	switch opt.Name {
	case OwnBook:
		a.ownBook = value == "true"
	case BookVariety:
		a.variety, _ = strconv.Atoi(value) // checked
	case BookFile:
		return a.openBook(value)
	case SyzygyPath:
		return a.openTablebase(value)
	case SyzygyProbeDepth:
		a.tbProbeDepth, _ = strconv.Atoi(value) // checked
		a.passTablebase()
	case Syzygy50MoveRule:
		a.tb50 = value == "true"
		a.passTablebase()
	}
	return nil
}

// NewGame starts a new game: for book learning too.
func (a *Analyzer) NewGame() error {
	a.mu.Lock()
	a.game = bookGame{}
	a.mu.Unlock()
	return a.inner.NewGame()
}

// Search answers from the book when it should (OwnBook on, a book move in
// a standard-chess position, and limits that ask for a move of a game),
// else searches with the root moves restricted by the tables. A finished
// search is taken into book learning, whose verdict is a Text report.
func (a *Analyzer) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	if info == nil {
		info = func(engine.Info) {}
	}
	p, err := g.Position()
	if err != nil {
		return engine.Result{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.mu.Lock()
	a.game.follow(g.Start.FEN(), len(g.Moves))
	counts := a.countsForLearning(lim)
	ps := a.startPonder(lim.Ponder, cancel, !p.HasLegalMoves())
	m, fromBook := a.bookMove(p, lim, a.chess960 || p.Chess960())
	a.mu.Unlock()
	defer a.endPonder()

	var res engine.Result
	var played *book.Played
	if fromBook {
		res, played = a.bookAnswer(ctx, p, m, ps, cancel, info)
	} else {
		tbHits := a.tablebaseRoot(p, &lim)
		res, err = a.inner.Search(ctx, g, lim, func(in engine.Info) {
			ps.noteReport(a.inner)
			if in.Depth > 0 {
				in.TBHits += tbHits // the root probes, on the lines that report a search's totals
			}
			info(in)
		})
	}
	if counts && (ps == nil || ps.wasHit()) {
		a.learn(played, res, err == nil, info)
	}
	return res, err
}

// PonderHit tells a "go ponder" search that the expected move was played.
func (a *Analyzer) PonderHit() {
	a.mu.Lock()
	ps := a.ponder
	if ps == nil {
		// The search has not begun (its goroutine has yet to call
		// Search): it takes the hit when it does.
		a.earlyHit = true
	}
	a.mu.Unlock()
	if ps != nil {
		ps.ponderHit(a.inner)
	}
}
