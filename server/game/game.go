// Package game referees one game between two players on the server: whose
// turn it is, the moves, the clocks, draw offers and takebacks, and how the
// game ends. It holds no timer and no lock: its owner passes the time of
// each event and makes the calls one at a time, so a whole game, clocks and
// all, plays in a unit test.
//
// The rules follow lichess where a server must choose: no clock runs before
// both sides have moved, and a side that does not make its first move in
// time (FirstMoveDeadline) aborts the game; a game of fewer than two plies
// may be aborted by either player. How a game ends — mate, the automatic
// draws, a flag (a draw against a side that cannot mate), a resignation —
// is package referee's, which the board and engine matches ask too; this
// package adds what only a server times: first-move deadlines, offers and
// takebacks, and players who leave.
package game

import (
	"errors"
	"fmt"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/referee"
)

// LagAllowance is how much of each move's time is taken as the network's,
// not the player's: a move's clock is charged its time less up to this
// much. The server cannot tell a slow link from a slow player over SSH,
// so every move gets the same allowance; lichess estimates each player's
// lag instead, and grants up to about a second.
const LagAllowance = 100 * time.Millisecond

// Errors of a refused action; the game is unchanged by it.
var (
	ErrOver        = errors.New("the game is over")
	ErrNotYourTurn = errors.New("it is not your turn")
	ErrIllegal     = errors.New("illegal move")
	ErrTooLate     = errors.New("too late: the game has begun")
	ErrNothing     = errors.New("nothing to do")
	// ErrTooEarly refuses a draw offer before both sides' first moves:
	// nothing is decided until both have moved (abort instead).
	ErrTooEarly = errors.New("too early: nothing is decided before both sides have moved (abort instead)")
	// ErrDeclined refuses an offer or request the opponent has turned
	// down since the last move: it may be made again after the next move,
	// as on lichess, so that nobody is asked the same thing over and over.
	ErrDeclined = errors.New("declined: you may ask again after the next move")
)

// illegal is a refused move: its error says why (the move as given, and
// what is wrong with it) and is ErrIllegal.
type illegal struct{ err error }

func (e illegal) Error() string        { return e.err.Error() }
func (e illegal) Is(target error) bool { return target == ErrIllegal }

// Game is one game in progress or over. Make it with New.
type Game struct {
	tc      TimeControl
	start   *chess.Position
	pos     *chess.Position
	moves   []chess.Move
	sans    []string
	left    []time.Duration // the mover's clock after each move, for [%clk]
	clock   clock.Clock
	turn    time.Time // when the side to move got the turn
	offer   Offers
	premove Premoves
	result  Result
	over    bool
	started time.Time
	berserk [2]bool
}

// Offers are a game's draw offers and takeback requests and their
// answers, by the side that made them: stored with the game, so that both
// players' screens say what was asked and what was answered, and a
// restarted server keeps them.
type Offers struct {
	// Draw and Takeback stand until answered, or until the opponent moves
	// (moving declines).
	Draw, Takeback [2]bool `json:",omitzero"`
	// DrawDeclined and TakebackDeclined: the opponent turned the side's
	// offer down since the last move; it is not made again before the
	// next move.
	DrawDeclined, TakebackDeclined [2]bool `json:",omitzero"`
	// TookBack: the opponent granted the side's takeback request (until
	// the next move).
	TookBack [2]bool `json:",omitzero"`
}

// Premoves are the moves each side queued while the opponent was to move
// (premoves): stored with the game, so that a premove survives a change
// of host and every screen of the player shows it.
type Premoves struct {
	// Queued is the side's premove as typed, played by the opponent's
	// move the instant it is made (Play).
	Queued [2]string `json:",omitzero"`
	// Dropped is the side's last premove that was not legal when its
	// turn came, to be said to the player until the side moves or
	// queues another.
	Dropped [2]string `json:",omitzero"`
}

