package level

import (
	"testing"

	"github.com/squall-chess/squall/engine"
)

// TestAcceptsDraw: the board's rule, now shared with the server's seats.
func TestAcceptsDraw(t *testing.T) {
	for _, c := range []struct {
		score    engine.Score
		fullmove int
		want     bool
	}{
		{engine.Score{CP: -101}, 5, true},  // worse by more than a pawn
		{engine.Score{CP: -100}, 5, false}, // a pawn down is still a game
		{engine.Score{CP: 10}, 41, true},   // level after move 40
		{engine.Score{CP: -15}, 41, true},  // within 0.15
		{engine.Score{CP: 16}, 41, false},  // better: plays on
		{engine.Score{CP: 0}, 40, false},   // level, but too early
		{engine.Score{Mate: -3}, 10, true}, // being mated
		{engine.Score{Mate: 3}, 60, false}, // mating
		{engine.Score{CP: 500}, 80, false}, // winning
	} {
		if got := AcceptsDraw(c.score, c.fullmove); got != c.want {
			t.Errorf("AcceptsDraw(%v, move %d) = %v, want %v", c.score, c.fullmove, got, c.want)
		}
	}
}
