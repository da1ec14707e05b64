package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/game"
)

// TestFollowGames: a follower gets the games already stored, then the
// writes and drops in order (the newest of a game's, when it falls
// behind), with the revisions the writers got; it ends with its context.
func TestFollowGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := open(t, t.TempDir())
	defer s.Close()
	g := GameRecord{ID: "old", Players: Players{White: "ann", Black: "bob"}, Game: game.State{Moves: []string{"e2e4"}}}
	oldRev, err := s.SaveGame(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	events, followed := make(chan GameEvent, 64), make(chan struct{})
	go func() {
		defer close(followed)
		s.FollowGames(ctx, func(ev GameEvent) {
			select {
			case events <- ev:
			case <-ctx.Done():
			}
		}, func(err error) { t.Errorf("the watch broke: %v", err) })
	}()
	next := func() GameEvent {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("no event in 10 s")
		}
		return GameEvent{}
	}
	if ev := next(); ev.ID != "old" || ev.Rev != oldRev || ev.Game == nil || ev.Game.White != "ann" {
		t.Errorf("first event %+v, want the stored game at %d", ev, oldRev)
	}
	g.ID = "new"
	rev, err := s.SaveGame(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	g.Game.Moves = append(g.Game.Moves, "e7e5")
	g.End = &End{Result: game.Result{Draw: true, Termination: game.Agreement}, PGN: "1. e4 e5 1/2-1/2"}
	rev2, err := s.SaveGame(ctx, g, rev)
	if err != nil {
		t.Fatal(err)
	}
	// The bucket keeps one record a game, so a watcher that falls behind
	// skips to the newest (the screens want no more): the revisions only
	// rise, and the last is the end.
	last := uint64(0)
	for last != rev2 {
		ev := next()
		if ev.ID != "new" || ev.Game == nil || ev.Rev <= last || ev.Rev > rev2 {
			t.Fatalf("event %+v after revision %d, want the new game's up to %d", ev, last, rev2)
		}
		last = ev.Rev
	}
	if err := s.DropGame(ctx, "new"); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev.ID != "new" || ev.Game != nil {
		t.Errorf("after the drop: %+v, want no record", ev)
	}
	cancel()
	<-followed // it ends with its context
}

// TestGameRecordFormat: the record's players are written as they were
// before Players was a type of its own (white, black and rated at the top
// of the record), so servers of both versions read each other's games; a
// record of the version that wrote the standing offers twice (draw_offer,
// takeback beside game.Offers) reads.
func TestGameRecordFormat(t *testing.T) {
	old := `{"id":"g","white":"ann","black":"bob","rated":true,"game":{"TimeControl":{"Base":180000000000,"Increment":0},` +
		`"Moves":["e2e4"],"MoveClocks":[180000000000],"Left":[180000000000,180000000000],"Started":"2026-11-25T12:00:00Z",` +
		`"Saved":"2026-11-25T12:00:05Z","Offers":{"Draw":[true,false]}},"host":"a","draw_offer":[true,false],"takeback":[false,false]}`
	var g GameRecord
	if err := json.Unmarshal([]byte(old), &g); err != nil {
		t.Fatal(err)
	}
	if want := (Players{White: "ann", Black: "bob", Rated: true}); g.Players != want || !g.Game.Offers.Draw[0] || g.Host != "a" {
		t.Errorf("read %+v", g)
	}
	data, err := json.Marshal(GameRecord{ID: "g", Players: Players{White: "ann", Black: "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); !strings.HasPrefix(s, `{"id":"g","white":"ann","black":"bob","rated":false,"game":`) {
		t.Errorf("written %s", s)
	}
}

// TestPlays: a player's handle is theirs in any case and look-alike
// spelling (as handles are told apart), no one else's; no handle plays.
func TestPlays(t *testing.T) {
	p := Players{White: "ann", Black: "Bob"}
	for h, want := range map[string]bool{"ann": true, "ANN": true, "bob": true, "B0b": true, "eve": false, "": false, "annie": false} {
		if got := p.Plays(h); got != want {
			t.Errorf("Plays(%q) = %v, want %v", h, got, want)
		}
	}
	if (Players{}).Plays("") {
		t.Error("no handle plays a game without players")
	}
}
