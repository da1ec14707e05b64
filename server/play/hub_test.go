package play

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// fakeClock is the hub's time, moved by the test.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func newHub(t *testing.T, dir string, clk *fakeClock) (*Hub, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), store.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := NewHub(context.Background(), st, Config{Now: clk.Now, Site: "squall test"})
	if err != nil {
		t.Fatal(err)
	}
	return h, st
}

var blitz = game.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}

// TestRatedGame: two players play a rated game to mate; each move is
// answered only once stored; the game is archived with [%clk]; both
// ratings change as Glicko-2 says.
func TestRatedGame(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	id, err := h.Start(ctx, "ann", "bob", blitz, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Start(ctx, "bob", "cid", blitz, true); !errors.Is(err, ErrBusy) {
		t.Errorf("bob starts a second game: %v", err)
	}
	if _, err := h.Move(ctx, id, "bob", "e7e5"); !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("bob first: %v", err)
	}
	if _, err := h.Move(ctx, id, "eve", "e2e4"); !errors.Is(err, ErrNotPlayer) {
		t.Errorf("a spectator's move: %v", err)
	}
	var ended *Ended
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		clk.Advance(3 * time.Second)
		player := []string{"ann", "bob"}[i%2]
		if ended, err = h.Move(ctx, id, player, m); err != nil {
			t.Fatalf("%s %s: %v", player, m, err)
		}
		if i < 3 {
			// Stored before the move was answered.
			games, _ := st.Games(ctx)
			if len(games) != 1 || len(games[0].Game.Moves) != i+1 {
				t.Fatalf("after move %d the store holds %+v", i+1, games)
			}
		}
	}
	if ended == nil || ended.Result.Termination != game.Checkmate || ended.Result.PGN() != "0-1" {
		t.Fatalf("ended %+v", ended)
	}
	want := [2]rating.Rating{
		rating.New().Update([]rating.Result{{Opponent: rating.New(), Score: 0}}, rating.Tau),
		rating.New().Update([]rating.Result{{Opponent: rating.New(), Score: 1}}, rating.Tau),
	}
	if ended.After != want || ended.After[1].Rating <= 1500 || ended.After[0].Rating >= 1500 {
		t.Errorf("ratings %+v, want %+v", ended.After, want)
	}
	if r, _ := st.Rating(ctx, "bob", "blitz"); r != want[1] {
		t.Errorf("bob's stored rating %+v", r)
	}
	if games, _ := st.Games(ctx); len(games) != 1 || games[0].End == nil || games[0].End.Result != ended.Result {
		t.Errorf("the finished game's last record: %+v", games)
	}
	if len(h.Games()) != 0 {
		t.Errorf("finished game still in progress: %+v", h.Games())
	}
	var b strings.Builder
	if n, err := st.ExportPGN(ctx, &b); err != nil || n != 1 || !strings.Contains(b.String(), "[%clk 0:02:59.1]") || !strings.Contains(b.String(), `[White "ann"]`) {
		t.Errorf("archive (%d, %v):\n%s", n, err, b.String())
	}
	if _, err := h.Move(ctx, id, "ann", "e2e4"); !errors.Is(err, ErrNoGame) {
		t.Errorf("a move in a finished game: %v", err)
	}
}

