package tui

import (
	"fmt"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// clocks are the players' game clocks: base time plus increment per move.
// They hold no timers: the root model ticks them with the time of each
// message, which keeps tests deterministic.
type clocks struct {
	enabled bool
	left    [2]time.Duration
	inc     time.Duration
	running bool
	side    chess.Color
	since   time.Time // when the running side's clock last started
}

func newClocks(base, inc time.Duration) clocks {
	return clocks{enabled: base > 0, left: [2]time.Duration{base, base}, inc: inc}
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

// moved ends side's turn at now: its time is charged, the increment added
// and the opponent's clock started.
func (c *clocks) moved(side chess.Color, now time.Time) {
	if !c.enabled {
		return
	}
	c.stop(now)
	c.left[side] += c.inc
	c.start(side.Other(), now)
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
