// Package arena runs arena tournaments as lichess does: for a set length
// from a start time, at one time control, players who are waiting are
// paired again as soon as a pairing wave comes (against someone near their
// score, then their rating, never the opponent they just played), scored
// 2 a win, 1 a draw, 0 a loss, doubled on a streak of two wins (the fire),
// with berserk (half the clock for an extra point).
//
// The package is pure: an Arena is its Definition and the Events applied
// to it in order (Apply), so the same events always give the same state,
// the standings are derived by replaying them (Replay), and a pairing wave
// (Arena.Pair) is a function of that state and the time it is asked at.
// Storing the events and creating the games is the caller's (the server
// that runs the arena); Verify replays a log and checks every pairing wave in
// it against the rule, and Check recomputes the standings from the
// finished games alone.
//
// The rules, which of lichess's are followed and where they are taken
// from (lila's modules/tournament, arena/ArenaSheet.scala,
// arena/AntmaPairing.scala, arena/PairingSystem.scala, WaitingUsers.scala,
// ColorHistory.scala, Pairing.scala), are in each function's comment and
// in docs/SERVER.md.
package arena

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/termtext"
)

// Definition is what an arena is before anyone joins: its name, when it
// starts, how long it lasts and its one time control. An arena's games
// are rated.
type Definition struct {
	// ID names the arena in the store and in its games' records.
	ID string `json:"id"`
	// Name is the arena's name as people see it ("Hourly Blitz").
	Name string `json:"name"`
	// Start is when the first pairing wave may come; End is Start+Length.
	Start time.Time `json:"start"`
	// Length is how long games are paired and counted.
	Length time.Duration `json:"length"`
	// Control is every game's time control.
	Control clock.TimeControl `json:"control"`
	// Owner is the handle that created it ("" for the server's own, from
	// squall serve --arena).
	Owner string `json:"owner,omitempty"`
}

// Length bounds: a minute (lichess's shortest arena is 20 minutes; a
// short one is a quick club event here, and a test's), and a day, which
// is no longer one sitting.
const (
	MinLength = time.Minute
	MaxLength = 24 * time.Hour
)

// End is when the arena ends: no game is paired from then, and a game
// still being played then does not count (lichess: "games in progress
// must be finished, however, they don't count for the tournament").
func (d Definition) End() time.Time { return d.Start.Add(d.Length) }

// Check reports what is wrong with the definition (nil when nothing is).
func (d Definition) Check() error {
	var errs []error
	if d.ID == "" {
		errs = append(errs, errors.New("arena: no id"))
	}
	if strings.TrimSpace(d.Name) == "" || d.Name != termtext.SafeLine(d.Name) {
		errs = append(errs, fmt.Errorf("arena name %q: want a line of printable text", d.Name))
	}
	if d.Start.IsZero() {
		errs = append(errs, errors.New("arena: no start time"))
	}
	if d.Length < MinLength || d.Length > MaxLength {
		errs = append(errs, fmt.Errorf("arena length %v: want %v to %v", d.Length, MinLength, MaxLength))
	}
	if err := d.Control.CheckRated(); err != nil {
		errs = append(errs, fmt.Errorf("arena control: %w", err))
	}
	return errors.Join(errs...)
}

// Berserkable says whether a player may berserk at this control: not at a
// control with no base (0+1), as lichess (Clock.Config.berserkable).
func Berserkable(tc clock.TimeControl) bool { return tc.Base > 0 }

// BerserkControl is a berserking player's own clock, as lichess's: half
// the base (none taken when the base is under 40 increments, lichess's
// berserkPenalty) and no increment.
func BerserkControl(tc clock.TimeControl) clock.TimeControl {
	base := tc.Base
	if base >= 40*tc.Increment {
		base -= base / 2
	}
	return clock.TimeControl{Base: base}
}

// WaitBeforePairing is how long players must wait before a pairing wave
// that is not the first of any of them (lichess's WaitingUsers.waitSeconds,
// from the control's estimated duration E = base + 40 × increment): 8 s
// under 30 s, 10 s under 60 s, else E/10 + 6 s between 15 s and 50 s —
// 15 s at 1+0, 24 s at 3+0, 36 s at 5+0. Waiting a little gathers several
// players, so that a wave can pair by score rather than by who came first.
func WaitBeforePairing(tc clock.TimeControl) time.Duration {
	est := int(tc.Estimate() / time.Second)
	switch {
	case est < 30:
		return 8 * time.Second
	case est < 60:
		return 10 * time.Second
	}
	return time.Duration(min(max(est/10+6, 15), 50)) * time.Second
}
