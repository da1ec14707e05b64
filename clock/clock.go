// Package clock is a game's pair of chess clocks: base time plus an
// increment per move, as the board and the server's games run them. A
// Clock holds no timer: its owner passes the time of each event, which
// keeps games deterministic to test and lets the server store and restore
// a clock exactly.
//
// As on lichess, no clock runs before both sides have made their first
// move: opening the board and thinking about move one costs nothing, and
// until then a game can be aborted instead of lost.
//
// The sides are chess.Color, the one type every caller (the board, the
// server's games, the match runner) already holds. A clock-own side type was
// weighed and not taken: engine/chess is the bottom of the tree with no
// imports of its own, so the dependency points down and costs nothing, while
// a second side type would put a conversion at each of the 25 call sites.
package clock

import (
	"fmt"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// FirstTimedPly is a game's first ply on the clock: each side's first move
// is free.
const FirstTimedPly = 2

// Clock is a game's two clocks; the zero value is a game without clocks.
type Clock struct {
	enabled bool
	base    time.Duration
	inc     time.Duration
	noInc   [2]bool // a side that gave its increment up (an arena's berserk)
	left    [2]time.Duration
	running bool
	side    chess.Color
	since   time.Time // when the running side's clock last started
}

// New is a clock of base time and increment per move, each side starting
// with TimeControl.Initial (a control of no base, 0+1, starts at its
// increment, at least 3 s); a base and an increment of 0 is no clock at
// all.
func New(base, inc time.Duration) Clock {
	start := TimeControl{Base: base, Increment: inc}.Initial()
	return Clock{enabled: base > 0 || inc > 0, base: base, inc: inc, left: [2]time.Duration{start, start}}
}

// Enabled reports whether the game has clocks.
func (c *Clock) Enabled() bool { return c.enabled }

// Base and Increment are the time control.
func (c *Clock) Base() time.Duration      { return c.base }
func (c *Clock) Increment() time.Duration { return c.inc }

// Running reports whose clock runs, if one does.
func (c *Clock) Running() (chess.Color, bool) { return c.side, c.running }

// Remaining is a side's time at now.
func (c *Clock) Remaining(side chess.Color, now time.Time) time.Duration {
	d := c.left[side]
	if c.running && c.side == side {
		d -= now.Sub(c.since)
	}
	return max(d, 0)
}

// SetRemaining sets a side's time, as of now for a running clock (a stored
// game restored, a test's position).
func (c *Clock) SetRemaining(side chess.Color, d time.Duration, now time.Time) {
	c.left[side] = d
	if c.running && c.side == side {
		c.since = now
	}
}

// Resume runs side's clock from now if the game has reached FirstTimedPly
// (plies played), and stops the clocks otherwise (a takeback to move one).
func (c *Clock) Resume(side chess.Color, plies int, now time.Time) {
	if plies < FirstTimedPly {
		c.Stop(now)
		return
	}
	c.start(side, now)
}

func (c *Clock) start(side chess.Color, now time.Time) {
	if !c.enabled {
		return
	}
	c.running, c.side, c.since = true, side, now
}

// Stop freezes the clocks at now.
func (c *Clock) Stop(now time.Time) {
	if c.running {
		c.left[c.side] = c.Remaining(c.side, now)
		c.running = false
	}
}

// Moved ends side's turn at now, the game then having plies plies: its time
// is charged and the increment added (a free first move gets neither), and
// the opponent's clock started once both sides have moved.
func (c *Clock) Moved(side chess.Color, plies int, now time.Time) { c.MovedLag(side, plies, now, 0) }

// MovedLag is Moved forgiving up to lag of the move's time: the part of it
// the move spent on the network, not the player's thinking. The mover
// never gains time by it, only loses less.
func (c *Clock) MovedLag(side chess.Color, plies int, now time.Time, lag time.Duration) {
	c.MovedSpent(side, plies, now, max(now.Sub(c.since)-max(lag, 0), 0))
}

// MovedSpent is Moved charging the move spent, whatever time its clock
// ran (a server's premove is charged a fixed time). Nothing is charged
// while no clock runs (the free first moves).
func (c *Clock) MovedSpent(side chess.Color, plies int, now time.Time, spent time.Duration) {
	if !c.enabled {
		return
	}
	if c.running {
		c.left[side] = max(c.left[side]-spent, 0)
		if !c.noInc[side] {
			c.left[side] += c.inc
		}
		c.running = false
	}
	c.Resume(side.Other(), plies, now)
}

// DropIncrement takes side's increment away for the rest of the game (a
// player who berserks in an arena plays on their own clock without it).
func (c *Clock) DropIncrement(side chess.Color) { c.noInc[side] = true }

// Flagged reports a side whose time has run out at now.
func (c *Clock) Flagged(now time.Time) (chess.Color, bool) {
	if c.enabled && c.running && c.Remaining(c.side, now) <= 0 {
		return c.side, true
	}
	return 0, false
}

// TimeControl is the clock's control.
func (c *Clock) TimeControl() TimeControl { return TimeControl{Base: c.base, Increment: c.inc} }

// Text formats a clock: tenths below ten seconds, as lichess does.
func Text(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("0:%04.1f", d.Seconds())
	}
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
