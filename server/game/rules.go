package game

import (
	"fmt"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/chess"
)

// TimeControl is a game's control (the board's and the server's one type).
type TimeControl = clock.TimeControl

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

// String is the result as a sentence for the players' screens: "White
// wins by resignation", "Black wins on time", "White wins: Black left the
// game", "draw by agreement", "game aborted".
func (r Result) String() string {
	switch {
	case !r.Decided():
		return "game aborted"
	case r.Termination == Abandoned && r.Draw:
		return "draw: a player left the game"
	case r.Termination == Abandoned:
		return fmt.Sprintf("%s wins: %s left the game", r.Winner.Name(), r.Winner.Other().Name())
	case r.Termination == TimeForfeit && r.Draw:
		// FIDE 6.9: the flag fell against a side whose opponent cannot mate.
		return "draw: time ran out against a side that cannot mate"
	case r.Termination == TimeForfeit:
		return r.Winner.Name() + " wins on time"
	case r.Termination == FiftyMoves:
		return "draw by the fifty-move rule"
	case r.Draw:
		return "draw by " + string(r.Termination)
	}
	return fmt.Sprintf("%s wins by %s", r.Winner.Name(), r.Termination)
}

// PGN is the Termination tag's value for t: one of the PGN standard's
// (8.1.1.6: "abandoned", "adjudication", "death", "emergency", "normal",
// "rules infraction", "time forfeit", "unterminated"), which other
// programs understand. Mate, resignation, agreement and the automatic
// draws are all "normal"; the detail is kept in the comment after the
// last move (Game.PGN), as lichess's literate export does.
func (t Termination) PGN() string {
	switch t {
	case TimeForfeit:
		return "time forfeit"
	case Abandoned:
		return "abandoned"
	case Aborted, "":
		return "unterminated"
	}
	return "normal"
}
