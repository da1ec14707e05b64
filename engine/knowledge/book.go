package knowledge

import (
	"context"
	"fmt"
	"slices"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
)

// Book learning judges a game by the score of a search out of the book.
const (
	// LearnAfter is the search out of the book whose score is taken
	// (Crafty's choice). Earlier, the score still mostly echoes the book's
	// own view of the opening (near equality for any sound line); much
	// later, it says more about the middlegame play than about the line,
	// and the game may be over before the GUI asks again.
	LearnAfter = 10
	// learnMargin (centipawns, from the engine's side) is the score taken
	// for a win or, negated, a loss. One and a half pawns out of the
	// opening is rarely thrown away between engines of similar strength;
	// anything closer is a draw, which teaches nothing.
	learnMargin = 150
)

// bookGame is what book learning keeps of the game being played. The
// wrapper sees searches, not games: a game starts at NewGame, or when a
// search comes for another start position or fewer moves than the last one
// (a GUI that never sends ucinewgame, or a takeback).
type bookGame struct {
	start    string        // FEN of the game's start position
	plies    int           // moves from start at the last search
	played   []book.Played // book moves played, each once
	searches int           // game moves searched since the last book move
	learned  bool          // the line has been judged: once per game
}

// follow notes a search of the game from start after plies moves, starting
// a new game when it is not the one being played.
func (g *bookGame) follow(start string, plies int) {
	if start != g.start || plies < g.plies {
		*g = bookGame{}
	}
	g.start, g.plies = start, plies
}

// openBook makes path the book (with the learning side file next to it),
// or drops the book for an empty path. It is called with a.mu held.
func (a *Analyzer) openBook(path string) error {
	if path == "" {
		a.bookPath, a.book, a.learning = "", nil, nil
		a.game = bookGame{}
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
	a.bookPath, a.book, a.learning = path, b, l
	a.game = bookGame{} // the moves played so far belong to the old book
	a.log(fmt.Sprintf("book %s: %d entries", path, b.Len()))
	return nil
}

// asksForMove reports whether a search with lim asks for a move of a game:
// it would end by itself (a clock, depth, nodes or movetime). Infinite
// analysis, a mate search and searchmoves are the GUI asking for a search,
// not for a move to play.
func asksForMove(lim engine.Limits) bool {
	if lim.Infinite || lim.Mate > 0 || len(lim.SearchMoves) > 0 {
		return false
	}
	return lim.WTime != 0 || lim.BTime != 0 || lim.MoveTime != 0 || lim.Depth != 0 || lim.Nodes != 0
}

// bookMove returns the book's move for p when the book should answer this
// search: OwnBook is on, the game is standard chess, and lim asks for a
// move of a game (analysis gets a search). It is called with a.mu held.
func (a *Analyzer) bookMove(p *chess.Position, lim engine.Limits, chess960 bool) (chess.Move, bool) {
	if !a.ownBook || a.book == nil || chess960 || !asksForMove(lim) {
		return chess.NullMove, false
	}
	return a.book.Pick(p, a.rng, a.variety, a.learning)
}

// countsForLearning reports whether a search with lim is a move of the
// game for book learning: OwnBook on, a book with its learning loaded, and
// not analysis. It is called with a.mu held.
func (a *Analyzer) countsForLearning(lim engine.Limits) bool {
	return a.ownBook && a.book != nil && a.learning != nil && asksForMove(lim)
}

// bookAnswer answers a search with the book move m: at once, or for a
// ponder search (ps not nil) when pondering ends (ponderhit, or ctx's end
// at stop), as a search would; end ends the wait. The ponder move offered
// is the book's heaviest reply, if it has one. It returns the move as
// played from the book, for learning.
func (a *Analyzer) bookAnswer(ctx context.Context, p *chess.Position, m chess.Move, ps *ponderState, end func(), info func(engine.Info)) (engine.Result, *book.Played) {
	res := engine.Result{BestMove: m}
	q := p.Clone()
	var u chess.Undo
	q.MakeMove(m, &u)
	a.mu.Lock()
	for _, c := range a.book.Candidates(q, a.learning) {
		if c.Effective > 0 {
			res.PonderMove = c.Move
			break
		}
	}
	a.mu.Unlock()
	if ps != nil {
		ps.waitForHit(end)
		<-ctx.Done()
	}
	info(engine.Info{String: "book move " + m.UCI(false)})
	return res, &book.Played{Key: book.Key(p), Move: book.EncodeMove(m)}
}

// learn takes a finished move of the game into book learning: a book move
// (played not nil) is added to the game's line; a search out of the book
// is counted, and the LearnAfter-th one (or an earlier one that sees a
// mate, as the game may end before the GUI asks again) judges the line:
// the learning file is updated and saved, once per game. ok is false for a
// search that failed. The verdict, and a failure to save, are Text reports.
func (a *Analyzer) learn(played *book.Played, res engine.Result, ok bool, info func(engine.Info)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	g := &a.game
	if a.learning == nil || g.learned {
		return
	}
	if played != nil {
		if !slices.Contains(g.played, *played) {
			g.played = append(g.played, *played)
		}
		g.searches = 0
		return
	}
	// A search that failed, found no move (the game is over) or reported
	// no score says nothing of the line.
	if len(g.played) == 0 || !ok || res.BestMove == chess.NullMove || res.Last.Depth == 0 {
		return
	}
	g.searches++
	score := res.Last.Score
	if g.searches < LearnAfter && score.Mate == 0 {
		return
	}
	g.learned = true
	r := learnResult(score)
	moves := "book moves"
	if len(g.played) == 1 {
		moves = "book move"
	}
	info(engine.Info{String: fmt.Sprintf("book learning: %s for %d %s", learnResultName(r), len(g.played), moves)})
	if r == book.Draw {
		return // nothing to credit, nothing to write
	}
	a.learning.Update(g.played, r)
	if err := a.learning.Save(); err != nil {
		info(engine.Info{String: fmt.Sprintf("error: book learning: %v", err)})
	}
}

// learnResult is the result a search's score stands for, from the side to
// move (the engine's).
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
