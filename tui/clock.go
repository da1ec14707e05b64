package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// clocks are the players' game clocks: base time plus increment per move.
// They hold no timers: the root model ticks them with the time of each
// message, which keeps tests deterministic.
//
// As on lichess, no clock runs before both sides have made their first
// move: opening the board and thinking about move one costs nothing, and
// until then the game can be aborted instead of lost.
type clocks struct {
	enabled bool
	base    time.Duration // the time control, for its name
	left    [2]time.Duration
	inc     time.Duration
	running bool
	side    chess.Color
	since   time.Time // when the running side's clock last started
}

func newClocks(base, inc time.Duration) clocks {
	return clocks{enabled: base > 0, base: base, left: [2]time.Duration{base, base}, inc: inc}
}

// firstTimedPly is the game's first ply on the clock: each side's first move
// is free.
const firstTimedPly = 2

// resume runs side's clock from now if the game has reached firstTimedPly
// (plies played), and stops the clocks otherwise (a takeback to move one).
func (c *clocks) resume(side chess.Color, plies int, now time.Time) {
	if plies < firstTimedPly {
		c.stop(now)
		return
	}
	c.start(side, now)
}

// remaining is a side's time at now.
func (c *clocks) remaining(side chess.Color, now time.Time) time.Duration {
	d := c.left[side]
	if c.running && c.side == side {
		d -= now.Sub(c.since)
	}
	return max(d, 0)
}

// start runs side's clock from now.
func (c *clocks) start(side chess.Color, now time.Time) {
	if !c.enabled {
		return
	}
	c.running, c.side, c.since = true, side, now
}

// stop freezes the clocks at now.
func (c *clocks) stop(now time.Time) {
	if c.running {
		c.left[c.side] = c.remaining(c.side, now)
		c.running = false
	}
}

// moved ends side's turn at now, the game having plies plies: its time is
// charged and the increment added (a free first move gets neither), and the
// opponent's clock started once both sides have moved.
func (c *clocks) moved(side chess.Color, plies int, now time.Time) {
	if !c.enabled {
		return
	}
	if c.running {
		c.stop(now)
		c.left[side] += c.inc
	}
	c.resume(side.Other(), plies, now)
}

// control names the time control as --clock and the New game dialog take
// it: minutes + increment seconds ("3+2", "0.5+0").
func (c *clocks) control() string {
	return strconv.FormatFloat(c.base.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(c.inc.Seconds(), 'f', -1, 64)
}

// pgnTag is the time control as PGN's TimeControl tag writes it: seconds +
// increment seconds ("180+2").
func (c *clocks) pgnTag() string {
	return strconv.FormatFloat(c.base.Seconds(), 'f', -1, 64) + "+" + strconv.FormatFloat(c.inc.Seconds(), 'f', -1, 64)
}

// flagged reports a side whose time has run out.
func (c *clocks) flagged(now time.Time) (chess.Color, bool) {
	if c.enabled && c.running && c.remaining(c.side, now) <= 0 {
		return c.side, true
	}
	return 0, false
}

// clockText formats a clock: tenths below ten seconds, as lichess does.
func clockText(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("0:%04.1f", d.Seconds())
	}
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
