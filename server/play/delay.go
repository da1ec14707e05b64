package play

import (
	"time"

	"github.com/squall-chess/squall/server/game"
)

// AutoDelay, as a server's configured spectator delay, asks for
// SpectatorDelay's rule rather than one delay for every game.
const AutoDelay time.Duration = -1

// The bounds of a rated game's spectator delay.
const (
	MinRatedDelay = 15 * time.Second
	MaxRatedDelay = 3 * time.Minute
)

// SpectatorDelay is how far behind a game its spectators see it, moves,
// clocks and the analysis of the position shown alike. A configured delay
// of 0 or more is every game's (0: live). AutoDelay is the rule: a casual
// game is shown live; a rated game a tenth of its estimated duration
// behind (lichess's base + 40 × increment, one side's time in a 40-move
// game: so about four of a player's average moves, two of each side),
// at least MinRatedDelay and at most MaxRatedDelay — 15 s at 1+0, 26 s at
// 3+2, 60 s at 10+0, 3 min at 30+0. At a game's usual pace, whatever a
// spectator could relay to a player is then about a position the player
// has already answered. A time, not a number of moves, so that a player
// who thinks long does not freeze the spectators' board several moves
// back; the price is that a move thought over for longer than the delay
// can still be helped (relaying is made slow and seldom useful, not
// impossible).
func SpectatorDelay(p Players, tc game.TimeControl, configured time.Duration) time.Duration {
	switch {
	case configured >= 0:
		return configured
	case !p.Rated:
		return 0
	}
	return min(max(tc.Estimate()/10, MinRatedDelay), MaxRatedDelay)
}
