// Package lobby is where games between people begin: open seeks (a time
// control, a colour, rated or casual) that anyone may accept, and
// challenges addressed to one handle. Accepting starts the game on the
// play hub. The lobby keeps no state worth a crash: a seek is a wish of
// someone connected, and goes with them.
package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/squall-chess/squall/server/game"
)

// MaxSeeks is how many open seeks and challenges one handle may have.
const MaxSeeks = 3

// Errors of refused lobby actions.
var (
	ErrNoSeek     = errors.New("no such seek (taken or withdrawn)")
	ErrOwnSeek    = errors.New("that seek is your own")
	ErrNotForYou  = errors.New("that challenge is for someone else")
	ErrTooMany    = fmt.Errorf("at most %d open seeks and challenges each", MaxSeeks)
	ErrChallengee = errors.New("a challenge needs another player's handle")
)

// Color is the colour a seeker wants.
type Color uint8

const (
	Random Color = iota
	White
	Black
)

func (c Color) String() string { return [...]string{"random", "white", "black"}[c] }

// Seek is an open offer to play.
type Seek struct {
	ID      int
	Handle  string
	TC      game.TimeControl
	Color   Color
	Rated   bool
	To      string // a challenge's addressee; "" for an open seek
	Created time.Time
}

// Starter starts a game between two handles (the play hub).
type Starter interface {
	Start(ctx context.Context, white, black string, tc game.TimeControl, rated bool) (string, error)
}

// Lobby holds the seeks. Its methods are safe for concurrent use.
type Lobby struct {
	hub Starter
	now func() time.Time

	mu    sync.Mutex
	seeks []Seek
	next  int
	rng   *rand.Rand
}

// New is a lobby starting its games on hub; now is its clock (nil:
// time.Now) and seed chooses the colours of random seeks.
func New(hub Starter, now func() time.Time, seed uint64) *Lobby {
	if now == nil {
		now = time.Now
	}
	return &Lobby{hub: hub, now: now, next: 1, rng: rand.New(rand.NewPCG(seed, seed^0x10bb1))}
}

// Seek opens a seek of handle's, or a challenge when to is set.
func (l *Lobby) Seek(handle string, tc game.TimeControl, c Color, rated bool, to string) (Seek, error) {
	if to == handle {
		return Seek{}, ErrChallengee
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.seeks {
		if s.Handle == handle {
			n++
		}
	}
	if n >= MaxSeeks {
		return Seek{}, ErrTooMany
	}
	s := Seek{ID: l.next, Handle: handle, TC: tc, Color: c, Rated: rated, To: to, Created: l.now()}
	l.next++
	l.seeks = append(l.seeks, s)
	return s, nil
}

// Seeks are the open seeks and the challenges to or from handle, oldest
// first.
func (l *Lobby) Seeks(handle string) []Seek {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Seek
	for _, s := range l.seeks {
		if s.To == "" || s.To == handle || s.Handle == handle {
			out = append(out, s)
		}
	}
	return out
}

// Withdraw removes handle's seek id.
func (l *Lobby) Withdraw(handle string, id int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.IndexFunc(l.seeks, func(s Seek) bool { return s.ID == id && s.Handle == handle })
	if i < 0 {
		return ErrNoSeek
	}
	l.seeks = slices.Delete(l.seeks, i, i+1)
	return nil
}

// Leave removes every seek of handle's (they disconnected).
func (l *Lobby) Leave(handle string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seeks = slices.DeleteFunc(l.seeks, func(s Seek) bool { return s.Handle == handle })
}

// Accept takes seek id for handle and starts the game; it returns the
// game's id and the colour handle plays. The seek is gone either way: a
// seek two players accept at once goes to the first.
func (l *Lobby) Accept(ctx context.Context, handle string, id int) (gameID string, white bool, err error) {
	l.mu.Lock()
	i := slices.IndexFunc(l.seeks, func(s Seek) bool { return s.ID == id })
	if i < 0 {
		l.mu.Unlock()
		return "", false, ErrNoSeek
	}
	s := l.seeks[i]
	switch {
	case s.Handle == handle:
		l.mu.Unlock()
		return "", false, ErrOwnSeek
	case s.To != "" && s.To != handle:
		l.mu.Unlock()
		return "", false, ErrNotForYou
	}
	l.seeks = slices.Delete(l.seeks, i, i+1)
	seekerWhite := s.Color == White || s.Color == Random && l.rng.IntN(2) == 0
	l.mu.Unlock()
	w, b := s.Handle, handle
	if !seekerWhite {
		w, b = handle, s.Handle
	}
	gameID, err = l.hub.Start(ctx, w, b, s.TC, s.Rated)
	return gameID, !seekerWhite, err
}
