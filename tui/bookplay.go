package tui

import (
	"fmt"

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

// bookPlay is a book move the engine played in the game in progress.
type bookPlay struct {
	ply    int         // the move's ply from the start (Node.Ply)
	side   chess.Color // the side that played it
	played book.Played // its book key and code, for learning
}

// pickBook chooses the engine's book move in the shown position, if the
// book has a playable one. Polyglot books hold standard chess only.
func (m *Model) pickBook() (chess.Move, bool) {
	b := m.opt.Book
	if b == nil || m.pos.Chess960() {
		return chess.NullMove, false
	}
	return b.Pick(m.pos, m.rng, bookVariety, m.opt.BookLearning)
}

// startBookMove answers the engine's turn with mv from the book: the move
// arrives as a bookMsg, as a search's best move would.
func (m *Model) startBookMove(mv chess.Move) tea.Cmd {
	m.bookSeq++
	id := m.bookSeq
	m.pendingBook = &bookWait{id: id, node: m.cur}
	return func() tea.Msg { return bookMsg{id: id, move: mv} }
}

// handleBook plays the engine's book move, unless the game has moved on
// since it was chosen (a takeback, a new game, a view opened), in which
// case whatever now runs was started by that change.
func (m *Model) handleBook(msg bookMsg) tea.Cmd {
	w := m.pendingBook
	if w == nil || w.id != msg.id {
		return nil
	}
	m.pendingBook = nil
	if w.node != m.cur || !m.engineToMove() || !m.pos.IsLegal(msg.move) {
		return m.sync()
	}
	return m.play(msg.move, true)
}

// recordBook notes that the engine plays mv, from the book, in the shown
// position (before the move is made).
func (m *Model) recordBook(mv chess.Move) {
	m.bookLine = append(m.bookLine, bookPlay{
		ply:    m.cur.Ply() + 1,
		side:   m.pos.SideToMove(),
		played: book.Played{Key: book.Key(m.pos), Move: book.EncodeMove(mv)},
	})
}

// dropBookAfter forgets the book moves beyond ply, taken back: the game
// that is learned from is the one that reaches a result. Should the
// engine reach those positions again, it chooses (and records) afresh.
func (m *Model) dropBookAfter(ply int) {
	keep := m.bookLine[:0]
	for _, p := range m.bookLine {
		if p.ply <= ply {
			keep = append(keep, p)
		}
	}
	m.bookLine = keep
}

// learnBook credits a finished game's result to the book moves the engine
// played in it, each from the side that played it (in an engine-vs-engine
// game both sides learn), and saves the learning file. It learns from a
// game once, at its first end: a game resumed by a takeback after its end
// is not counted again. The save is done here, in Update, for the reason
// markBookMove gives; a failure is reported and the game is kept.
func (m *Model) learnBook(result string) {
	if m.learned {
		return
	}
	m.learned = true
	l := m.opt.BookLearning
	if l == nil || len(m.bookLine) == 0 {
		return
	}
	for _, side := range []chess.Color{chess.White, chess.Black} {
		var line []book.Played
		for _, p := range m.bookLine {
			if p.side == side {
				line = append(line, p.played)
			}
		}
		if len(line) > 0 {
			l.Update(line, resultFor(result, side))
		}
	}
	if err := l.Save(); err != nil {
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
