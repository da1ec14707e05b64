package play

import (
	"testing"
	"time"

	"github.com/squall-chess/squall/server/game"
)

// TestSpectatorDelay is issue 33's F2 (the rule): a rated game's
// spectators saw it, and Squall's analysis of it, live (the server's
// delay was 0 by default). By default a rated game is shown a tenth of its
// estimated duration behind, 15 s to 3 min; a casual game live; a delay
// the server sets is every game's.
func TestSpectatorDelay(t *testing.T) {
	rated, casual := Players{White: "ann", Black: "bob", Rated: true}, Players{White: "ann", Black: "bob"}
	for _, c := range []struct {
		p          Players
		tc         game.TimeControl
		configured time.Duration
		want       time.Duration
	}{
		{rated, game.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, AutoDelay, 26 * time.Second},
		{rated, game.TimeControl{Base: 10 * time.Minute}, AutoDelay, time.Minute},
		{rated, game.TimeControl{Base: time.Minute}, AutoDelay, 15 * time.Second},
		{rated, game.TimeControl{Increment: time.Second}, AutoDelay, 15 * time.Second},
		{rated, game.TimeControl{Base: 30 * time.Minute, Increment: 20 * time.Second}, AutoDelay, 3 * time.Minute},
		{casual, game.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, AutoDelay, 0},
		{rated, game.TimeControl{Base: 3 * time.Minute}, 0, 0},
		{casual, game.TimeControl{Base: 3 * time.Minute}, 5 * time.Second, 5 * time.Second},
	} {
		if got := SpectatorDelay(c.p, c.tc, c.configured); got != c.want {
			t.Errorf("rated %v %v, configured %v: %v, want %v", c.p.Rated, c.tc, c.configured, got, c.want)
		}
	}
}
