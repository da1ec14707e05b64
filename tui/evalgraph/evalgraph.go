// Package evalgraph is the one eval graph of the board and of game review:
// a game's evaluation ply by ply, from White's point of view, drawn as an
// area chart capped at ±5 pawns (a forced mate at the cap), the plies with
// no known evaluation left as gaps and the shown ply marked under it; and
// the jump to the biggest swings of that evaluation (NextSwing).
package evalgraph

import (
	"cmp"
	"slices"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/review"
	"github.com/squall-chess/squall/tui/view"
)

// Cap is the most the graph shows either way, in centipawns: ±5 pawns, as
// lichess's chart. A forced mate is drawn at the cap.
const Cap = 500

// MinSwing is the least change of the win% (0–100) between two plies that
// NextSwing counts as a swing: what the review calls an inaccuracy, so
// that stepping through the swings never lands on noise.
const MinSwing = review.InaccuracyDrop * 50

// Point is one position's evaluation, White's view, in centipawns with a
// forced mate as ±review.Ceiling (the review's scale, on which swings are
// measured); Known is false where there is none, which the graph leaves
// blank.
type Point struct {
	CP    int
	Known bool
}

// FromPGN is the point of a PGN [%eval] (unknown when there is none).
func FromPGN(e pgn.Eval) Point {
	switch e.Kind {
	case pgn.Centipawns:
		return FromReview(review.Eval{CP: e.Value})
	case pgn.Mate:
		return FromReview(review.Eval{Mate: cmp.Or(e.Value, 1)})
	}
	return Point{}
}

// FromReview is the point of a review's evaluation (a finished game's
// result counts as its score: mate at the ceiling, stalemate 0).
func FromReview(e review.Eval) Point {
	return Point{CP: e.Ceiled(), Known: true}
}

// PGNEval is an engine's exact score of a position whose side to move is
// stm, at depth, as a PGN [%eval] (White's view); ok is false for a bound,
// which says only which side of a window the score is.
func PGNEval(s engine.Score, stm chess.Color, depth int) (e pgn.Eval, ok bool) {
	if s.Bound != engine.Exact {
		return pgn.Eval{}, false
	}
	if stm == chess.Black {
		s = s.Negate()
	}
	if s.Mate != 0 {
		return pgn.Eval{Kind: pgn.Mate, Value: s.Mate, Depth: depth}, true
	}
	return pgn.Eval{Kind: pgn.Centipawns, Value: s.CP, Depth: depth}, true
}

// Known reports whether any point is known: a graph of none is not worth
// its rows.
func Known(points []Point) bool {
	return slices.ContainsFunc(points, func(p Point) bool { return p.Known })
}

// maxStretch is the most columns one ply takes when the game is shorter
// than the width: wide enough to see and to mark, not so wide that a short
// game looks like a bar chart of a few plies.
const maxStretch = 3

// layout maps plies to columns: each of n plies takes k columns (k ≥ 1);
// when there are more plies than width, each column stands for a range of
// plies and k is 0.
func layout(n, width int) (cols, k int) {
	if n <= width {
		k = max(1, min(maxStretch, width/n))
		return n * k, k
	}
	return width, 0
}

// plies are the first and one past the last ply column c shows.
func plies(c, n, width, k int) (int, int) {
	if k > 0 {
		return c / k, c/k + 1
	}
	return c * n / width, (c + 1) * n / width
}

// Render draws points (one per ply: the start, then after each move) in
// exactly height lines of width cells: height-1 rows of bars rising from
// the bottom (0 in the middle, +Cap full, −Cap the lowest eighth, so that
// an unknown ply, blank, is never taken for a lost one), the plies where
// White stands better in the text colour and the others muted, and a zero
// line across the middle when the bars are an even number of rows; then
// an axis under the plies with ▲ under cur. A game longer than the width is
// squeezed, each column showing the last known point of its plies.
func Render(st *view.Styles, points []Point, cur, width, height int) []string {
	if width <= 0 || height <= 0 {
		return nil
	}
	n := max(1, len(points))
	cols, k := layout(n, width)
	bars := max(1, height-1)
	levels := []rune("▁▂▃▄▅▆▇█")
	rows := make([]strings.Builder, bars)
	// An even number of rows has 0 on a row's edge: the zero line is drawn
	// there (▁ in the row above it) where no bar rises through it.
	axisRow := -1
	if bars%2 == 0 {
		axisRow = bars/2 - 1
	}
	var axis strings.Builder
	for c := 0; c < cols; c++ {
		from, to := plies(c, n, width, k)
		p := Point{}
		for i := from; i < min(to, len(points)); i++ {
			if points[i].Known {
				p = points[i]
			}
		}
		switch {
		case from <= cur && cur < to && (k <= 1 || c%k == k/2):
			axis.WriteString(st.Accent.Render("▲"))
		default:
			axis.WriteString(st.Muted.Render("─"))
		}
		// Eighths of the bars' height: 1 at −Cap, all of them at +Cap (none
		// for an unknown ply).
		units, style := 0, st.Text
		if p.Known {
			cp := max(-Cap, min(Cap, p.CP))
			units = 1 + (cp+Cap)*(bars*8-1)/(2*Cap)
			if cp < 0 {
				style = st.Muted
			}
		}
		for r := range rows {
			fromBottom := bars - 1 - r
			u := max(0, min(8, units-fromBottom*8))
			switch {
			case u > 0:
				rows[r].WriteString(style.Render(string(levels[u-1])))
			case r == axisRow:
				rows[r].WriteString(st.Muted.Render("▁"))
			default:
				rows[r].WriteByte(' ')
			}
		}
	}
	out := make([]string, 0, height)
	for r := range rows {
		out = append(out, view.Pad(rows[r].String(), width))
	}
	if height > 1 {
		out = append(out, view.Pad(axis.String(), width))
	}
	return out
}

// winPercent is White's win% of a known point.
func winPercent(p Point) float64 { return review.WinPercent(p.CP) }

// Swings are the plies whose move changed the win% by at least MinSwing
// (the point before and after it known), the biggest change first (the
// earlier ply first among equals).
func Swings(points []Point) []int {
	type swing struct {
		ply  int
		size float64
	}
	var all []swing
	for i := 1; i < len(points); i++ {
		a, b := points[i-1], points[i]
		if !a.Known || !b.Known {
			continue
		}
		d := winPercent(b) - winPercent(a)
		if d < 0 {
			d = -d
		}
		if d >= MinSwing {
			all = append(all, swing{i, d})
		}
	}
	slices.SortStableFunc(all, func(x, y swing) int { return cmp.Compare(y.size, x.size) })
	out := make([]int, len(all))
	for i, s := range all {
		out[i] = s.ply
	}
	return out
}

// NextSwing is the ply to show after cur when the user steps through the
// swings biggest first: the swing after cur's in that order (round again
// after the last), or the biggest when cur is none; ok is false when the
// points have no swing.
func NextSwing(points []Point, cur int) (ply int, ok bool) {
	s := Swings(points)
	if len(s) == 0 {
		return 0, false
	}
	i := slices.Index(s, cur)
	return s[(i+1)%len(s)], true
}
