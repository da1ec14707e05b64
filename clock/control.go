package clock

import (
	"fmt"
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
	b, i, ok := strings.Cut(strings.TrimSpace(s), "+")
	if !ok {
		i = "0"
	}
	mins, err1 := strconv.ParseFloat(b, 64)
	secs, err2 := strconv.ParseFloat(i, 64)
	if err1 != nil || err2 != nil || !(mins > 0 && mins <= 600) || !(secs >= 0 && secs <= 600) {
		return TimeControl{}, fmt.Errorf("time control %q: want MINUTES+SECONDS, e.g. 5+3", s)
	}
	return TimeControl{Base: time.Duration(mins * float64(time.Minute)), Increment: time.Duration(secs * float64(time.Second))}, nil
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
