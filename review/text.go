package review

import (
	"fmt"

	"github.com/squall-chess/squall/engine/chess"
)

// The review's totals in words, for `squall review` and the review view
// alike: one wording, with moves counted as moves and plurals right.

// None stands for a number a side cannot have: the ACPL or accuracy of a
// side that made no move (0 would read as a perfect or a hopeless game).
const None = "—"

// MoveCount is how many moves a line of plies played from start spans, as
// its move numbers count them: 1. e4 e5 2. Nf3 is 2 moves (3 plies), and a
// line starting with Black's 1... e5 2. Nf3 is 2 moves too.
func MoveCount(start *chess.Position, plies int) int {
	if plies <= 0 {
		return 0
	}
	if start.SideToMove() == chess.Black {
		plies++ // Black's first move shares its number with White's, not played here
	}
	return (plies + 1) / 2
}

// Count writes n things with the noun's plural for any n but 1: "1
// blunder", "0 mistakes", "2 inaccuracies".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Counts are the side's judged moves in words: "1 inaccuracy, 0
// mistakes, 2 blunders".
func (p Player) Counts() string {
	return Count(p.Inaccuracies, "inaccuracy", "inaccuracies") + ", " + Count(p.Mistakes, "mistake", "mistakes") +
		", " + Count(p.Blunders, "blunder", "blunders")
}

// ACPLText is the side's average centipawn loss, or None when it made no
// move.
func (p Player) ACPLText() string {
	if p.Moves == 0 {
		return None
	}
	return fmt.Sprint(p.ACPL)
}

// AccuracyText is the side's accuracy as a percentage ("87%"), or None
// when it made no move.
func (p Player) AccuracyText() string {
	if p.Moves == 0 {
		return None
	}
	return fmt.Sprintf("%.0f%%", p.Accuracy)
}
