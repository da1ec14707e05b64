package clock

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is base time plus an increment per move.
type TimeControl struct {
	Base, Increment time.Duration
}

// ParseTimeControl reads "MINUTES+SECONDS" as lichess writes controls
// ("3+2", "0.25+0"; "5" is 5+0), up to 600 minutes and 600 seconds, each a
// whole number of seconds (as lichess's are, and as PGN's TimeControl tag
// then writes them). The base may be 0 with an increment ("0+1": see
// TimeControl.Initial); 0+0 is no time at all.
func ParseTimeControl(s string) (TimeControl, error) {
	tc, err := parse(s, time.Minute, 600*time.Minute, 600*time.Second, true)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: %w; want MINUTES+SECONDS, e.g. 5+3", s, err)
	}
	return tc, nil
}

// ParseSeconds reads "SECONDS+SECONDS" as engine testers write controls
// (cutechess's "10+0.1"; "60" is 60+0), up to a day each: the clock of an
// engine match, where a game of a few seconds is the usual thing. Its base
// must be positive (a match with a base of 0 has no clock).
func ParseSeconds(s string) (TimeControl, error) {
	tc, err := parse(s, time.Second, 24*time.Hour, 24*time.Hour, false)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: %w; want SECONDS+SECONDS, e.g. 10+0.1", s, err)
	}
	return tc, nil
}

// parse reads "BASE[+INC]", the base in unit and the increment in seconds,
// each bounded. A lichess control (whole) is whole seconds, with a base of
// 0 allowed beside a positive increment; any other's base must come to at
// least a nanosecond.
func parse(s string, unit, maxBase, maxInc time.Duration, whole bool) (TimeControl, error) {
	b, i, ok := strings.Cut(strings.TrimSpace(s), "+")
	if !ok {
		i = "0"
	}
	base, err := amount(b, unit, maxBase, !whole)
	if err != nil {
		return TimeControl{}, fmt.Errorf("base: %w", err)
	}
	inc, err := amount(i, time.Second, maxInc, false)
	if err != nil {
		return TimeControl{}, fmt.Errorf("increment: %w", err)
	}
	switch {
	case whole && base%time.Second != 0:
		return TimeControl{}, fmt.Errorf("base: %s minutes is %v, not a whole number of seconds (0.25 is 15 s)", strings.TrimSpace(b), base)
	case whole && inc%time.Second != 0:
		return TimeControl{}, fmt.Errorf("increment: %s is not a whole number of seconds", strings.TrimSpace(i))
	case whole && base == 0 && inc == 0:
		return TimeControl{}, errors.New("no time at all: the base or the increment must be positive")
	case !whole && base <= 0:
		return TimeControl{}, errors.New("the base time must be positive")
	}
	return TimeControl{Base: base, Increment: inc}, nil
}

// amount reads a number of units, at most limit and at least 0 (above 0
// when positive). An error states the range it checks in the unit typed:
// "999" minutes is "out of range (0 to 600 minutes)", not "(0 to 10h0m0s)"
// (issue 33, G10).
func amount(s string, unit, limit time.Duration, positive bool) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	// NaN fails both comparisons, and the limit keeps the product in range.
	if !(f >= 0 && f*float64(unit) <= float64(limit)) || (positive && f == 0) {
		lo := "0 to"
		if positive {
			lo = "more than 0, up to"
		}
		return 0, fmt.Errorf("%q is out of range (%s %s %s)", s, lo, strconv.FormatFloat(float64(limit)/float64(unit), 'f', -1, 64), unitName(unit))
	}
	return time.Duration(math.Round(f * float64(unit))), nil
}

func unitName(u time.Duration) string {
	if u == time.Minute {
		return "minutes"
	}
	return "seconds"
}

// String is the control as ParseTimeControl reads it: "3+2", "0.25+0".
func (tc TimeControl) String() string {
	return strconv.FormatFloat(tc.Base.Minutes(), 'f', -1, 64) + "+" + seconds(tc.Increment)
}

// PGNTag is the control as PGN's TimeControl tag writes it: seconds +
// increment seconds ("180+2", "15+0" for ¼+0), whole numbers where the
// control is, decimals only where it truly has them (a match's "10+0.1").
func (tc TimeControl) PGNTag() string { return seconds(tc.Base) + "+" + seconds(tc.Increment) }

// seconds writes d in seconds: an integer when d is whole seconds.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// Initial is each side's time at the start. A control with no base (0+1)
// starts each clock at its increment, at least 3 s, as lichess does: each
// side's first move is free (no clock runs before both have moved), and
// the clock then needs time on it before the first increment is earned.
func (tc TimeControl) Initial() time.Duration {
	if tc.Base == 0 && tc.Increment > 0 {
		return max(tc.Increment, ZeroBaseStart)
	}
	return tc.Base
}

// ZeroBaseStart is the least time a clock of no base starts with.
const ZeroBaseStart = 3 * time.Second

// Estimate is the control's estimated game length, as lichess estimates
// it: base + 40 increments (one side's time in a 40-move game).
func (tc TimeControl) Estimate() time.Duration { return tc.Base + 40*tc.Increment }

// MinRated is the least Estimate of a rated game's control: lichess's
// fastest rated controls, ¼+0 and 0+1, come to 15 s and 40 s. Anything
// faster may be played casual only: a game of a few seconds is decided by
// the network, not the players, and rating it would make ratings cheap.
const MinRated = 15 * time.Second

// ErrTooFastToRate is CheckRated's refusal.
var ErrTooFastToRate = errors.New("too fast to be rated")

// CheckRated reports why a game of this control cannot be rated (nil when
// it can): its Estimate must be at least MinRated. The one rule, for every
// place that makes a rated game.
func (tc TimeControl) CheckRated() error {
	if est := tc.Estimate(); est < MinRated {
		return fmt.Errorf("%s is %w: base + 40 × increment is %v, under %v (the fastest rated controls are ¼+0 and 0+1; a faster game may be casual)",
			tc, ErrTooFastToRate, est, MinRated)
	}
	return nil
}

// Speed is a time control's category, for ratings.
type Speed uint8

const (
	Bullet Speed = iota
	Blitz
	Rapid
	Classical
)

func (s Speed) String() string { return [...]string{"bullet", "blitz", "rapid", "classical"}[s] }

// Speed classifies the control by its estimated game length, base + 40
// increments, as lichess does: under 3 minutes bullet, under 8 blitz, under
// 25 rapid.
func (tc TimeControl) Speed() Speed {
	est := tc.Estimate()
	switch {
	case est < 3*time.Minute:
		return Bullet
	case est < 8*time.Minute:
		return Blitz
	case est < 25*time.Minute:
		return Rapid
	}
	return Classical
}
