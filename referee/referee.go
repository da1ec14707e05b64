// Package referee is the one referee of a game in progress: whether a
// position ends the game, what a flag fall or a resignation comes to, and
// the result and termination in the one vocabulary every part of Squall
// writes — PGN's results ("1-0", "0-1", "1/2-1/2", "*") and the PGN
// standard's Termination tag. The board (tui), the server (server/game),
// engine matches (engine/match) and self-play data generation
// (engine/tune) all ask it, so that a game ends the same way wherever it
// is played.
//
// It is a top-level package rather than part of server/game, because
// engine/match and engine/tune must not import the server, and rather
// than part of engine/chess, because flags, resignations, aborts and
// adjudications are rules of a game being played, not of positions and
// moves, which is all the chess core knows. It depends on engine/chess and
// clock only. What is timed per game (a first move's deadline, a
// disconnected player's grace) stays with the server, which owns the
// timers; it ends those games with this package's terminations.
package referee

import (
	"fmt"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/chess"
)

// Termination is why a game ended, in words ("checkmate", "time
// forfeit"); PGN gives the standard's tag for it.
type Termination string

// The terminations. The first five are decided by the position (Judge);
// the rest by the players, the clock, or whoever runs the game.
const (
	Checkmate            Termination = "checkmate"
	Stalemate            Termination = "stalemate"
	Repetition           Termination = "threefold repetition"
	FiftyMoves           Termination = "fifty-move rule"
	InsufficientMaterial Termination = "insufficient material"
	Resignation          Termination = "resignation"
	TimeForfeit          Termination = "time forfeit"
	Agreement            Termination = "agreement"
	Aborted              Termination = "aborted"   // no result: before both sides had moved
	Abandoned            Termination = "abandoned" // a player left the game
	// Adjudication is a result given by whoever runs the game: a match's
	// move limit, self-play's lopsided score.
	Adjudication  Termination = "adjudication"
	IllegalMove   Termination = "illegal move"   // an engine's
	EngineFailure Termination = "engine failure" // an engine crashed, hung, or failed
)

// PGN is the Termination tag's value for t: one of the PGN standard's
// (8.1.1.6: "abandoned", "adjudication", "death", "emergency", "normal",
// "rules infraction", "time forfeit", "unterminated"), which other
// programs understand. Mate, resignation, agreement and the automatic
// draws are all "normal"; the detail belongs in words elsewhere (a
// comment after the last move, as lichess's literate export does).
func (t Termination) PGN() string {
	switch t {
	case TimeForfeit:
		return "time forfeit"
	case Abandoned, EngineFailure:
		return "abandoned"
	case Adjudication:
		return "adjudication"
	case IllegalMove:
		return "rules infraction"
	case Aborted, "":
		return "unterminated"
	}
	return "normal"
}

// Result is how a game ended: a winner, a draw, or neither (aborted, or
// the zero Result of a game not over).
type Result struct {
	Winner      chess.Color
	Draw        bool
	Termination Termination
}

// Win is a game won by winner.
func Win(winner chess.Color, t Termination) Result { return Result{Winner: winner, Termination: t} }

// Loss is a game lost by loser.
func Loss(loser chess.Color, t Termination) Result { return Win(loser.Other(), t) }

// Draw is a drawn game.
func Draw(t Termination) Result { return Result{Draw: true, Termination: t} }

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

// Score is side's points in a decided game: 1, 0.5 or 0.
func (r Result) Score(side chess.Color) float64 {
	switch {
	case r.Draw:
		return 0.5
	case r.Winner == side:
		return 1
	}
	return 0
}

// String is the result as a sentence: "White wins by resignation", "Black
// wins on time", "White wins: Black left the game", "draw by agreement",
// "game aborted".
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

// Judge says whether the position ends the game by itself: mate,
// stalemate, a dead position, the fifty-move rule or a threefold
// repetition, all of which end the game at once (as on lichess; FIDE lets
// a player claim the last two, which a program's players would always
// do).
func Judge(p *chess.Position) (Result, bool) {
	switch p.Outcome() {
	case chess.Checkmate:
		return Loss(p.SideToMove(), Checkmate), true
	case chess.Stalemate:
		return Draw(Stalemate), true
	case chess.DeadPosition:
		return Draw(InsufficientMaterial), true
	case chess.FiftyMoves:
		return Draw(FiftyMoves), true
	case chess.ThreefoldRepetition:
		return Draw(Repetition), true
	}
	return Result{}, false
}

// Flag is the result of flagged's time running out in p, the game's
// position (not one a screen happens to show): a loss, unless the
// opponent cannot mate (CanMate), which is a draw (FIDE Laws 6.9).
func Flag(p *chess.Position, flagged chess.Color) Result {
	if !CanMate(p, flagged.Other()) {
		return Draw(TimeForfeit)
	}
	return Loss(flagged, TimeForfeit)
}

// CanMate reports whether c could mate in p by some series of legal
// moves, with the opponent's help if need be (FIDE Laws 6.9: a flag falls
// against a side whose opponent cannot is a draw). It judges by material,
// as lichess does: a bare king cannot mate, nor a king and a single
// knight or bishop against a bare king — K+N v K can never mate, while
// K+N v K+P can (the pawn, or a piece it promotes to, may block its own
// king's flight square: a helpmate exists). Anything more can.
func CanMate(p *chess.Position, c chess.Color) bool {
	own := p.ByColor(c) &^ p.Pieces(c, chess.King)
	switch {
	case own == 0:
		return false
	case own.Several() || own&(p.Pieces(c, chess.Pawn)|p.Pieces(c, chess.Rook)|p.Pieces(c, chess.Queen)) != 0:
		return true
	}
	// A single minor piece mates only with the opponent's help.
	return p.ByColor(c.Other()) != p.Pieces(c.Other(), chess.King)
}

// Begun reports whether a game of plies plies from its start has begun:
// both sides have made their first move (clock.FirstTimedPly). Before
// that, resigning or leaving aborts the game, as lichess does: nobody has
// lost anything yet.
func Begun(plies int) bool { return plies >= clock.FirstTimedPly }

// Resign is loser's resignation after plies plies: a loss once the game
// has begun (Begun), an abort before.
func Resign(loser chess.Color, plies int) Result {
	if !Begun(plies) {
		return Result{Termination: Aborted}
	}
	return Loss(loser, Resignation)
}
