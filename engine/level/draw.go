package level

import "github.com/squall-chess/squall/engine"

// AcceptsDraw is Squall's answer to a draw offer, on the board and on the
// server alike: yes when its evaluation of the game (score, from its own
// side, as its last search left it) says it is being mated, is worse by
// more than a pawn, or is level (within 0.15) after move 40 (fullmove,
// the position's move number) — a draw it has no reason to play on from.
func AcceptsDraw(score engine.Score, fullmove int) bool {
	if score.Mate != 0 {
		return score.Mate < 0
	}
	return score.CP < -100 || (abs(score.CP) <= 15 && fullmove > 40)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
