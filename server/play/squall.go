package play

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/server/game"
)

// Seats are Squall's places in the server's games: a person sits against
// Squall at a level from the lobby (StartAgainstSquall), and Squall plays
// through the hub as a person would (Hub.Seat). Each seat is a goroutine
// that ends with its game, or with the seats (Close).
type Seats struct {
	hub       *Hub
	newEngine func() (engine.Analyzer, error)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// errs hears of a seat that failed (its engine, the store).
	errs func(error)
}

// NewSeats makes Squall's seats on hub, each with an engine of newEngine;
// errs, if not nil, hears of a seat that failed.
func NewSeats(hub *Hub, newEngine func() (engine.Analyzer, error), errs func(error)) *Seats {
	ctx, cancel := context.WithCancel(context.Background())
	if errs == nil {
		errs = func(error) {}
	}
	return &Seats{hub: hub, newEngine: newEngine, ctx: ctx, cancel: cancel, errs: errs}
}

// StartAgainstSquall starts a casual game between handle and Squall at
// level lv (1-based), handle playing White if white, and seats Squall in
// it (Sit). A game whose seat cannot be taken (no engine) is aborted, so
// that handle is not left facing nobody. It returns the game's id.
func (s *Seats) StartAgainstSquall(ctx context.Context, handle string, lv int, tc game.TimeControl, white bool) (string, error) {
	if err := checkLevel(lv); err != nil {
		return "", err
	}
	squall := SquallHandle(lv)
	w, b := handle, squall
	if !white {
		w, b = squall, handle
	}
	id, err := s.hub.Start(ctx, w, b, tc, false)
	if err != nil {
		return "", err
	}
	if err := s.Sit(id, squall, lv); err != nil {
		s.hub.Abort(ctx, id, handle)
		return "", err
	}
	return id, nil
}

// Sit has Squall play handle's side of game id at level lv (1-based): the
// level's Elo where the engine takes UCI_Elo, full strength otherwise; its
// first moves quickly, then on the game's clock (Hub.Seat), and it
// answers draw offers and takebacks.
func (s *Seats) Sit(id, handle string, lv int) error {
	if err := checkLevel(lv); err != nil {
		return err
	}
	a, err := s.newEngine()
	if err != nil {
		return err
	}
	if level.HasElo(a) {
		for _, kv := range level.All[lv-1].Setup() {
			if err := a.SetOption(kv[0], kv[1]); err != nil {
				a.Close()
				return err
			}
		}
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer a.Close()
		if err := s.hub.Seat(s.ctx, id, handle, a, engine.Limits{}); err != nil && s.ctx.Err() == nil {
			s.errs(fmt.Errorf("%s in game %s: %w", handle, id, err))
		}
	}()
	return nil
}

// Close stops every seat and waits for them.
func (s *Seats) Close() {
	s.cancel()
	s.wg.Wait()
}

// Follow seats Squall in game id if it plays there: the games this server
// takes over from the store (after a restart, or from a server that died)
// bring their seats with them.
func (s *Seats) Follow(id string, p Players) error {
	var errs []error
	for _, h := range []string{p.White, p.Black} {
		var lv int
		if _, err := fmt.Sscanf(h, "Squall-L%d", &lv); err == nil && h == SquallHandle(lv) {
			errs = append(errs, s.Sit(id, h, lv))
		}
	}
	return errors.Join(errs...)
}

// SquallHandle is Squall's name in a game at level lv; no person can take
// it (account.ValidHandle keeps names beginning with Squall for the
// server).
func SquallHandle(lv int) string { return fmt.Sprintf("Squall-L%d", lv) }

// checkLevel refuses a level Squall does not have.
func checkLevel(lv int) error {
	if lv < 1 || lv > len(level.All) {
		return fmt.Errorf("level %d: want 1-%d", lv, len(level.All))
	}
	return nil
}
