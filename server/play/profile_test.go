package play

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// foolsMate plays a game to Black's mate in two between white and black.
func foolsMate(t *testing.T, h *Hub, clk *fakeClock, white, black string, rated bool) *Ended {
	t.Helper()
	ctx := context.Background()
	id, err := h.Start(ctx, white, black, blitz, rated)
	if err != nil {
		t.Fatal(err)
	}
	var ended *Ended
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		clk.Advance(3 * time.Second)
		if ended, err = h.Move(ctx, id, []string{white, black}[i%2], m); err != nil {
			t.Fatal(err)
		}
	}
	if ended == nil {
		t.Fatal("the game did not end")
	}
	return ended
}

// TestProfile: a player's profile is read from their account, ratings and
// index of games: the results counted from the player's side, each rated
// game's rating after it in the speed's history, oldest first, the games
// newest first; an unknown handle is refused.
func TestProfile(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	if _, err := st.CreateAccount(ctx, "SHA256:ann", "Ann", clk.Now()); err != nil {
		t.Fatal(err)
	}
	first := foolsMate(t, h, clk, "Ann", "bob", true) // Ann loses
	clk.Advance(time.Hour)
	second := foolsMate(t, h, clk, "bob", "Ann", true) // Ann wins
	clk.Advance(time.Hour)
	foolsMate(t, h, clk, "bob", "Ann", false) // casual: no rating

	p, err := PlayerProfile(ctx, st, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if p.Handle != "Ann" || !p.Since.Equal(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("handle %q, member since %v", p.Handle, p.Since)
	}
	if len(p.Games) != 3 || p.Won != 2 || p.Lost != 1 || p.Drawn != 0 {
		t.Fatalf("%d games: won %d, drew %d, lost %d", len(p.Games), p.Won, p.Drawn, p.Lost)
	}
	if p.Games[0].Rated || p.Games[2].ID != first.ID || p.Games[2].Outcome() != "lost" || p.Games[2].Opponent != "bob" {
		t.Errorf("games not newest first: %+v", p.Games)
	}
	blitzRating := p.Speeds[clock.Blitz]
	if blitzRating.Speed != clock.Blitz || blitzRating.Rated != 2 || len(blitzRating.History) != 2 ||
		blitzRating.History[0] != first.After[0].Rating || blitzRating.History[1] != second.After[1].Rating ||
		blitzRating.Rating != second.After[1] {
		t.Errorf("blitz %+v; want the history %v then %v", blitzRating, first.After[0].Rating, second.After[1].Rating)
	}
	if b := p.Speeds[clock.Bullet]; b.Rated != 0 || !b.Rating.Provisional() {
		t.Errorf("bullet, never played: %+v", b)
	}
	if _, err := PlayerProfile(ctx, st, "nobody"); err == nil || !strings.Contains(err.Error(), "no player nobody") {
		t.Errorf("an unknown handle: %v", err)
	}
	// The review of a game from the profile: its PGN from the archive.
	if e, err := ArchivedEnded(ctx, st, first.ID); err != nil || e.PGN == nil || e.PGN.Tag("White") != "Ann" {
		t.Errorf("the archived game: %+v %v", e, err)
	}
	if _, err := ArchivedEnded(ctx, st, "nope"); err == nil {
		t.Error("an unknown game reviewed")
	}
}

// TestIndexArchive: an archive written before the players' index existed
// is indexed once, from its games' tags, by the first hub opened on it;
// the games then come from the index (PlayerPGN among them).
func TestIndexArchive(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, dir, clk)
	ended := foolsMate(t, h, clk, "ann", "bob", true)
	want, err := st.PlayedBy(ctx, "bob")
	if err != nil || len(want) != 1 {
		t.Fatalf("bob's games %+v %v", want, err)
	}
	st.Close()

	// The same archive on a store without the index (as before it).
	old := t.TempDir()
	st2, err := store.Open(ctx, store.Options{Dir: old})
	if err != nil {
		t.Fatal(err)
	}
	if err := st2.ArchiveGame(ctx, ended.ID, ended.PGN.String()); err != nil {
		t.Fatal(err)
	}
	st2.Close()

	_, st3 := newHub(t, old, clk)
	got, err := st3.PlayedBy(ctx, "BOB")
	if err != nil || len(got) != 1 {
		t.Fatalf("bob's games after indexing %+v %v", got, err)
	}
	g, w := got[0], want[0]
	if g.ID != w.ID || g.Opponent != "ann" || g.White || g.Score != 1 || g.Result != "0-1" || g.Termination != w.Termination ||
		g.TimeControl != "3+2" || g.Speed != "blitz" || !g.Rated || !g.Started.Equal(w.Started) ||
		g.After.Rating != float64(int(w.After.Rating+0.5)) {
		t.Errorf("indexed from the archive %+v\nwritten at the end         %+v", g, w)
	}
	var b strings.Builder
	if n, err := PlayerPGN(ctx, st3, "bob", time.Time{}, &b); n != 1 || err != nil || b.String() != ended.PGN.String() {
		t.Errorf("bob's PGN (%d, %v):\n%s", n, err, b.String())
	}
}

// TestStartRatings: a game's record holds both players' ratings at its
// speed as it began, for the screens (none for Squall's seat).
func TestStartRatings(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	r := rating.Rating{Rating: 1712, RD: 80, Volatility: 0.06}
	if err := st.PutRating(ctx, "ann", "blitz", r); err != nil {
		t.Fatal(err)
	}
	id, err := h.Start(ctx, "ann", "bob", blitz, true)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := h.Game(id); err != nil || g.Players.AtStart != [2]rating.Rating{r, rating.New()} {
		t.Errorf("the players' ratings at the start: %+v %v", g.Players, err)
	}
}
