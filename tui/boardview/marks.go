package boardview

import (
	"cmp"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// An annotator's marks (pgn.Mark: [%csl] squares, [%cal] arrows) are
// drawn as lichess draws them, in the cells a terminal has: a marked
// square is tinted in the mark's colour; an arrow tints its tail, the
// squares it crosses and its head, and each square after the tail shows
// the way the arrow came into it (↑ ↗ → …), so a knight's arrow reads as
// its L (↑ ↑ ←). A monochrome theme has no tints: a pattern per colour
// fills the square instead (monoFill).

// marked is what the marks draw on one square.
type marked struct {
	colour byte // 'G', 'R', 'Y' or 'B'; 0 when unmarked
	glyph  rune // the direction an arrow came in, or 0
}

// monoFill is the pattern that fills a square marked in each colour where
// a monochrome theme cannot tint it: + green, ! red, ~ yellow, = blue.
func monoFill(colour byte) rune {
	switch colour {
	case 'G':
		return '+'
	case 'R':
		return '!'
	case 'Y':
		return '~'
	case 'B':
		return '='
	}
	return ' '
}

// arrowGlyphs are the glyphs of the eight directions on the screen, by
// (dx+1)*3 + (dy+1), dy counted upwards.
var arrowGlyphs = [9]rune{'↙', '←', '↖', '↓', 0, '↑', '↘', '→', '↗'}

// arrowGlyph is the glyph of a step of df files and dr ranks (each −1, 0
// or 1) as the board is seen.
func arrowGlyph(df, dr int, flipped bool) rune {
	if flipped {
		df, dr = -df, -dr
	}
	return arrowGlyphs[(df+1)*3+dr+1]
}

// abs is |x|; cmp.Compare(x, 0) is x's sign.
func abs(x int) int { return max(x, -x) }

// arrowSquare is the i-th square (0 the tail, n the head) of the path
// of an arrow df files and dr ranks long drawn in n steps (arrowSteps):
// along the line for a rank, file or diagonal, the longer leg first and
// then the shorter for a knight's move, and the squares nearest the
// straight line for any other.
func arrowSquare(from chess.Square, df, dr, i, n int) chess.Square {
	f, r := from.File(), from.Rank()
	switch {
	case abs(df)+abs(dr) == 3 && abs(df) > 0 && abs(dr) > 0: // a knight's L
		long, short := abs(dr), abs(df)
		if long < short {
			long, short = short, long
		}
		step := min(i, long)
		if abs(dr) == long {
			return chess.MakeSquare(f+cmp.Compare(df, 0)*(i-step), r+cmp.Compare(dr, 0)*step)
		}
		return chess.MakeSquare(f+cmp.Compare(df, 0)*step, r+cmp.Compare(dr, 0)*(i-step))
	default:
		return chess.MakeSquare(f+roundDiv(df*i, n), r+roundDiv(dr*i, n))
	}
}

// arrowSteps is the number of steps of an arrow df files and dr ranks
// long: one a square for a line, three for a knight's L.
func arrowSteps(df, dr int) int {
	if abs(df)+abs(dr) == 3 && abs(df) > 0 && abs(dr) > 0 {
		return 3
	}
	return max(abs(df), abs(dr))
}

// roundDiv is a/b rounded to the nearest integer, halves away from zero
// (b > 0), so that an arrow's path is the same reversed.
func roundDiv(a, b int) int {
	if a < 0 {
		return -((-a*2 + b) / (2 * b))
	}
	return (a*2 + b) / (2 * b)
}

// markSquares lays marks out square by square, later marks over earlier
// ones (a square mark keeps the glyph of an arrow through it).
func markSquares(marks []pgn.Mark, flipped bool) [64]marked {
	var out [64]marked
	for _, k := range marks {
		if !k.Arrow() {
			out[k.From].colour = k.Colour
			continue
		}
		df, dr := k.To.File()-k.From.File(), k.To.Rank()-k.From.Rank()
		n := arrowSteps(df, dr)
		out[k.From] = marked{colour: k.Colour}
		prev := k.From
		for i := 1; i <= n; i++ {
			s := arrowSquare(k.From, df, dr, i, n)
			out[s] = marked{colour: k.Colour, glyph: arrowGlyph(s.File()-prev.File(), s.Rank()-prev.Rank(), flipped)}
			prev = s
		}
	}
	return out
}
