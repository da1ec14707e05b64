package uci

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/tablebase"
)

// The server applies two kinds of knowledge around any Analyzer, so that
// an engine gets them without knowing about them: an opening book, whose
// move answers "go" without a search, and Syzygy tables, which restrict the
// root moves of a search in a tablebase position to those that keep its
// result (a won ending is converted, a drawn one held).
//
// The book learns from the server's own games (typhoon's book learning, as
// Crafty does it over protocols that never tell an engine the result): the
// score of the learnAfter-th search after the server's last book move of a
// game stands in for the game's result, and is credited to every book move
// the server played in that game, in the learning file next to the book.

// TablebaseAnalyzer is an Analyzer that can also probe Syzygy tables inside
// its search. The server hands it the tables of SyzygyPath together with
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

// The server's own option names.
const (
	optOwnBook          = "OwnBook"
	optBookFile         = "BookFile"
	optBookVariety      = "BookVariety"
	optSyzygyPath       = "SyzygyPath"
	optSyzygyProbeDepth = "SyzygyProbeDepth"
	optSyzygy50         = "Syzygy50MoveRule"
)

// knowledge is the book and tablebase state of a Server.
type knowledge struct {
	ownBook  bool
	bookPath string
	book     *book.Book
	learning *book.Learning // never/always marks and learned scores; nil without a book
	variety  int
	rng      *rand.Rand

	tbPath       string
	tb           *tablebase.Tablebase
	tbProbeDepth int
	tb50         bool

	game bookGame // the game being played, for book learning
}

// Book learning judges a game by the score of a search out of the book.
const (
	// learnAfter is the search out of the book whose score is taken
	// (Crafty's choice). Earlier, the score still mostly echoes the book's
	// own view of the opening (near equality for any sound line); much
	// later, it says more about the middlegame play than about the line,
	// and the game may be over before the GUI asks again.
	learnAfter = 10
	// learnMargin (centipawns, from the server's side) is the score taken
	// for a win or, negated, a loss. One and a half pawns out of the
	// opening is rarely thrown away between engines of similar strength;
	// anything closer is a draw, which teaches nothing.
	learnMargin = 150
)

// bookGame is what book learning keeps of the game being played. UCI has no
// game: a game starts at "ucinewgame", or when a "go" comes for another
// start position or fewer moves than the last one (a GUI that never sends
// ucinewgame, or a takeback).
type bookGame struct {
	start    string        // FEN of the game's start position
	plies    int           // moves from start at the last "go"
	played   []book.Played // book moves the server played, each once
	searches int           // game moves searched since the last book move
	learned  bool          // the line has been judged: once per game
}

// follow notes a "go" for the game from start after plies moves, starting a
// new game when it is not the one being played.
func (g *bookGame) follow(start string, plies int) {
	if start != g.start || plies < g.plies {
		*g = bookGame{}
	}
	g.start, g.plies = start, plies
}

// playedMove is a "go" that may be a move of the game, kept until its search
// is over: a book move, or a search the server's book learning counts.
type playedMove struct {
	book   *book.Played // the book move answered; nil for a search
	ponder *ponderState // "go ponder": a move of the game only after ponderhit
	// res and ok (the search returned no error) are written by the search
	// goroutine before it closes done, and read only after done is closed.
	res engine.Result
	ok  bool
}

func newKnowledge() knowledge {
	return knowledge{
		variety:      100,
		rng:          rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
		tbProbeDepth: 1,
		tb50:         true,
	}
}

// knowledgeOptions lists the server's own options. One the Analyzer lists
// itself is left to the Analyzer, which then does the job its own way.
func (s *Server) knowledgeOptions() []engine.Option {
	opts := []engine.Option{
		{Name: optOwnBook, Type: "check", Default: "false"},
		{Name: optBookFile, Type: "string", Default: ""},
		// 0 always plays the heaviest book move, 100 chooses in proportion
		// to the weights (Polyglot's rule); see book.Book.Pick.
		{Name: optBookVariety, Type: "spin", Default: "100", Min: 0, Max: 100},
		{Name: optSyzygyPath, Type: "string", Default: ""},
	}
	if _, ok := s.a.(TablebaseAnalyzer); ok {
		opts = append(opts, engine.Option{Name: optSyzygyProbeDepth, Type: "spin", Default: "1", Min: 1, Max: 100})
	}
	opts = append(opts, engine.Option{Name: optSyzygy50, Type: "check", Default: "true"})
	analyzer := s.a.Options()
	return slices.DeleteFunc(opts, func(o engine.Option) bool {
		return slices.ContainsFunc(analyzer, func(a engine.Option) bool { return strings.EqualFold(a.Name, o.Name) })
	})
}

