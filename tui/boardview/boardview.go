// Package boardview draws Squall's chess board and eval bar as terminal
// text. It is the one board renderer: the local TUI and every SSH viewer of
// `squall serve` use it, each with its own lipgloss renderer (so each
// terminal gets the colours its profile allows) and its own theme.
package boardview

import (
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/themes"
)

// RankLabelWidth is the width of the rank coordinates left of the board.
const RankLabelWidth = 2

// Size is the size of one square in terminal cells.
type Size struct{ W, H int }

// NumSizes is the number of square sizes.
const NumSizes = 4

// Sizes are the square sizes the board is drawn in, smallest first. A cell
// is about twice as tall as wide, so W = 2H+1 keeps squares roughly square.
func Sizes() [NumSizes]Size {
	return [4]Size{{3, 1}, {5, 2}, {7, 3}, {9, 4}}
}

// Width is the width of a board of squares of this size, rank labels
// included.
func (s Size) Width() int { return RankLabelWidth + 8*s.W }

// Height is the height of a board of squares of this size, the row of file
// letters included.
func (s Size) Height() int { return 8*s.H + 1 }

// maxSquareWidth bounds a square's width so that one line of a square fits
// in a fixed array; Board clamps larger sizes to it.
const maxSquareWidth = 16

// Pieces is how pieces are drawn.
type Pieces int

const (
	// Glyphs draws the filled chess symbols for both sides, told apart by
	// colour.
	Glyphs Pieces = iota
	// Letters draws piece letters in FEN case: upper case White, lower
	// case Black, so the side reads without colour too.
	Letters
)

// Piece glyphs: the filled set for both colours, told apart by colour. The
// pawn is U+25CF, not U+265F, which several terminals draw as an emoji.
var glyphs = [7]rune{' ', '●', '♞', '♝', '♜', '♛', '♚'}

// outlines are White's glyphs in an Outline theme (see themes.Theme).
var outlines = [7]rune{' ', '○', '♘', '♗', '♖', '♕', '♔'}

// Scene is what one drawing of the board shows. Make it with NewScene:
// the zero value would mark a1 as selected and under the cursor.
type Scene struct {
	Position *chess.Position
	Flipped  bool       // Black at the bottom
	Last     chess.Move // the move that led here, or chess.NullMove
	Hint     chess.Move // a move not on the board: suggested (the engine's, a puzzle's) or queued (a premove), or chess.NullMove
	Check    chess.Square
	Selected chess.Square   // the picked-up piece's square, or chess.NoSquare
	Cursor   chess.Square   // the keyboard cursor, or chess.NoSquare
	Targets  chess.Bitboard // destinations shown for the selected piece
	// Marks are the arrows and squares an annotator drew after the move
	// shown ([%cal], [%csl]: pgn.Node.Marks), in file order, a later one
	// drawn over an earlier (marks.go).
	Marks []pgn.Mark
	// Placement, when set, is drawn in place of Position's pieces (and
	// Position may be nil): a board being set up, which need not be a
	// position a game could reach.
	Placement *[64]chess.Piece
}

// SetupScene is a scene of a board being set up, seen from White's side,
// nothing marked.
func SetupScene(board *[64]chess.Piece) Scene {
	return Scene{Placement: board, Check: chess.NoSquare, Selected: chess.NoSquare, Cursor: chess.NoSquare}
}

// piece is the piece drawn on s.
func (sc *Scene) piece(s chess.Square) chess.Piece {
	if sc.Placement != nil {
		return sc.Placement[s]
	}
	return sc.Position.Piece(s)
}

// NewScene is a scene of p seen from White's side, with the king in check
// (if any) marked and nothing else.
func NewScene(p *chess.Position) Scene {
	sc := Scene{Position: p, Check: chess.NoSquare, Selected: chess.NoSquare, Cursor: chess.NoSquare}
	if p.InCheck() {
		sc.Check = p.KingSquare(p.SideToMove())
	}
	return sc
}

// ScreenSquare is the square drawn at a board row and column (0, 0 = top
// left as drawn).
func ScreenSquare(flipped bool, row, col int) chess.Square {
	if flipped {
		return chess.MakeSquare(7-col, row)
	}
	return chess.MakeSquare(col, 7-row)
}

// SquareAt is the square drawn at cell (x, y) of a board drawn by Board,
// counted from the board's top-left square (not from the rank labels).
func SquareAt(flipped bool, sz Size, x, y int) (chess.Square, bool) {
	if x < 0 || y < 0 || x >= 8*sz.W || y >= 8*sz.H {
		return chess.NoSquare, false
	}
	return ScreenSquare(flipped, y/sz.H, x/sz.W), true
}

// Landing is where a move's piece lands: the king's square for castling,
// which chess.Move stores as the rook's square.
func Landing(m chess.Move) chess.Square {
	if m.IsCastle() {
		return m.KingTo()
	}
	return m.To()
}