// TestFinishAfterHostDied: a host that dies after writing a rated game's
// ratings, before its last record, leaves the game over by its moves and
// without an end. The server that finishes it writes the ratings the host
// computed — each player's moved once, not twice — and notes the game
// once in each player's index of games.
func TestFinishAfterHostDied(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, dir, clk)
	id, err := h.Start(ctx, "ann", "bob", blitz, true)
	if err != nil {
		t.Fatal(err)
	}
	var ended *Ended
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		clk.Advance(3 * time.Second)
		if ended, err = h.Move(ctx, id, []string{"ann", "bob"}[i%2], m); err != nil {
			t.Fatal(err)
		}
	}
	if ended == nil || ended.After[1].Rating <= 1500 {
		t.Fatalf("ended %+v", ended)
	}
	// What the host had written when it died: its last record, without
	// the end.
	rec, rev, found, err := st.Game(ctx, id)
	if err != nil || !found || rec.Ratings == nil || rec.Ratings.After != ended.After {
		t.Fatalf("the game's ratings are not in its record: %+v %v %v", rec, found, err)
	}
	rec.End = nil
	if _, err := st.SaveGame(ctx, rec, rev); err != nil {
		t.Fatal(err)
	}
	st.Close()

	h2, st2 := newHub(t, dir, clk)
	if n, err := h2.Restore(ctx); n != 0 || err != nil {
		t.Fatalf("restored %d, %v", n, err)
	}
	for side, handle := range []string{"ann", "bob"} {
		if r, err := st2.Rating(ctx, handle, "blitz"); err != nil || r != ended.After[side] {
			t.Errorf("%s's rating %+v (%v), want %+v: the game applied again", handle, r, err, ended.After[side])
		}
		if played, err := st2.PlayedBy(ctx, handle); err != nil || len(played) != 1 || played[0].After != ended.After[side] {
			t.Errorf("%s's games %+v, %v", handle, played, err)
		}
	}
	if rec, _, found, err := st2.Game(ctx, id); err != nil || !found || rec.End == nil || rec.End.After != ended.After {
		t.Errorf("the finished game's last record: %+v %v %v", rec, found, err)
	}
}

// TestRestart: a hub that stops mid-game (a crash) and a new hub on the
// same store resume the game with its moves and clocks; the time it was
// down is charged to nobody.
func TestRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, dir, clk)
	id, _ := h.Start(ctx, "ann", "bob", blitz, false)
	for i, m := range []string{"e2e4", "e7e5", "g1f3"} {
		clk.Advance(4 * time.Second)
		if _, err := h.Move(ctx, id, []string{"ann", "bob"}[i%2], m); err != nil {
			t.Fatal(err)
		}
	}
	// Black thinks 25 s, then the server dies: the clocks were written
	// at least every SaveEvery, so at most that much is forgiven.
	clk.Advance(25 * time.Second)
	if _, err := h.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	before, _ := h.Game(id)
	beforeLeft := before.Clocks(clk.Now())
	st.Close()

	clk.Advance(10 * time.Minute) // down for ten minutes
	h2, _ := newHub(t, dir, clk)
	if n, err := h2.Restore(ctx); n != 1 || err != nil {
		t.Fatalf("restored %d, %v", n, err)
	}
	after, err := h2.Game(id)
	if err != nil || strings.Join(after.Game.Moves, " ") != "e2e4 e7e5 g1f3" || after.White != "ann" {
		t.Fatalf("after the restart: %+v %v", after.GameRecord, err)
	}
	if afterLeft := after.Clocks(clk.Now()); afterLeft != beforeLeft || beforeLeft[1] > blitz.Base-25*time.Second+blitz.Increment {
		t.Errorf("clocks %v after the restart, %v before the crash", afterLeft, beforeLeft)
	}
	if _, err := h2.Move(ctx, id, "bob", "b8c6"); err != nil {
		t.Errorf("the game does not go on: %v", err)
	}
}

// TestFlagByTick: a player who lets the clock run out loses when the
// hub ticks.
func TestFlagByTick(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, _ := newHub(t, t.TempDir(), clk)
	id, _ := h.Start(ctx, "ann", "bob", game.TimeControl{Base: time.Minute}, true)
	h.Move(ctx, id, "ann", "e2e4")
	h.Move(ctx, id, "bob", "e7e5")
	clk.Advance(59 * time.Second)
	if ended, _ := h.Tick(ctx); len(ended) != 0 {
		t.Fatalf("ended early: %+v", ended)
	}
	clk.Advance(2 * time.Second)
	ended, err := h.Tick(ctx)
	if err != nil || len(ended) != 1 || ended[0].Result.Termination != game.TimeForfeit || ended[0].Result.PGN() != "0-1" {
		t.Errorf("after the flag: %+v %v", ended, err)
	}
}

