package tui

import (
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/view"
)

// The board itself is drawn by package boardview, which the SSH server
// shares; this file holds what only the local TUI has: the board's place on
// the screen, the keyboard cursor, the selection and the mouse.

// squareSizes are the square sizes the board is drawn in, smallest first.
var squareSizes = func() [][2]int {
	var out [][2]int
	for _, s := range boardview.Sizes() {
		out = append(out, [2]int{s.W, s.H})
	}
	return out
}()

// boardGeom places the board on the screen: the square size and the screen
// cell of the top-left square's top-left corner.
type boardGeom struct {
	w, h   int
	x0, y0 int
}

func (g boardGeom) size() boardview.Size { return boardview.Size{W: g.w, H: g.h} }

// rankLabelWidth is the width of the rank coordinates left of the board.
const rankLabelWidth = boardview.RankLabelWidth

// boardView is the board's own state: orientation, keyboard cursor,
// selected piece and hint. The position comes from the root model.
type boardView struct {
	flipped  bool
	cursorOn bool
	cursor   chess.Square
	selected chess.Square
	hint     chess.Move
}

func newBoardView() boardView {
	return boardView{cursor: chess.MakeSquare(4, 1), selected: chess.NoSquare}
}

// squareAt maps a screen cell to the square drawn there.
func (b boardView) squareAt(g boardGeom, x, y int) (chess.Square, bool) {
	return boardview.SquareAt(b.flipped, g.size(), x-g.x0, y-g.y0)
}

// moveCursor moves the keyboard cursor by screen direction.
func (b *boardView) moveCursor(dx, dy int) {
	f, r := b.cursor.File(), b.cursor.Rank()
	if b.flipped {
		dx, dy = -dx, -dy
	}
	f = min(7, max(0, f+dx))
	r = min(7, max(0, r-dy))
	b.cursor = chess.MakeSquare(f, r)
}

// boardScene is what one frame of the board shows.
type boardScene struct {
	pos     *chess.Position
	last    chess.Move
	targets chess.Bitboard // legal destinations of the selected piece
	best    chess.Move     // the analysis's best move, shown as the hint is
	marks   []pgn.Mark     // the shown move's arrows and squares
	// placement, when set, is a board being set up (setupDialog), drawn
	// in the position's place with nothing marked.
	placement *[64]chess.Piece
}

// render draws the board with coordinates: 8·h rows of squares plus a row
// of file letters.
func (b boardView) render(st *view.Styles, g boardGeom, sc boardScene) string {
	if sc.placement != nil {
		s := boardview.SetupScene(sc.placement)
		s.Flipped = b.flipped
		return st.Board.Board(s, g.size())
	}
	s := boardview.NewScene(sc.pos)
	s.Flipped, s.Last, s.Hint, s.Selected, s.Targets = b.flipped, sc.last, b.hint, b.selected, sc.targets
	s.Marks = sc.marks
	if s.Hint == chess.NullMove && sc.best != chess.NullMove && sc.pos.IsLegal(sc.best) {
		s.Hint = sc.best
	}
	if b.cursorOn {
		s.Cursor = b.cursor
	}
	return st.Board.Board(s, g.size())
}

// lastTo is where a move's piece lands (the king's square for castling).
func lastTo(m chess.Move) chess.Square { return boardview.Landing(m) }

// renderEvalBar draws a bar of the given height: White's share from the
// bottom (from the top when the board is flipped). chances is White's
// winning chances in [-1, 1].
func renderEvalBar(st *view.Styles, height int, chances float64, flipped bool) []string {
	return st.Board.EvalBar(height, chances, flipped)
}