// Painter draws boards and eval bars in one theme for one terminal. It
// keeps the escape codes it has made, so it is not safe for concurrent
// use: each program (each SSH session) has its own.
type Painter struct {
	r      *lipgloss.Renderer
	theme  themes.Theme
	pieces Pieces
	mono   bool
	labels codes
	cells  map[cellKey]codes
}

// codes are the escape sequences that open and close a styled run. The
// board is 8×8 squares of up to 4 lines redrawn on every frame; rendering
// each through lipgloss cost most of a frame's time (≈1 ms at 120×40), so
// each style is rendered once and its codes are reused.
type codes struct{ open, close string }

type cellKey struct{ bg, fg themes.Color }

// New makes a painter for renderer r. A monochrome theme always draws
// letters (there is no colour to tell the sides' glyphs apart).
func New(r *lipgloss.Renderer, t themes.Theme, pieces Pieces) *Painter {
	if t.Monochrome {
		pieces = Letters
	}
	p := &Painter{r: r, theme: t, pieces: pieces, mono: t.Monochrome, cells: map[cellKey]codes{}}
	p.labels = codesOf(r.NewStyle().Foreground(Color(t.Muted)))
	return p
}

// Theme is the painter's theme.
func (p *Painter) Theme() themes.Theme { return p.theme }

// Pieces is how the painter draws pieces.
func (p *Painter) Pieces() Pieces { return p.pieces }

// cell returns the codes of a board cell with background bg and foreground
// fg, made once per pair.
func (p *Painter) cell(bg, fg themes.Color) codes {
	k := cellKey{bg, fg}
	c, ok := p.cells[k]
	if !ok {
		st := p.r.NewStyle().Bold(true)
		if bg != "" {
			st = st.Background(lipgloss.Color(bg))
		}
		if fg != "" {
			st = st.Foreground(lipgloss.Color(fg))
		}
		c = codesOf(st)
		p.cells[k] = c
	}
	return c
}

// codesOf splits a style's rendering of a marker into the codes around it.
// Valid for styles without padding, margins, borders or width.
func codesOf(st lipgloss.Style) codes {
	const marker = "X"
	r := st.Render(marker)
	i := strings.Index(r, marker)
	return codes{open: r[:i], close: r[i+len(marker):]}
}

