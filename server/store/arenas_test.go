package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server/arena"
)

// TestArenas: a definition is stored once and listed; the log is read
// back in order from any point, and a write made at a sequence that is
// no longer the log's last is refused, so that no event is decided
// without the ones before it — also after the store is opened again.
func TestArenas(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	def := arena.Definition{ID: "hourly-1", Name: "Hourly Bullet", Start: t0, Length: 30 * time.Minute,
		Control: clock.TimeControl{Base: time.Minute}}
	if err := s.CreateArena(ctx, def); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateArena(ctx, def); !errors.Is(err, ErrStale) {
		t.Fatalf("the same id again: %v", err)
	}
	if err := s.CreateArena(ctx, arena.Definition{ID: "bad"}); err == nil {
		t.Fatal("a definition that does not check stored")
	}
	other := def
	other.ID = "other"
	if err := s.CreateArena(ctx, other); err != nil {
		t.Fatal(err)
	}
	join := func(h string) arena.Event { return arena.Event{Kind: arena.Join, At: t0, Player: h, Rating: 1500} }
	s1, err := s.AppendArenaEvent(ctx, def.ID, join("ann"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendArenaEvent(ctx, def.ID, join("bob"), 0); !errors.Is(err, ErrStale) {
		t.Fatalf("a write at 0 after the first: %v", err)
	}
	if _, err := s.AppendArenaEvent(ctx, other.ID, join("cy"), 0); err != nil {
		t.Fatalf("another arena's log is its own: %v", err)
	}
	s2, err := s.AppendArenaEvent(ctx, def.ID, join("bob"), s1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendArenaEvent(ctx, def.ID, join("dee"), s1); !errors.Is(err, ErrStale) {
		t.Fatalf("a write at a sequence not the last: %v", err)
	}
	s.Close()

	s = open(t, dir)
	defer s.Close()
	defs, err := s.Arenas(ctx)
	if err != nil || len(defs) != 2 {
		t.Fatalf("arenas %+v, %v", defs, err)
	}
	all, err := s.ArenaEvents(ctx, def.ID, 0)
	if err != nil || len(all) != 2 || all[0].Player != "ann" || all[1].Player != "bob" || all[1].Seq != s2 {
		t.Fatalf("log %+v, %v", all, err)
	}
	if !all[0].At.Equal(t0) || all[0].Rating != 1500 {
		t.Fatalf("event read back as %+v", all[0])
	}
	rest, err := s.ArenaEvents(ctx, def.ID, s1)
	if err != nil || len(rest) != 1 || rest[0].Player != "bob" {
		t.Fatalf("log after %d: %+v, %v", s1, rest, err)
	}
}