// PremoveCharge is what a premove costs its mover's clock, as lichess
// charges one: exactly this (then the increment), whatever the lag
// allowance — a premove is played at the instant of the opponent's move,
// so no time of its own passes.
const PremoveCharge = 100 * time.Millisecond

// MaxPremove bounds a premove's text (a move as typed is a few letters).
const MaxPremove = 16

// New starts a game of time control tc from the initial position at now.
func New(tc TimeControl, now time.Time) *Game {
	return &Game{tc: tc, start: chess.NewPosition(), pos: chess.NewPosition(),
		clock: clock.New(tc.Base, tc.Increment), turn: now, started: now}
}

// Clone is a copy of the game that shares nothing changeable with it: the
// server keeps one to go back to when an action cannot be stored.
func (g *Game) Clone() *Game {
	c := *g
	c.pos = g.pos.Clone()
	c.moves = append([]chess.Move(nil), g.moves...)
	c.sans = append([]string(nil), g.sans...)
	c.left = append([]time.Duration(nil), g.left...)
	return &c
}

// TimeControl is the game's.
func (g *Game) TimeControl() TimeControl { return g.tc }

// Position is the position now (a copy).
func (g *Game) Position() *chess.Position { return g.pos.Clone() }

// Moves are the moves played (a copy).
func (g *Game) Moves() []chess.Move { return append([]chess.Move(nil), g.moves...) }

// SANs are the moves played in SAN (a copy).
func (g *Game) SANs() []string { return append([]string(nil), g.sans...) }

// Turn is the side to move.
func (g *Game) Turn() chess.Color { return g.pos.SideToMove() }

// Remaining is side's clock at now.
func (g *Game) Remaining(side chess.Color, now time.Time) time.Duration {
	return g.clock.Remaining(side, now)
}

// ClockRunning reports whose clock runs, if one does.
func (g *Game) ClockRunning() (chess.Color, bool) { return g.clock.Running() }

// Result is how the game ended; ok is false while it goes on.
func (g *Game) Result() (r Result, ok bool) { return g.result, g.over }

// Offers are the offers standing and answered since the last move.
func (g *Game) Offers() Offers { return g.offer }

// Premoves are the premoves queued, and the last dropped.
func (g *Game) Premoves() Premoves { return g.premove }

// Play makes side's move m (UCI, SAN, or as typed: chess.ParseTyped) at
// now, then the opponent's premove if one is queued, at the same instant
// (charged PremoveCharge): dropped, and said in Premoves.Dropped, if it
// is not legal then. A side whose time ran out before it loses on time
// instead (the error says so).
func (g *Game) Play(side chess.Color, m string, now time.Time) error {
	if g.Tick(now) {
		return ErrOver
	}
	if side != g.Turn() {
		return ErrNotYourTurn
	}
	if err := g.move(side, m, now, false); err != nil {
		return err
	}
	other := side.Other()
	if q := g.premove.Queued[other]; q != "" && !g.over {
		g.premove.Queued[other] = ""
		if err := g.move(other, q, now, true); err != nil {
			g.premove.Dropped[other] = q
		}
	}
	return nil
}

// move plays side's move m at now, on side's turn: charged its time less
// the lag allowance, or PremoveCharge for a premove.
func (g *Game) move(side chess.Color, m string, now time.Time, premove bool) error {
	mv, err := g.pos.ParseTyped(m) // as every screen reads a typed move
	if err != nil {
		return illegal{err}
	}
	g.sans = append(g.sans, g.pos.SAN(mv))
	var u chess.Undo
	g.pos.MakeMove(mv, &u)
	g.moves = append(g.moves, mv)
	if premove {
		g.clock.MovedSpent(side, len(g.moves), now, PremoveCharge)
	} else {
		g.clock.MovedLag(side, len(g.moves), now, LagAllowance)
	}
	g.left = append(g.left, g.clock.Remaining(side, now))
	g.turn = now
	// Moving declines the opponent's offers; the mover's own stand. What
	// was declined may be asked again, and a takeback is no longer news.
	g.offer = Offers{Draw: g.offer.Draw, Takeback: g.offer.Takeback}
	g.offer.Draw[side.Other()], g.offer.Takeback[side.Other()] = false, false
	g.premove.Dropped[side] = ""
	if r, over := referee.Judge(g.pos); over {
		g.end(r, now)
	}
	return nil
}

