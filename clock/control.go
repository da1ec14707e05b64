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
// ("3+2", "0.5+0"; "5" is 5+0), up to 600 minutes and 600 seconds.
func ParseTimeControl(s string) (TimeControl, error) {
	tc, err := parse(s, time.Minute, 600*time.Minute, 600*time.Second)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: %w; want MINUTES+SECONDS, e.g. 5+3", s, err)
	}
	return tc, nil
}

// ParseSeconds reads "SECONDS+SECONDS" as engine testers write controls
// (cutechess's "10+0.1"; "60" is 60+0), up to a day each: the clock of an
// engine match, where a game of a few seconds is the usual thing.
func ParseSeconds(s string) (TimeControl, error) {
	tc, err := parse(s, time.Second, 24*time.Hour, 24*time.Hour)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: %w; want SECONDS+SECONDS, e.g. 10+0.1", s, err)
	}
	return tc, nil
}

// parse reads "BASE[+INC]", the base in unit and the increment in seconds,
// each bounded; the base must come to at least a nanosecond.
func parse(s string, unit, maxBase, maxInc time.Duration) (TimeControl, error) {
	b, i, ok := strings.Cut(strings.TrimSpace(s), "+")
	if !ok {
		i = "0"
	}
	base, err := amount(b, unit, maxBase)
	if err != nil {
		return TimeControl{}, fmt.Errorf("base: %w", err)
	}
	if base <= 0 {
		return TimeControl{}, errors.New("the base time must be positive")
	}
	inc, err := amount(i, time.Second, maxInc)
	if err != nil {
		return TimeControl{}, fmt.Errorf("increment: %w", err)
	}
	return TimeControl{Base: base, Increment: inc}, nil
}

// amount reads a non-negative number of units, at most limit.
func amount(s string, unit, limit time.Duration) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	// NaN fails both comparisons, and the limit keeps the product in range.
	if !(f >= 0 && f*float64(unit) <= float64(limit)) {
		return 0, fmt.Errorf("%q is out of range (0 to %v)", s, limit)
	}
	return time.Duration(math.Round(f * float64(unit))), nil
}

// String is the control as ParseTimeControl reads it: "3+2", "0.5+0".
func (tc TimeControl) String() string {
	return strconv.FormatFloat(tc.Base.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
}

// PGNTag is the control as PGN's TimeControl tag writes it: seconds +
// increment seconds ("180+2").
func (tc TimeControl) PGNTag() string {
	return strconv.FormatFloat(tc.Base.Seconds(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
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
	est := tc.Base + 40*tc.Increment
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
