package serve

import (
	"fmt"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/presence"
	"github.com/squall-chess/squall/server/store"
)

// The game screens' lag figures (issue 37): under each player's clock,
// their lag — the round trip of their SSH connection as their server last
// measured it (sshd.LagMsg, kept with their presence record, so that a
// player connected to another server of a cluster has theirs too) — and
// the clock's flat allowance beside it (game.LagAllowance): the lag is
// shown, not charged; every move is forgiven the same.

// lagLines are the lags said under each side's clock of a game between
// players: own is the screen's player ("" a spectator), whose lag is
// ownLag as their session measured it (0: not yet); the others' come from
// pres (nil: none known). Squall's seat has none.
func lagLines(pres *presence.Presence, players store.Players, own string, ownLag time.Duration) [2]string {
	var out [2]string
	for c, h := range map[chess.Color]string{chess.White: players.White, chess.Black: players.Black} {
		if strings.HasPrefix(h, account.Reserved) {
			continue
		}
		d, ok := ownLag, ownLag > 0 && h == own
		if !ok && pres != nil {
			d, ok = pres.Lag(h)
		}
		out[c] = lagText(d, ok)
	}
	return out
}

// lagText is a lag as shown, with the clock's allowance.
func lagText(d time.Duration, known bool) string {
	allowed := fmt.Sprintf("clock allows %d ms a move", game.LagAllowance.Milliseconds())
	if !known {
		return "lag not measured · " + allowed
	}
	if d < 10*time.Millisecond { // a near server: tenths, not "0 ms"
		return fmt.Sprintf("lag %.1f ms · %s", float64(d.Microseconds())/1000, allowed)
	}
	return fmt.Sprintf("lag %d ms · %s", d.Milliseconds(), allowed)
}

// lagLines of the player's game screen.
func (m *playModel) lagLines() [2]string {
	return lagLines(m.p.Presence, m.upd.Players, m.handle, m.lag)
}