// Premove queues side's move m, to be played the instant the opponent's
// move is (Play), replacing any queued before; on side's own turn it is
// a move, played at once (played). Its legality is judged when it is
// played: the opponent's move decides what is legal.
func (g *Game) Premove(side chess.Color, m string, now time.Time) (played bool, err error) {
	if g.Tick(now) {
		return false, ErrOver
	}
	if side == g.Turn() {
		return true, g.Play(side, m, now)
	}
	if m == "" || len(m) > MaxPremove {
		return false, illegal{fmt.Errorf("premove %.*q: not a move", MaxPremove, m)}
	}
	g.premove.Queued[side], g.premove.Dropped[side] = m, ""
	return false, nil
}

// CancelPremove takes side's queued premove back.
func (g *Game) CancelPremove(side chess.Color) error {
	if g.premove.Queued[side] == "" {
		return ErrNothing
	}
	g.premove.Queued[side] = ""
	return nil
}

// Tick ends the game if time decided it by now: a flag, or a first move
// not made in time. It reports whether the game is over.
func (g *Game) Tick(now time.Time) bool {
	if g.over {
		return true
	}
	if side, flagged := g.clock.Flagged(now); flagged {
		g.end(referee.Flag(g.pos, side), now)
		return true
	}
	if !g.begun() && now.Sub(g.turn) > FirstMoveDeadline(g.tc) {
		g.end(Result{Termination: Aborted}, now)
		return true
	}
	return false
}

// Resign ends the game, side losing; before both sides have moved
// (begun), it aborts it instead, as lichess offers only abort then.
func (g *Game) Resign(side chess.Color, now time.Time) error {
	if g.Tick(now) {
		return ErrOver
	}
	g.end(referee.Resign(side, len(g.moves)), now)
	return nil
}

// ErrBerserk refuses a berserk after the side's first move, or a second.
var ErrBerserk = errors.New("berserk is only before your first move, once")

// Berserk is an arena's berserk (server/arena): side gives up half its
// time — its clock set to left, which the arena's rule computes — and its
// increment, before its first move, once. Whether the game allows it is
// its host's to say (only an arena's games do).
func (g *Game) Berserk(side chess.Color, left time.Duration, now time.Time) error {
	if g.Tick(now) {
		return ErrOver
	}
	if g.berserk[side] || len(g.moves) > int(side) {
		return ErrBerserk
	}
	g.berserk[side] = true
	g.clock.SetRemaining(side, left, now)
	g.clock.DropIncrement(side)
	return nil
}

// Berserked reports whether side berserked.
func (g *Game) Berserked(side chess.Color) bool { return g.berserk[side] }

// begun reports whether both sides have made their first move: only
// then is a game decided by anything but the board (a resignation, an
// agreement, a claim), and so rated.
func (g *Game) begun() bool { return referee.Begun(len(g.moves)) }

// Abort ends a game of fewer than two plies without a result.
func (g *Game) Abort(now time.Time) error {
	if g.Tick(now) {
		return ErrOver
	}
	if g.begun() {
		return ErrTooLate
	}
	g.end(Result{Termination: Aborted}, now)
	return nil
}

// OfferDraw offers a draw from side, or accepts the opponent's standing
// offer, which ends the game drawn. It reports whether it did.
func (g *Game) OfferDraw(side chess.Color, now time.Time) (drawn bool, err error) {
	if g.Tick(now) {
		return false, ErrOver
	}
	if !g.begun() {
		return false, ErrTooEarly
	}
	if g.offer.Draw[side.Other()] {
		g.end(Result{Draw: true, Termination: Agreement}, now)
		return true, nil
	}
	if g.offer.DrawDeclined[side] {
		return false, fmt.Errorf("your draw offer was %w", ErrDeclined)
	}
	g.offer.Draw[side] = true
	return false, nil
}

