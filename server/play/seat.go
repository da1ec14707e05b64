package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/server/game"
)

// Seat plays handle's side of game id with the engine a, as a person
// would, through the same hub: on its turn it searches and plays the move,
// and it answers the opponent's draw offers by its evaluation (the
// board's rule, level.AcceptsDraw) and takeback requests by the game's
// kind: granted in a casual game, refused in a rated one. lim limits each
// search; a zero lim plays on the game's clocks as a person would
// (seatLimits). Seat returns when the game is over (nil), ctx ends, or
// the engine fails.
func (h *Hub) Seat(ctx context.Context, id, handle string, a engine.Analyzer, lim engine.Limits) error {
	updates, stop, err := h.Watch(id)
	if err != nil {
		return err
	}
	defer stop()
	s := seat{h: h, id: id, handle: handle}
	for {
		var u Update
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case u, ok = <-updates:
		}
		if !ok || u.Over() {
			return nil
		}
		side := chess.White
		if u.Players.Black == handle {
			side = chess.Black
		} else if u.Players.White != handle {
			return ErrNotPlayer
		}
		g, p := u.Replayed.Game, u.Replayed.Position
		if changed, err := s.answer(ctx, u, side, p); err != nil || changed {
			if err != nil {
				return err
			}
			continue // the game's next update says what now
		}
		if p.SideToMove() != side {
			continue
		}
		l := lim
		if l.IsZero() {
			l = seatLimits(u, side, h.now())
		}
		res, err := a.Search(ctx, g, l, nil)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%s's engine: %w", handle, err)
		}
		if len(res.Last.PV) > 0 {
			s.score, s.scored = res.Last.Score, true
		}
		if res.BestMove == chess.NullMove {
			continue // no legal move: the game is over, and its update is on the way
		}
		// What the opponent asked while it searched is answered before its
		// move, which would decline it unheard.
		if now, err := h.Game(id); err == nil {
			if changed, err := s.answer(ctx, now, side, p); err != nil || changed {
				if err != nil {
					return err
				}
				continue
			}
		}
		if _, err := h.Move(ctx, id, handle, res.BestMove.UCI(false)); err != nil && !moot(err) {
			return fmt.Errorf("%s's move %s: %w", handle, res.BestMove.UCI(false), err)
		}
	}
}

// seat is what a seat remembers between the game's updates.
type seat struct {
	h          *Hub
	id, handle string
	// score is its last search's evaluation, from its own side (scored:
	// it has searched): what it answers a draw offer by.
	score  engine.Score
	scored bool
}

// answer answers the opponent's standing draw offer and takeback request
// in u, whose position is p: a draw is accepted when the seat's last
// evaluation says so (level.AcceptsDraw), a takeback granted in a casual
// game; the rest is declined. changed reports whether the answer changed
// the game (ended it, or took moves back): then the seat waits for its
// next update.
func (s *seat) answer(ctx context.Context, u Update, side chess.Color, p *chess.Position) (changed bool, err error) {
	opp := side.Other()
	o := u.Game.Offers
	var act func(context.Context, string, string) (*Ended, error)
	switch {
	case o.Draw[opp] && s.scored && level.AcceptsDraw(s.score, p.FullmoveNumber()):
		act, changed = s.h.OfferDraw, true // offering back accepts
	case o.Takeback[opp] && !u.Players.Rated:
		act, changed = s.h.Takeback, true // asking back grants
	case o.Draw[opp] || o.Takeback[opp]:
		act = s.h.Decline
	default:
		return false, nil
	}
	if _, err := act(ctx, s.id, s.handle); err != nil && !moot(err) {
		return false, fmt.Errorf("%s's answer to an offer: %w", s.handle, err)
	}
	return changed, nil
}

// moot tells an action the game has moved past: it is over, or it is no
// longer the seat's turn or an offer's time (the seat acted on a state the
// opponent had changed, say by taking an offer back with a move).
func moot(err error) bool {
	return errors.Is(err, ErrNoGame) || errors.Is(err, game.ErrOver) || errors.Is(err, game.ErrNotYourTurn) || errors.Is(err, game.ErrNothing)
}

// quickMoves is how many of its first moves a seat plays in quickMoveTime
// each, as a player plays their opening from memory: a twentieth of a
// 1+0 clock, as an engine plans a move, is 3 s, and the person waited
// that long for each of Squall's first replies (issue 33, G14). Before
// both first moves no clock runs at all, and the person waits all the
// same.
const quickMoves = 6

// quickMoveTime is the time of each of a seat's first quickMoves moves,
// and at most a fiftieth of its clock.
const quickMoveTime = 200 * time.Millisecond

// seatLimits are the limits of side's search in game u at now: its
// first moves quick, then the game's clocks and increments as they stand,
// as the board gives them to its engine, which plans its time as a
// player of its strength would (a limited level, UCI_Elo, searches its
// few nodes and answers long before its plan is spent).
func seatLimits(u Update, side chess.Color, now time.Time) engine.Limits {
	moves := len(u.Game.Moves)
	played := moves / 2 // side's moves so far: White's come first
	if side == chess.White {
		played = (moves + 1) / 2
	}
	left := u.Clocks(now)
	if played < quickMoves {
		return engine.Limits{MoveTime: min(quickMoveTime, max(left[side]/50, 10*time.Millisecond))}
	}
	inc := u.Game.TimeControl.Increment
	return engine.Limits{WTime: left[chess.White], BTime: left[chess.Black], WInc: inc, BInc: inc}
}