// options is every option the server answers "uci" with: the Analyzer's,
// then the server's own.
func (s *Server) options() []engine.Option {
	return append(s.a.Options(), s.knowledgeOptions()...)
}

// setKnowledgeOption sets one of the server's own options; handled is false
// for a name that is not one. A bad value is an error and changes nothing.
func (s *Server) setKnowledgeOption(name, value string) (handled bool, err error) {
	var opt engine.Option
	for _, o := range s.knowledgeOptions() {
		if strings.EqualFold(o.Name, name) {
			opt, handled = o, true
		}
	}
	if !handled {
		return false, nil
	}
	k := &s.know
	value, err = opt.Check(value)
	if err != nil {
		return true, err
	}
	switch opt.Type {
	case "check":
		b := value == "true"
		switch opt.Name {
		case optOwnBook:
			k.ownBook = b
		case optSyzygy50:
			k.tb50 = b
			s.passTablebase()
		}
	case "spin":
		n, _ := strconv.Atoi(value) // checked
		switch opt.Name {
		case optBookVariety:
			k.variety = n
		case optSyzygyProbeDepth:
			k.tbProbeDepth = n
			s.passTablebase()
		}
	case "string":
		switch opt.Name {
		case optBookFile:
			return true, s.openBook(value)
		case optSyzygyPath:
			return true, s.openTablebase(value)
		}
	}
	return true, nil
}

// openBook makes path the book (with the learning side file next to it),
// or drops the book for an empty path.
func (s *Server) openBook(path string) error {
	k := &s.know
	if path == "" {
		k.bookPath, k.book, k.learning = "", nil, nil
		k.game = bookGame{}
		return nil
	}
	b, err := book.Open(path)
	if err != nil {
		return err
	}
	l, err := book.LoadLearning(book.LearnPath(path))
	if err != nil {
		return err
	}
	k.bookPath, k.book, k.learning = path, b, l
	k.game = bookGame{} // the moves played so far belong to the old book
	s.println("info string book %s: %d entries", path, b.Len())
	return nil
}

// openTablebase opens the Syzygy tables in path's directories (separated
// as in PATH: ':' on Unix, ';' on Windows), or drops them for an empty
// path. A path without any table is refused: it is a mistake, and taking it
// silently would leave the user believing the tables are in use.
func (s *Server) openTablebase(path string) error {
	k := &s.know
	if path == k.tbPath {
		return nil // already open: tables are mapped once
	}
	if path == "" {
		k.tbPath, k.tb = "", nil
		s.passTablebase()
		return nil
	}
	var dirs []string
	for _, d := range filepath.SplitList(path) {
		if d = strings.TrimSpace(d); d != "" {
			dirs = append(dirs, d)
		}
	}
	tb, err := tablebase.Open(dirs...)
	if err != nil {
		return err
	}
	if tb.Files() == 0 {
		return fmt.Errorf("no Syzygy tables (*.rtbw, *.rtbz) in %s", clip(path))
	}
	k.tbPath, k.tb = path, tb
	s.passTablebase()
	s.println("info string Syzygy: %d table files, up to %d pieces", tb.Files(), tb.MaxPieces())
	return nil
}

// passTablebase hands the tables and their settings to an Analyzer that
// probes inside its search.
func (s *Server) passTablebase() {
	if ta, ok := s.a.(TablebaseAnalyzer); ok {
		ta.SetTablebase(s.know.tb, s.know.tbProbeDepth, s.know.tb50)
	}
}

// asksForMove reports whether a "go" with lim asks for a move of a game:
// the search would end by itself (a clock, depth, nodes or movetime).
// Infinite analysis, a mate search and searchmoves are the GUI asking for a
// search, not for a move to play.
func asksForMove(lim engine.Limits) bool {
	if lim.Infinite || lim.Mate > 0 || len(lim.SearchMoves) > 0 {
		return false
	}
	return lim.WTime != 0 || lim.BTime != 0 || lim.MoveTime != 0 || lim.Depth != 0 || lim.Nodes != 0
}

// bookMove returns the book's move for p when the book should answer this
// "go": OwnBook is on, the game is standard chess, and lim asks for a move
// of a game (analysis gets a search).
func (s *Server) bookMove(p *chess.Position, lim engine.Limits, chess960 bool) (chess.Move, bool) {
	k := &s.know
	if !k.ownBook || k.book == nil || chess960 || !asksForMove(lim) {
		return chess.NullMove, false
	}
	return k.book.Pick(p, k.rng, k.variety, k.learning)
}

// gameMove returns the record of a "go" for book learning, or nil when the
// go does not count: OwnBook off, no book (or learning) loaded, or analysis.
func (s *Server) gameMove(lim engine.Limits) *playedMove {
	k := &s.know
	if !k.ownBook || k.book == nil || k.learning == nil || !asksForMove(lim) {
		return nil
	}
	return &playedMove{}
}

