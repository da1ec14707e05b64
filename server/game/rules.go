package game

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// TimeControl is base time plus an increment per move.
type TimeControl struct {
	Base, Increment time.Duration
}

// ParseTimeControl reads "MINUTES+SECONDS" ("3+2", "0.5+0").
func ParseTimeControl(s string) (TimeControl, error) {
	b, i, ok := strings.Cut(strings.TrimSpace(s), "+")
	base, err1 := strconv.ParseFloat(b, 64)
	inc, err2 := strconv.ParseFloat(i, 64)
	if !ok || err1 != nil || err2 != nil || base <= 0 || base > 180 || inc < 0 || inc > 60 {
		return TimeControl{}, fmt.Errorf("time control %q: want minutes+seconds, e.g. 3+2 (at most 180+60)", s)
	}
	return TimeControl{Base: time.Duration(base * float64(time.Minute)), Increment: time.Duration(inc * float64(time.Second))}, nil
}

func (tc TimeControl) String() string {
	return strconv.FormatFloat(tc.Base.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
}

// pgnTag is the control as PGN's TimeControl tag writes it ("180+2").
func (tc TimeControl) pgnTag() string {
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

// FirstMoveDeadline is how long a side has for its first move before the
// game is aborted: lichess's 15 to 35 seconds, longer for slower games.
func FirstMoveDeadline(tc TimeControl) time.Duration {
	return [...]time.Duration{15 * time.Second, 20 * time.Second, 30 * time.Second, 35 * time.Second}[tc.Speed()]
}

// Grace is how long a disconnected player's game waits for them before the
// opponent may claim it: about lichess's, longer for slower games.
func Grace(tc TimeControl) time.Duration {
	return [...]time.Duration{30 * time.Second, 40 * time.Second, 60 * time.Second, 90 * time.Second}[tc.Speed()]
}

// Termination is why a game ended.
type Termination string

const (
	Checkmate            Termination = "checkmate"
	Stalemate            Termination = "stalemate"
	Repetition           Termination = "threefold repetition"
	FiftyMoves           Termination = "fifty-move rule"
	InsufficientMaterial Termination = "insufficient material"
	Resignation          Termination = "resignation"
	TimeForfeit          Termination = "time forfeit"
	Agreement            Termination = "agreement"
	Aborted              Termination = "aborted"
	Abandoned            Termination = "abandoned"
)

// Result is how a game ended: a winner, a draw, or neither (aborted).
type Result struct {
	Winner      chess.Color
	Draw        bool
	Termination Termination
}

// Decided reports whether the game counts (it was not aborted).
func (r Result) Decided() bool { return r.Termination != Aborted && r.Termination != "" }

// PGN is the result as PGN writes it ("1-0", "0-1", "1/2-1/2", "*").
func (r Result) PGN() string {
	switch {
	case !r.Decided():
		return "*"
	case r.Draw:
		return "1/2-1/2"
	case r.Winner == chess.White:
		return "1-0"
	}
	return "0-1"
}

// Score is side's points: 1, 0.5 or 0.
func (r Result) Score(side chess.Color) float64 {
	switch {
	case r.Draw:
		return 0.5
	case r.Winner == side:
		return 1
	}
	return 0
}

func (r Result) String() string {
	switch {
	case !r.Decided():
		return "aborted"
	case r.Draw:
		return "draw by " + string(r.Termination)
	}
	return fmt.Sprintf("%s wins by %s", r.Winner.Name(), r.Termination)
}