// TestSeatAndWatch: Squall takes a seat like a person (through the hub),
// a spectator's Watch sees every move and the end, and the seat's
// goroutine ends with the game.
func TestSeatAndWatch(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, _ := newHub(t, t.TempDir(), clk)
	id, _ := h.Start(ctx, "Squall", "ann", blitz, false)
	spectator, stopWatching, err := h.Watch(id)
	if err != nil {
		t.Fatal(err)
	}
	defer stopWatching()
	seatDone := make(chan error, 1)
	go func() { seatDone <- h.Seat(ctx, id, "Squall", &enginetest.Engine{}, engine.Limits{Depth: 2}) }()
	// ann answers each engine move, then resigns after the second.
	seen := 0
	for u := range spectator {
		seen = max(seen, len(u.Game.Moves))
		if u.Over() {
			if u.End.Result.Termination != game.Resignation || u.End.Result.Winner != chess.White {
				t.Errorf("the spectator saw the end as %+v", u.End.Result)
			}
			break
		}
		switch len(u.Game.Moves) {
		case 1:
			if _, err := h.Move(ctx, id, "ann", "e7e5"); err != nil {
				t.Fatal(err)
			}
		case 3:
			if _, err := h.Resign(ctx, id, "ann"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen != 3 {
		t.Errorf("the spectator saw %d moves, want 3", seen)
	}
	select {
	case err := <-seatDone:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the seat's goroutine outlives the game")
	}
	if _, _, err := h.Watch(id); !errors.Is(err, ErrNoGame) {
		t.Errorf("watching a finished game: %v", err)
	}
}

// TestClaim: a player whose opponent never came back claims the game
// once the grace period is over, not before.
func TestClaim(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, _ := newHub(t, t.TempDir(), clk)
	id, _ := h.Start(ctx, "ann", "bob", blitz, true)
	h.Move(ctx, id, "ann", "e2e4")
	h.Move(ctx, id, "bob", "e7e5")
	gone := clk.Now() // bob disconnects
	clk.Advance(game.Grace(blitz) - time.Second)
	if _, err := h.Claim(ctx, id, "ann", gone, false); err == nil {
		t.Fatal("claimed within the grace period")
	}
	clk.Advance(2 * time.Second)
	ended, err := h.Claim(ctx, id, "ann", gone, false)
	if err != nil || ended == nil || ended.Result.Winner != chess.White || ended.Result.Termination != game.Abandoned || ended.After[0].Rating <= 1500 {
		t.Errorf("claim after the grace: %+v %v", ended, err)
	}
}

// TestUnstoredMoveNotMade: a move whose write to the store fails is
// refused and not made — the player may make it again, and no later
// write of the clocks stores it unannounced.
func TestUnstoredMoveNotMade(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	id, err := h.Start(ctx, "ann", "bob", blitz, true)
	if err != nil {
		t.Fatal(err)
	}
	dead, cancel := context.WithCancel(ctx)
	cancel() // the store cannot be reached with it
	if _, err := h.Move(dead, id, "ann", "e2e4"); err == nil {
		t.Fatal("a move that could not be stored was answered as made")
	}
	clk.Advance(SaveEvery + time.Second)
	if _, err := h.Tick(ctx); err != nil { // writes the clocks
		t.Fatal(err)
	}
	g, _, found, err := st.Game(ctx, id)
	if err != nil || !found {
		t.Fatal(found, err)
	}
	if len(g.Game.Moves) != 0 {
		t.Fatalf("the refused move was stored: %v", g.Game.Moves)
	}
	if _, err := h.Move(ctx, id, "ann", "e2e4"); err != nil {
		t.Fatalf("the move again: %v", err)
	}
}

// TestNoRatingBeforeFirstMoves is issue 33's F3: a rated game counts only
// once both sides have made their first move (lichess). Before, resigning
// or claiming aborts the game and a draw cannot be offered, so two
// accounts cannot farm a rating with games that were never played; an
// aborted game, or one a player left before moving, changes no rating and
// is not archived. A rated game below the least rated control is refused.
func TestNoRatingBeforeFirstMoves(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	start := func() string {
		t.Helper()
		clk.Advance(time.Minute)
		id, err := h.Start(ctx, "ann", "bob", blitz, true)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	unrated := func(what string, e *Ended, err error) {
		t.Helper()
		if err != nil || e == nil || e.Result.Decided() || e.After != [2]rating.Rating{} || e.PGN != nil {
			t.Errorf("%s: %+v %v, want the game aborted", what, e, err)
		}
	}
	id := start()
	e, err := h.Abort(ctx, id, "ann")
	unrated("abort at once", e, err)

	id = start()
	e, err = h.Resign(ctx, id, "bob") // before anyone moved
	unrated("bob resigns before moving", e, err)

	id = start()
	h.Move(ctx, id, "ann", "e2e4")
	e, err = h.Resign(ctx, id, "bob")
	unrated("bob resigns before his first move", e, err)

	id = start()
	h.Move(ctx, id, "ann", "e2e4")
	if _, err := h.OfferDraw(ctx, id, "ann"); !errors.Is(err, game.ErrTooEarly) {
		t.Errorf("a draw offered before both first moves: %v", err)
	}
	if e, err := h.OfferDraw(ctx, id, "bob"); e != nil || !errors.Is(err, game.ErrTooEarly) {
		t.Errorf("a draw agreed before both first moves: %+v %v", e, err)
	}
	h.Abort(ctx, id, "ann")

	id = start()
	h.Move(ctx, id, "ann", "e2e4")
	gone := clk.Now() // bob leaves before his first move
	clk.Advance(game.Grace(blitz) + time.Second)
	e, _ = h.Claim(ctx, id, "ann", gone, false) // the first-move deadline has ended it, if the claim did not
	if e == nil {
		ended, err := h.Tick(ctx)
		if len(ended) == 1 {
			e = &ended[0]
		}
		unrated("the game bob left before moving, ticked", e, err)
	} else {
		unrated("ann claims a game bob left before moving", e, nil)
	}

	for _, p := range []string{"ann", "bob"} {
		if r, err := st.Rating(ctx, p, "blitz"); err != nil || r != rating.New() {
			t.Errorf("%s's rating after games never played: %+v %v", p, r, err)
		}
	}
	var b strings.Builder
	if n, err := st.ExportPGN(ctx, &b); err != nil || n != 0 {
		t.Errorf("%d games archived (%v):\n%s", n, err, b.String())
	}
	if _, err := h.Start(ctx, "ann", "bob", game.TimeControl{Base: 60 * time.Millisecond}, true); err == nil || !strings.Contains(err.Error(), "too fast to be rated") {
		t.Errorf("a rated 60 ms game: %v", err)
	}
}

// TestArchiveRatings is issue 33's G11 in the archive: archived games had
// no WhiteElo/BlackElo. Each game carries both players' ratings before it
// (and a rated game lichess's WhiteRatingDiff/BlackRatingDiff), the
// standard Termination, and the export reads back with the PGN reader.
func TestArchiveRatings(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	play := func(rated bool, white, black string, moves ...string) {
		t.Helper()
		id, err := h.Start(ctx, white, black, blitz, rated)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range moves {
			clk.Advance(time.Second)
			if _, err := h.Move(ctx, id, []string{white, black}[i%2], m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := h.Resign(ctx, id, black); err != nil {
			t.Fatal(err)
		}
	}
	play(true, "ann", "bob", "e2e4", "e7e5")  // 1500 v 1500: ann +162
	play(true, "bob", "ann", "d2d4", "d7d5")  // 1338 v 1662: bob +229
	play(false, "ann", "bob", "c2c4", "c7c5") // casual: their ratings, no change
	var b strings.Builder
	if n, err := st.ExportPGN(ctx, &b); err != nil || n != 3 {
		t.Fatalf("%d games, %v", n, err)
	}
	want := []map[string]string{
		{"WhiteElo": "1500", "BlackElo": "1500", "WhiteRatingDiff": "+162", "BlackRatingDiff": "-162", "Termination": "normal"},
		{"WhiteElo": "1338", "BlackElo": "1662", "WhiteRatingDiff": "+229", "BlackRatingDiff": "-229"},
		{"WhiteElo": "1433", "BlackElo": "1567", "WhiteRatingDiff": "", "BlackRatingDiff": ""},
	}
	i := 0
	for g, err := range pgn.Games(strings.NewReader(b.String())) {
		if err != nil {
			t.Fatalf("the export does not read back: %v\n%s", err, b.String())
		}
		for tag, v := range want[min(i, 2)] {
			if got := g.Tag(tag); got != v {
				t.Errorf("game %d: %s %q, want %q", i+1, tag, got, v)
			}
		}
		i++
	}
	if i != 3 {
		t.Errorf("%d games read back:\n%s", i, b.String())
	}
}
