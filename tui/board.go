package tui

import (
	"math"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/themes"
)

// Board square sizes in terminal cells, smallest first. A cell is about
// twice as tall as wide, so w ≈ 2h+1 keeps squares roughly square.
var squareSizes = [][2]int{{3, 1}, {5, 2}, {7, 3}, {9, 4}}

// Piece glyphs: the filled set for both colours, told apart by colour. The
// pawn is U+25CF, not U+265F, which several terminals draw as an emoji.
var glyphs = [7]string{"", "●", "♞", "♝", "♜", "♛", "♚"}

// boardGeom places the board on the screen: the square size and the screen
// cell of the top-left square's top-left corner.
type boardGeom struct {
	w, h   int
	x0, y0 int
}

// rankLabelWidth is the width of the rank coordinates left of the board.
const rankLabelWidth = 2

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

// screenSquare maps a board row/column (0,0 = top left as drawn) to a square.
func (b boardView) screenSquare(row, col int) chess.Square {
	if b.flipped {
		return chess.MakeSquare(7-col, row)
	}
	return chess.MakeSquare(col, 7-row)
}

// squareAt maps a screen cell to the square drawn there.
func (b boardView) squareAt(g boardGeom, x, y int) (chess.Square, bool) {
	x -= g.x0
	y -= g.y0
	if x < 0 || y < 0 || x >= 8*g.w || y >= 8*g.h {
		return chess.NoSquare, false
	}
	return b.screenSquare(y/g.h, x/g.w), true
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
}

// render draws the board with coordinates: 8·h rows of squares plus a row
// of file letters.
func (b boardView) render(st *styles, g boardGeom, sc boardScene) string {
	t := st.theme
	var sb strings.Builder
	check := chess.NoSquare
	if sc.pos.InCheck() {
		check = sc.pos.KingSquare(sc.pos.SideToMove())
	}
	labels := codesOf(st.muted)
	for row := 0; row < 8; row++ {
		for line := 0; line < g.h; line++ {
			label := "  "
			if line == g.h/2 {
				label = string(rune('1'+b.screenSquare(row, 0).Rank())) + " "
			}
			sb.WriteString(labels.wrap(label))
			for col := 0; col < 8; col++ {
				s := b.screenSquare(row, col)
				sb.WriteString(b.cell(st, t, g, sc, s, check, line))
			}
			sb.WriteByte('\n')
		}
	}
	sb.WriteString(strings.Repeat(" ", rankLabelWidth))
	for col := 0; col < 8; col++ {
		f := b.screenSquare(0, col).File()
		sb.WriteString(labels.wrap(center(string(rune('a'+f)), g.w)))
	}
	return sb.String()
}

// cell draws one line of one square.
func (b boardView) cell(st *styles, t themes.Theme, g boardGeom, sc boardScene, s, check chess.Square, line int) string {
	light := (s.File()+s.Rank())%2 == 1
	bg := t.Dark
	if light {
		bg = t.Light
	}
	isLast := sc.last != chess.NullMove && (s == sc.last.From() || s == lastTo(sc.last))
	switch {
	case s == check:
		bg = t.Check
	case b.cursorOn && s == b.cursor && t.Cursor != "":
		bg = t.Cursor
	case s == b.selected:
		bg = t.Selected
	case b.hint != chess.NullMove && (s == b.hint.From() || s == lastTo(b.hint)):
		bg = t.Hint
	case isLast && light:
		bg = t.LastLight
	case isLast:
		bg = t.LastDark
	}
	pc := sc.pos.Piece(s)
	fill := " "
	if st.mono && !light {
		fill = "."
	}
	mid := g.h / 2
	content := []rune(strings.Repeat(fill, g.w))
	fg := t.WhitePiece
	if line == mid {
		c := g.w / 2
		switch {
		case pc != chess.NoPiece:
			if pc.Color() == chess.Black {
				fg = t.BlackPiece
			}
			if st.letters {
				l := rune(pc.Letter())
				if !st.mono {
					l = rune(pc.Type().Letter())
				}
				content[c] = l
			} else {
				content[c] = []rune(glyphs[pc.Type()])[0]
			}
			if sc.targets.Has(s) {
				content[0], content[g.w-1] = '(', ')'
			}
		case sc.targets.Has(s):
			content[c] = '·'
			fg = t.Target
		}
		if st.mono && (s == b.selected || s == check) {
			content[0], content[g.w-1] = '>', '<' // no colour to show it with
		}
		if b.cursorOn && s == b.cursor {
			content[0], content[g.w-1] = '[', ']'
		}
	}
	if st.mono {
		return string(content)
	}
	return st.sq(bg, fg).wrap(string(content))
}

// lastTo is where a move's piece lands (the king's square for castling).
func lastTo(m chess.Move) chess.Square {
	if m.IsCastle() {
		return m.KingTo()
	}
	return m.To()
}

// center pads s to width w, centred.
func center(s string, w int) string {
	n := len([]rune(s))
	if n >= w {
		return s
	}
	l := (w - n) / 2
	return strings.Repeat(" ", l) + s + strings.Repeat(" ", w-n-l)
}

// winningChances maps centipawns to [-1, 1] as lichess does:
// 2/(1+e^(−0.00368·cp))−1.
func winningChances(cp int) float64 {
	return 2/(1+math.Exp(-0.00368*float64(cp))) - 1
}

// renderEvalBar draws a bar of the given height: White's share from the
// bottom (from the top when the board is flipped). chances is White's
// winning chances in [-1, 1].
func renderEvalBar(st *styles, height int, chances float64, flipped bool) []string {
	white := int(math.Round((chances + 1) / 2 * float64(height)))
	out := make([]string, height)
	for i := range out {
		fromBottom := height - 1 - i
		if flipped {
			fromBottom = i
		}
		isWhite := fromBottom < white
		switch {
		case st.mono && isWhite:
			out[i] = "#"
		case st.mono:
			out[i] = "|"
		case isWhite:
			out[i] = st.sq(st.theme.EvalWhite, "").wrap(" ")
		default:
			out[i] = st.sq(st.theme.EvalBlack, "").wrap(" ")
		}
	}
	return out
}
