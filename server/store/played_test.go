package store

import (
	"context"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/rating"
)

// TestPlayed: each player's index holds their games alone, newest first,
// read in any case of the handle; a line added again (a game finished
// again after its host died) is kept once; the ratings of a rated game
// come back as written.
func TestPlayed(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	defer s.Close()
	r := rating.Rating{Rating: 1612.5, RD: 80, Volatility: 0.06}
	lines := []Played{
		{ID: "g1", Handle: "ann", Opponent: "bob", White: true, Score: 1, Result: "1-0", Speed: "blitz", Ended: t0},
		{ID: "g1", Handle: "bob", Opponent: "ann", Score: 0, Result: "1-0", Speed: "blitz", Ended: t0},
		{ID: "g2", Handle: "cid", Opponent: "dan", Score: 0.5, Ended: t0.Add(time.Minute)},
		{ID: "g3", Handle: "Ann", Opponent: "cid", Score: 0.5, Rated: true, After: r, Ended: t0.Add(2 * time.Minute)},
	}
	for _, p := range append(lines, lines[0]) {
		if err := s.AddPlayed(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.PlayedBy(ctx, "ANN")
	if err != nil || len(got) != 2 || got[0].ID != "g3" || got[1].ID != "g1" {
		t.Fatalf("ann's games %+v, %v", got, err)
	}
	if got[0].After != r || got[0].Outcome() != "drew" || got[1].Outcome() != "won" || !got[1].White {
		t.Errorf("ann's games read back as %+v", got)
	}
	if got, err := s.PlayedBy(ctx, "bob"); err != nil || len(got) != 1 || got[0].Outcome() != "lost" {
		t.Errorf("bob's games %+v, %v", got, err)
	}
	if got, err := s.PlayedBy(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Errorf("nobody's games %+v, %v", got, err)
	}

	if done, err := s.IndexedArchive(ctx); done || err != nil {
		t.Errorf("a new store's archive indexed already: %v %v", done, err)
	}
	if err := s.MarkIndexedArchive(ctx); err != nil {
		t.Fatal(err)
	}
	if done, err := s.IndexedArchive(ctx); !done || err != nil {
		t.Errorf("the archive not indexed after its mark: %v %v", done, err)
	}

	if _, err := s.CreateAccount(ctx, "SHA256:ann", "Ann", t0); err != nil {
		t.Fatal(err)
	}
	if a, found, err := s.AccountOf(ctx, "ANN"); err != nil || !found || a.Handle != "Ann" || !a.Created.Equal(t0) {
		t.Errorf("the account of ANN: %+v %v %v", a, found, err)
	}
	if _, found, err := s.AccountOf(ctx, "nobody"); err != nil || found {
		t.Errorf("the account of nobody: %v %v", found, err)
	}
}