// DeclineDraw turns down the opponent's draw offer, which the opponent
// may not make again before the next move.
func (g *Game) DeclineDraw(side chess.Color) error {
	if !g.offer.Draw[side.Other()] {
		return ErrNothing
	}
	g.offer.Draw[side.Other()], g.offer.DrawDeclined[side.Other()] = false, true
	return nil
}

// RequestTakeback asks the opponent to take back side's last move (and
// the opponent's reply, if it came), or, when the opponent asked first,
// grants their request: the moves are taken back and the side to move's
// clock runs from now (time spent stays spent). It reports whether moves
// were taken back.
func (g *Game) RequestTakeback(side chess.Color, now time.Time) (done bool, err error) {
	if g.Tick(now) {
		return false, ErrOver
	}
	if g.offer.Takeback[side.Other()] {
		g.takeBack(side.Other(), now)
		return true, nil
	}
	if g.plies(side) == 0 {
		return false, ErrNothing
	}
	if g.offer.TakebackDeclined[side] {
		return false, fmt.Errorf("your takeback request was %w", ErrDeclined)
	}
	g.offer.Takeback[side] = true
	return false, nil
}

// DeclineTakeback turns down the opponent's takeback request, which the
// opponent may not make again before the next move.
func (g *Game) DeclineTakeback(side chess.Color) error {
	if !g.offer.Takeback[side.Other()] {
		return ErrNothing
	}
	g.offer.Takeback[side.Other()], g.offer.TakebackDeclined[side.Other()] = false, true
	return nil
}

// plies is how many moves side has played.
func (g *Game) plies(side chess.Color) int {
	n := len(g.moves)
	if g.start.SideToMove() != side {
		n--
	}
	return max(0, (n+1)/2)
}

// takeBack undoes side's last move, and the reply after it.
func (g *Game) takeBack(side chess.Color, now time.Time) {
	n := 1
	if g.Turn() == side {
		n = 2 // the opponent has replied
	}
	n = min(n, len(g.moves))
	g.moves, g.sans, g.left = g.moves[:len(g.moves)-n], g.sans[:len(g.sans)-n], g.left[:len(g.left)-n]
	g.pos = g.start.Clone()
	var u chess.Undo
	for _, m := range g.moves {
		g.pos.MakeMove(m, &u)
	}
	g.clock.Stop(now)
	g.clock.Resume(g.Turn(), len(g.moves), now)
	g.turn = now
	g.offer = Offers{}
	g.offer.TookBack[side] = true
	g.premove = Premoves{} // queued for a position no longer on the board
}

// ClaimVictory ends the game won by side when the opponent has been gone
// (disconnected) since gone, longer than the grace period; draw claims a
// draw instead. A game the opponent left before both sides had moved is
// aborted, as lichess does.
func (g *Game) ClaimVictory(side chess.Color, gone, now time.Time, draw bool) error {
	if g.Tick(now) {
		return ErrOver
	}
	if now.Sub(gone) < Grace(g.tc) {
		return fmt.Errorf("the opponent may come back for %v more", (Grace(g.tc) - now.Sub(gone)).Round(time.Second))
	}
	switch {
	case !g.begun():
		g.end(Result{Termination: Aborted}, now)
	case draw:
		g.end(Result{Draw: true, Termination: Abandoned}, now)
	default:
		g.end(Result{Winner: side, Termination: Abandoned}, now)
	}
	return nil
}

func (g *Game) end(r Result, now time.Time) {
	g.clock.Stop(now)
	g.result, g.over = r, true
	g.offer = Offers{}
	g.premove = Premoves{}
}