// learnFromMove takes the finished "go" into the game's book learning; it
// runs on the server's goroutine once the search is over (done closed). A
// book move is added to the game's line; a search out of the book is
// counted, and the learnAfter-th one (or an earlier one that sees a mate,
// as the game may end before the GUI asks again) judges the line: the
// learning file is updated and saved, once per game.
func (s *Server) learnFromMove() {
	mv := s.move
	s.move = nil
	k := &s.know
	g := &k.game
	if mv == nil || k.learning == nil || g.learned {
		return
	}
	if mv.ponder != nil && !mv.ponder.wasHit() {
		return // pondered on a move the opponent did not play
	}
	if mv.book != nil {
		if !slices.Contains(g.played, *mv.book) {
			g.played = append(g.played, *mv.book)
		}
		g.searches = 0
		return
	}
	// A search that failed, found no move (the game is over) or reported
	// no score says nothing of the line.
	if len(g.played) == 0 || !mv.ok || mv.res.BestMove == chess.NullMove || mv.res.Last.Depth == 0 {
		return
	}
	g.searches++
	score := mv.res.Last.Score
	if g.searches < learnAfter && score.Mate == 0 {
		return
	}
	g.learned = true
	r := learnResult(score)
	moves := "book moves"
	if len(g.played) == 1 {
		moves = "book move"
	}
	s.println("info string book learning: %s for %d %s", learnResultName(r), len(g.played), moves)
	if r == book.Draw {
		return // nothing to credit, nothing to write
	}
	k.learning.Update(g.played, r)
	if err := k.learning.Save(); err != nil {
		s.errorf("book learning: %v", err)
	}
}

// learnResult is the result a search's score stands for, from the side to
// move (the server's).
func learnResult(sc engine.Score) book.Result {
	switch {
	case sc.Mate > 0 || sc.Mate == 0 && sc.CP >= learnMargin:
		return book.Win
	case sc.Mate < 0 || sc.Mate == 0 && sc.CP <= -learnMargin:
		return book.Loss
	}
	return book.Draw
}

func learnResultName(r book.Result) string {
	switch r {
	case book.Win:
		return "win"
	case book.Loss:
		return "loss"
	}
	return "draw"
}

// bookGo answers "go" with a book move: at once, or for "go ponder"
// when pondering ends (ponderhit or stop), as a search would. The ponder
// move offered is the book's heaviest reply, if it has one.
//
// mv, if not nil, records the move for book learning.
func (s *Server) bookGo(p *chess.Position, m chess.Move, lim engine.Limits, mv *playedMove) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.cancel, s.done, s.untilStopped = cancel, done, lim.Ponder
	s.ponder = nil
	if lim.Ponder {
		s.ponder = &ponderState{end: cancel}
	} else {
		cancel()
	}
	if mv != nil {
		mv.book = &book.Played{Key: book.Key(p), Move: book.EncodeMove(m)}
		mv.ponder = s.ponder
	}
	s.move = mv
	res := engine.Result{BestMove: m}
	q := p.Clone()
	var u chess.Undo
	q.MakeMove(m, &u)
	for _, c := range s.know.book.Candidates(q, s.know.learning) {
		if c.Effective > 0 {
			res.PonderMove = c.Move
			break
		}
	}
	go func() {
		<-ctx.Done()
		line := FormatBestMove(p, res, false)
		s.outMu.Lock()
		fmt.Fprintf(s.out, "info string book move %s\n%s\n", m.UCI(false), line)
		s.out.Flush()
		close(done)
		s.outMu.Unlock()
	}()
}

// tablebaseRoot restricts the search of a position in the tables to the
// moves that share the best tablebase rank (among the GUI's searchmoves, if
// it gave some), and returns the number of probes made, which count as
// tbhits.
func (s *Server) tablebaseRoot(p *chess.Position, lim *engine.Limits) uint64 {
	if s.know.tb == nil {
		return 0
	}
	ranked, ok := s.know.tb.RootMoves(p, s.know.tb50)
	if !ok {
		return 0
	}
	probes := uint64(len(ranked))
	if len(lim.SearchMoves) > 0 {
		ranked = slices.DeleteFunc(ranked, func(r tablebase.RankedMove) bool {
			return !slices.Contains(lim.SearchMoves, r.Move)
		})
	}
	if len(ranked) == 0 {
		return 0
	}
	best := ranked[0].Rank
	for _, r := range ranked {
		best = max(best, r.Rank)
	}
	var keep []chess.Move
	for _, r := range ranked {
		if r.Rank == best {
			keep = append(keep, r.Move)
		}
	}
	lim.SearchMoves = keep
	return probes
}
