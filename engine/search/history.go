package search

import "github.com/squall-chess/squall/engine/chess"

// historyMax bounds history values; the gravity update
// h += bonus - h*|bonus|/historyMax keeps them inside ±historyMax and lets
// old knowledge fade as new bonuses arrive.
const historyMax = 16384

// pieceTo is a continuation-history table: scores for moving a piece to a
// square, given the move played one or two plies before.
type pieceTo [16][64]int16

// history is one thread's move-ordering memory.
type history struct {
	butterfly [2][64][64]int16
	cont      [16][64]pieceTo // by previous piece and target square
	killers   [maxPly + 2][2]chess.Move
	counter   [16][64]chess.Move
}

func gravity(h *int16, bonus int) {
	v := int(*h)
	v += bonus - v*abs(bonus)/historyMax
	*h = int16(v)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// historyBonus is the reward for a quiet move that caused a cutoff at depth.
func historyBonus(depth int) int { return min(16*depth*depth+32*depth, 1600) }

func (h *history) clear() { *h = history{} }
