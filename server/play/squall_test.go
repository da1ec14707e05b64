package play

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server/rating"
)

func fakeEngines() (engine.Analyzer, error) { return &enginetest.Engine{MaxDepth: 2}, nil }

// TestStartAgainstSquall: a casual game against Squall at a level, the
// player's colour as asked; Squall answers through the hub, and its seat
// ends with the game.
func TestStartAgainstSquall(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, _ := newHub(t, t.TempDir(), clk)
	seats := NewSeats(h, fakeEngines, func(err error) { t.Error(err) })
	id, err := seats.StartAgainstSquall(ctx, "ann", 4, blitz, true)
	if err != nil {
		t.Fatal(err)
	}
	g, err := h.Game(id)
	want := Players{White: "ann", Black: SquallHandle(4), AtStart: [2]rating.Rating{rating.New()}} // Squall has no rating
	if err != nil || g.Players != want {
		t.Fatalf("the game's players: %+v %v; want ann (1500?) against Squall-L4, casual", g.Players, err)
	}
	updates, stop, err := h.Watch(id)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := h.Move(ctx, id, "ann", "e2e4"); err != nil {
		t.Fatal(err)
	}
	await(t, updates, "Squall's answer", plies(2))
	if _, err := h.Resign(ctx, id, "ann"); err != nil {
		t.Fatal(err)
	}
	seats.Close() // returns: the seat's goroutine ended with the game
	if _, ok := h.GameOf("ann"); ok {
		t.Error("the game is still in progress")
	}
}

// TestStartAgainstSquallRefused: a level Squall does not have starts no
// game; a seat that cannot be taken (no engine) aborts the game it was
// for, so the player is not left facing nobody.
func TestStartAgainstSquallRefused(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, _ := newHub(t, t.TempDir(), clk)
	noEngine := errors.New("no engine")
	seats := NewSeats(h, func() (engine.Analyzer, error) { return nil, noEngine }, nil)
	defer seats.Close()
	if _, err := seats.StartAgainstSquall(ctx, "ann", 0, blitz, true); err == nil {
		t.Error("level 0 was taken")
	}
	if _, err := seats.StartAgainstSquall(ctx, "ann", 4, blitz, false); !errors.Is(err, noEngine) {
		t.Errorf("without an engine: %v; want %v", err, noEngine)
	}
	if id, ok := h.GameOf("ann"); ok {
		t.Errorf("ann is in game %s; want none (aborted)", id)
	}
}

// TestSeatsFollowGames: a server that takes a game over from the store
// (after a restart here: the same node name) seats Squall in it again, and
// Squall answers.
func TestSeatsFollowGames(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	id, err := h.Start(ctx, "Squall-L2", "ann", blitz, false)
	if err != nil {
		t.Fatal(err)
	}
	// No seat here: the game was started without one. The restarted
	// server's hub takes it over and seats Squall.
	h2, err := NewHub(ctx, st, Config{Now: clk.Now, Site: "squall test"})
	if err != nil {
		t.Fatal(err)
	}
	seats := NewSeats(h2, fakeEngines, func(err error) { t.Error(err) })
	defer seats.Close()
	h2.OnHost(func(id string, p Players) {
		if err := seats.Follow(id, p); err != nil {
			t.Error(err)
		}
	})
	if n, err := h2.Restore(ctx); n != 1 || err != nil {
		t.Fatalf("restored %d games: %v", n, err)
	}
	updates, stop, err := h2.Watch(id)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	await(t, updates, "Squall's first move", plies(1))
	if _, err := h2.Resign(ctx, id, "ann"); err != nil {
		t.Fatal(err)
	}
}