// Board draws the scene with squares of size sz: 8·sz.H lines of squares,
// each led by its rank label, then a line of file letters. Lines end with
// "\n" except the last.
//
// Colours mark the last move, the hint, the selection, the cursor, a king
// in check and the annotator's marks (an arrow's squares also show its
// direction: ↑ ↗ …). A monochrome theme has none, so markers around the
// piece stand in for them: [x] the cursor, >x< the selection or the king
// in check, (x) a capture of the selected piece, {x} the last move, and a
// marked square is filled with + (green), ! (red), ~ (yellow) or = (blue).
func (p *Painter) Board(sc Scene, sz Size) string {
	sz.W = min(max(sz.W, 1), maxSquareWidth)
	sz.H = max(sz.H, 1)
	var marks [64]marked
	if len(sc.Marks) > 0 {
		marks = markSquares(sc.Marks, sc.Flipped)
	}
	var b strings.Builder
	// A cell line is its text plus at most ~40 bytes of codes.
	b.Grow(8 * sz.H * (RankLabelWidth + 32 + 8*(sz.W*3+40)))
	for row := 0; row < 8; row++ {
		for line := 0; line < sz.H; line++ {
			b.WriteString(p.labels.open)
			if line == sz.H/2 {
				b.WriteByte(byte('1' + ScreenSquare(sc.Flipped, row, 0).Rank()))
				b.WriteByte(' ')
			} else {
				b.WriteString("  ")
			}
			b.WriteString(p.labels.close)
			for col := 0; col < 8; col++ {
				s := ScreenSquare(sc.Flipped, row, col)
				p.square(&b, &sc, sz, s, line, marks[s])
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString(strings.Repeat(" ", RankLabelWidth))
	for col := 0; col < 8; col++ {
		f := ScreenSquare(sc.Flipped, 0, col).File()
		left := (sz.W - 1) / 2
		b.WriteString(p.labels.open)
		b.WriteString(strings.Repeat(" ", left))
		b.WriteByte(byte('a' + f))
		b.WriteString(strings.Repeat(" ", sz.W-1-left))
		b.WriteString(p.labels.close)
	}
	return b.String()
}

// square draws one line of one square, marked mk.
func (p *Painter) square(b *strings.Builder, sc *Scene, sz Size, s chess.Square, line int, mk marked) {
	t := &p.theme
	light := (s.File()+s.Rank())%2 == 1
	isLast := sc.Last != chess.NullMove && (s == sc.Last.From() || s == Landing(sc.Last))
	cursor := sc.Cursor != chess.NoSquare && s == sc.Cursor
	bg := t.Dark
	if light {
		bg = t.Light
	}
	switch {
	case s == sc.Check:
		bg = t.Check
	case cursor && t.Cursor != "":
		bg = t.Cursor
	case s == sc.Selected:
		bg = t.Selected
	case mk.colour != 0 && t.Mark(mk.colour) != "":
		bg = t.Mark(mk.colour)
	case sc.Hint != chess.NullMove && (s == sc.Hint.From() || s == Landing(sc.Hint)):
		bg = t.Hint
	case isLast && light:
		bg = t.LastLight
	case isLast:
		bg = t.LastDark
	}
	fill := ' '
	switch {
	case p.mono && mk.colour != 0:
		fill = monoFill(mk.colour)
	case p.mono && !light:
		fill = '.'
	}
	var content [maxSquareWidth]rune
	for i := range sz.W {
		content[i] = fill
	}
	fg := t.WhitePiece
	if line == sz.H/2 {
		mid, end := sz.W/2, sz.W-1
		if p.mono && isLast {
			content[0], content[end] = '{', '}'
		}
		if p.mono && sc.Hint != chess.NullMove && (s == sc.Hint.From() || s == Landing(sc.Hint)) {
			content[0], content[end] = '*', '*' // no colour to show the suggested move with
		}
		pc := sc.piece(s)
		switch {
		case pc != chess.NoPiece:
			if pc.Color() == chess.Black || t.Outline {
				fg = t.BlackPiece
			}
			switch {
			case p.pieces == Letters:
				content[mid] = rune(pc.Letter()) // FEN case: Black in lower case
			case t.Outline && pc.Color() == chess.White:
				content[mid] = outlines[pc.Type()]
			default:
				content[mid] = glyphs[pc.Type()]
			}
			if sc.Targets.Has(s) {
				content[0], content[end] = '(', ')'
			}
		case sc.Targets.Has(s):
			content[mid] = '·'
			fg = t.Target
		case mk.glyph != 0:
			content[mid] = mk.glyph
		}
		if mk.glyph != 0 && pc != chess.NoPiece && mid+1 < sz.W {
			content[mid+1] = mk.glyph // beside the piece, as an arrow passes over it
		}
		if p.mono && (s == sc.Selected || s == sc.Check) {
			content[0], content[end] = '>', '<' // no colour to show it with
		}
		if cursor {
			content[0], content[end] = '[', ']'
		}
	}
	var c codes
	if !p.mono {
		c = p.cell(bg, fg)
	}
	b.WriteString(c.open)
	for _, r := range content[:sz.W] {
		b.WriteRune(r)
	}
	b.WriteString(c.close)
}

// WinningChances maps centipawns to [-1, 1] as lichess does:
// 2/(1+e^(−0.00368·cp))−1.
func WinningChances(cp int) float64 {
	return 2/(1+math.Exp(-0.00368*float64(cp))) - 1
}

// ScoreChances is the eval bar's fill for a score from White's point of
// view: ±1 for a mate either way, else WinningChances.
func ScoreChances(white engine.Score) float64 {
	switch {
	case white.Mate > 0:
		return 1
	case white.Mate < 0:
		return -1
	}
	return WinningChances(white.CP)
}

// BarChances is the eval bar's fill for position p given its best line's
// score (from the side to move; nil when there is no line yet): -1 or +1
// when the side to move is mated, 0 without a line, else ScoreChances
// from White's point of view. The board and the SSH rooms both draw it.
func BarChances(p *chess.Position, best *engine.Score) float64 {
	switch {
	case p.IsCheckmate() && p.SideToMove() == chess.White:
		return -1
	case p.IsCheckmate():
		return 1
	case best == nil:
		return 0
	}
	white := *best
	if p.SideToMove() == chess.Black {
		white = white.Negate()
	}
	return ScoreChances(white)
}

// EvalBar draws a bar one cell wide and height lines high: White's share
// (chances is White's winning chances in [-1, 1]) from the bottom, or from
// the top when the board is flipped, so it grows from White's side.
func (p *Painter) EvalBar(height int, chances float64, flipped bool) []string {
	white := int(math.Round((chances + 1) / 2 * float64(height)))
	out := make([]string, height)
	var whiteCell, blackCell string
	if p.mono {
		whiteCell, blackCell = "#", "|"
	} else {
		w, k := p.cell(p.theme.EvalWhite, ""), p.cell(p.theme.EvalBlack, "")
		whiteCell, blackCell = w.open+" "+w.close, k.open+" "+k.close
	}
	for i := range out {
		fromBottom := height - 1 - i
		if flipped {
			fromBottom = i
		}
		if fromBottom < white {
			out[i] = whiteCell
		} else {
			out[i] = blackCell
		}
	}
	return out
}

// Color is a theme's text colour for lipgloss: its light or dark value by
// the terminal's background, or the terminal's own colour when the theme
// gives neither (the monochrome theme). The board's labels use it, and so
// does every style of tui/view (which builds on this package).
func Color(a themes.Adaptive) lipgloss.TerminalColor {
	if a.Light == "" && a.Dark == "" {
		return lipgloss.NoColor{}
	}
	return lipgloss.AdaptiveColor{Light: string(a.Light), Dark: string(a.Dark)}
}
