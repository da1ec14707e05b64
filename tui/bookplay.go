package tui

import (
	"fmt"
	"math/rand/v2"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// bookVariety is how freely the engine chooses among a position's book
// moves (book.Book.Pick): 100 is Polyglot's own rule, each move with
// probability proportional to its weight, as the UCI server's default.
const bookVariety = 100

// bookComment is the PGN comment on a move the engine played from its
// book: it shows under the analysis panel, and saved games carry it the
// way engine-match tools write it ({book}).
const bookComment = "book"

// bookMsg delivers the book move chosen for the engine in sync. It comes
// back as a message, like a search's result, so that each move is drawn
// before the next one is chosen (an engine-vs-engine game in the book
// would otherwise play all its book moves within one Update).
type bookMsg struct {
	id   int
	move chess.Move
}

// bookWait is the book move on its way to Update: the bookSeq it was
// chosen under and the node it was chosen for.
type bookWait struct {
	id   int
	node *pgn.Node
}

// playedBook is a book move the engine played in the game in progress.
type playedBook struct {
	ply    int         // the move's ply from the start (Node.Ply)
	side   chess.Color // the side that played it
	played book.Played // its book key and code, for learning
}

// bookPlayer is the engine's book play in the game in progress: the
// choice of its book moves, the one on its way to Update, and the moves
// it played, to learn from the game's result.
type bookPlayer struct {
	rng     *rand.Rand   // chooses among the book moves
	seq     int          // numbers the book moves chosen (bookWait)
	pending *bookWait    // a chosen move not yet delivered (a bookMsg)
	line    []playedBook // the book moves played in the game
	learned bool         // the game's result has been credited to them
}

// newBookPlayer seeds its choices from the runtime's random source once;
// every choice after that is the player's own.
func newBookPlayer() bookPlayer {
	return bookPlayer{rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// newGame forgets the game: a new one starts.
func (b *bookPlayer) newGame() { b.pending, b.line, b.learned = nil, nil, false }

// pick chooses the engine's book move in pos, if the book bk has a
// playable one. Polyglot books hold standard chess only.
func (b *bookPlayer) pick(bk *book.Book, pos *chess.Position, l *book.Learning) (chess.Move, bool) {
	if bk == nil || pos.Chess960() {
		return chess.NullMove, false
	}
	return bk.Pick(pos, b.rng, bookVariety, l)
}

// send answers the engine's turn at node with mv from the book: the move
// arrives as a bookMsg, as a search's best move would.
func (b *bookPlayer) send(node *pgn.Node, mv chess.Move) tea.Cmd {
	b.seq++
	id := b.seq
	b.pending = &bookWait{id: id, node: node}
	return func() tea.Msg { return bookMsg{id: id, move: mv} }
}

// take returns the move waiting for msg, nil when it was superseded
// (another book move chosen since, or none waits).
func (b *bookPlayer) take(msg bookMsg) *bookWait {
	w := b.pending
	if w == nil || w.id != msg.id {
		return nil
	}
	b.pending = nil
	return w
}

// record notes that the engine plays mv, from the book, in pos, the
// position after ply-1 moves.
func (b *bookPlayer) record(pos *chess.Position, ply int, mv chess.Move) {
	b.line = append(b.line, playedBook{
		ply:    ply,
		side:   pos.SideToMove(),
		played: book.Played{Key: book.Key(pos), Move: book.EncodeMove(mv)},
	})
}

// dropAfter forgets the book moves beyond ply, taken back: the game that
// is learned from is the one that reaches a result. Should the engine
// reach those positions again, it chooses (and records) afresh.
func (b *bookPlayer) dropAfter(ply int) {
	b.line = slices.DeleteFunc(b.line, func(p playedBook) bool { return p.ply > ply })
}

// learn credits a finished game's result to the book moves the engine
// played in it, each from the side that played it (in an engine-vs-engine
// game both sides learn), and saves the learning file l. It learns from a
// game once, at its first end: a game resumed by a takeback after its end
// is not counted again.
func (b *bookPlayer) learn(result string, l *book.Learning) error {
	if b.learned {
		return nil
	}
	b.learned = true
	if l == nil || len(b.line) == 0 {
		return nil
	}
	for _, side := range []chess.Color{chess.White, chess.Black} {
		var line []book.Played
		for _, p := range b.line {
			if p.side == side {
				line = append(line, p.played)
			}
		}
		if len(line) > 0 {
			l.Update(line, resultFor(result, side))
		}
	}
	return l.Save()
}

// handleBook plays the engine's book move, unless the game has moved on
// since it was chosen (a takeback, a new game, a view opened), in which
// case whatever now runs was started by that change.
func (m *Model) handleBook(msg bookMsg) tea.Cmd {
	w := m.bookPlay.take(msg)
	if w == nil {
		return nil
	}
	if w.node != m.cur || !m.engineToMove() || !m.pos.IsLegal(msg.move) {
		return m.sync()
	}
	return m.play(msg.move, true)
}

// learnBook learns from the game's result; the save is done here, in
// Update, for the reason markBookMove gives, and a failure is reported
// and the game kept.
func (m *Model) learnBook(result string) {
	if err := m.bookPlay.learn(result, m.opt.BookLearning); err != nil {
		m.setError(fmt.Errorf("book learning not saved: %w", err))
	}
}

// resultFor is a PGN result as book.Result for side.
func resultFor(result string, side chess.Color) book.Result {
	switch {
	case result == "1-0" && side == chess.White, result == "0-1" && side == chess.Black:
		return book.Win
	case result == "1-0", result == "0-1":
		return book.Loss
	}
	return book.Draw
}
