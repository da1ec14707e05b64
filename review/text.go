package review

import (
	"fmt"

	"github.com/squall-chess/squall/internal/plural"
)

// The review's totals in words, for `squall review` and the review view
// alike: one wording, with moves counted as moves (chess.Position.MovesIn)
// and plurals right (internal/plural).

// None stands for a number a side cannot have: the ACPL or accuracy of a
// side that made no move (0 would read as a perfect or a hopeless game).
const None = "—"

// Counts are the side's judged moves in words: "1 inaccuracy, 0
// mistakes, 2 blunders".
func (p Player) Counts() string {
	return plural.Count(p.Inaccuracies, "inaccuracy") + ", " + plural.Count(p.Mistakes, "mistake") +
		", " + plural.Count(p.Blunders, "blunder")
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
