package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a sudden-death clock: Base time for the game plus Inc
// added after each move, as "10+0.1" (seconds) describes.
type TimeControl struct {
	Base, Inc time.Duration
}

// ParseTimeControl reads "BASE[+INC]" in seconds ("10+0.1", "60", "0.5+0.005").
func ParseTimeControl(s string) (TimeControl, error) {
	base, inc, hasInc := strings.Cut(strings.TrimSpace(s), "+")
	var tc TimeControl
	var err error
	if tc.Base, err = parseSeconds(base); err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: base: %w", s, err)
	}
	if hasInc {
		if tc.Inc, err = parseSeconds(inc); err != nil {
			return TimeControl{}, fmt.Errorf("time control %q: increment: %w", s, err)
		}
	}
	if tc.Base <= 0 {
		return TimeControl{}, fmt.Errorf("time control %q: the base time must be positive", s)
	}
	return tc, nil
}

// parseSeconds reads a non-negative number of seconds.
func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	// A day is far beyond any match clock and keeps the product in range.
	if math.IsNaN(f) || f < 0 || f > 86400 {
		return 0, fmt.Errorf("%q seconds is out of range", s)
	}
	return time.Duration(math.Round(f * float64(time.Second))), nil
}

// String formats the clock as PGN's TimeControl tag does ("10+0.1").
func (tc TimeControl) String() string {
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	if tc.Inc == 0 {
		return sec(tc.Base)
	}
	return sec(tc.Base) + "+" + sec(tc.Inc)
}
