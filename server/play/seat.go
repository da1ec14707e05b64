package play

import (
	"context"
	"errors"
	"fmt"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Seat plays handle's side of game id with the engine a, as a person
// would, through the same hub: on its turn it searches and plays the move.
// lim limits each search; a zero lim searches on the game's clocks. Seat
// returns when the game is over (nil), ctx ends, or the engine fails.
func (h *Hub) Seat(ctx context.Context, id, handle string, a engine.Analyzer, lim engine.Limits) error {
	updates, stop, err := h.Watch(id)
	if err != nil {
		return err
	}
	defer stop()
	for {
		var u Update
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case u, ok = <-updates:
		}
		if !ok || u.Over {
			return nil
		}
		side := chess.White
		if u.Players.Black == handle {
			side = chess.Black
		} else if u.Players.White != handle {
			return ErrNotPlayer
		}
		g, p, err := engineGame(u)
		if err != nil {
			return err
		}
		if p.SideToMove() != side {
			continue
		}
		l := lim
		if l.IsZero() {
			tc := u.State.TimeControl
			l = engine.Limits{WTime: u.State.Left[chess.White], BTime: u.State.Left[chess.Black], WInc: tc.Increment, BInc: tc.Increment}
		}
		res, err := a.Search(ctx, g, l, nil)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%s's engine: %w", handle, err)
		}
		if res.BestMove == chess.NullMove {
			continue // no legal move: the game is over, and its update is on the way
		}
		if _, err := h.Move(ctx, id, handle, res.BestMove.UCI(false)); err != nil && !errors.Is(err, ErrNoGame) {
			return fmt.Errorf("%s's move %s: %w", handle, res.BestMove.UCI(false), err)
		}
	}
}

// engineGame is the update's game for a search, and its position now.
func engineGame(u Update) (engine.Game, *chess.Position, error) {
	g := engine.Game{Start: chess.NewPosition()}
	p := g.Start.Clone()
	var undo chess.Undo
	for _, s := range u.State.Moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			return g, nil, fmt.Errorf("game %s: stored move %q: %w", u.ID, s, err)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &undo)
	}
	return g, p, nil
}
