package game

import (
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/referee"
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

// Termination and Result are the referee's: one vocabulary for how a game
// ends, on the board, the server, in matches and in datagen. The names
// stay here for the server's screens and services, which speak of
// game.Result and game.Checkmate.
type (
	Termination = referee.Termination
	Result      = referee.Result
)

// The terminations a server game ends by (referee's).
const (
	Checkmate            = referee.Checkmate
	Stalemate            = referee.Stalemate
	Repetition           = referee.Repetition
	FiftyMoves           = referee.FiftyMoves
	InsufficientMaterial = referee.InsufficientMaterial
	Resignation          = referee.Resignation
	TimeForfeit          = referee.TimeForfeit
	Agreement            = referee.Agreement
	Aborted              = referee.Aborted
	Abandoned            = referee.Abandoned
)
