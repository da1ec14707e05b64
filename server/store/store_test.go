package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
)

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStoreKeepsEverything: accounts (with handle claims), ratings, live
// games and the archive survive closing the store and opening it again on
// the same directory, as after a restart.
func TestStoreKeepsEverything(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	before := runtime.NumGoroutine()
	s := open(t, dir)
	a, err := s.CreateAccount(ctx, "SHA256:abc+/=", "Magnus", t0)
	if err != nil || a.Handle != "Magnus" {
		t.Fatalf("create: %+v %v", a, err)
	}
	// A try that claimed a handle but failed before writing its account
	// is finished by the next try of the same key, and only by it.
	if _, err := s.accounts.Create(ctx, "handle."+key(account.Key("halfway")), []byte("SHA256:half")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateAccount(ctx, "SHA256:thief", "halfway", t0); !errors.Is(err, ErrHandleTaken) {
		t.Errorf("another key finishing a half-made account: %v", err)
	}
	if a, err := s.CreateAccount(ctx, "SHA256:half", "halfway", t0); err != nil || a.Handle != "halfway" {
		t.Errorf("the same key finishing its account: %+v %v", a, err)
	}
	if _, err := s.CreateAccount(ctx, "SHA256:other", "magnu5", t0); !errors.Is(err, ErrHandleTaken) {
		t.Errorf("a look-alike handle: %v", err)
	}
	if _, err := s.CreateAccount(ctx, "SHA256:abc+/=", "Another", t0); err == nil {
		t.Error("a second account for one key")
	}
	if _, err := s.CreateAccount(ctx, "SHA256:third", "bad handle\x1b", t0); err == nil {
		t.Error("an invalid handle accepted")
	}
	r := rating.Rating{Rating: 1612.5, RD: 80, Volatility: 0.059}
	if err := s.PutRating(ctx, "Magnus", "blitz", r); err != nil {
		t.Fatal(err)
	}
	g := GameRecord{ID: "g1", Players: Players{White: "Magnus", Black: "ann", Rated: true}, Game: game.State{
		TimeControl: game.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, Moves: []string{"e2e4", "e7e5"},
		MoveClocks: []time.Duration{3 * time.Minute, 3 * time.Minute}, Left: [2]time.Duration{178 * time.Second, 3 * time.Minute},
		Started: t0, Saved: t0.Add(5 * time.Second)}}
	rev, err := s.SaveGame(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A write at a revision that is not the game's last is refused: the
	// game is another server's now.
	if _, err := s.SaveGame(ctx, g, 0); !errors.Is(err, ErrStale) {
		t.Errorf("a second new game g1: %v", err)
	}
	next, err := s.SaveGame(ctx, g, rev)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveGame(ctx, g, rev); !errors.Is(err, ErrStale) {
		t.Errorf("a write at an old revision: %v", err)
	}
	if got, r, found, err := s.Game(ctx, "g1"); err != nil || !found || r != next || got.White != "Magnus" {
		t.Errorf("game g1: %+v at %d (%v %v), want revision %d", got, r, found, err, next)
	}
	if err := s.ArchiveGame(ctx, "g0", "[Event \"one\"]\n\n1. e4 *\n\n"); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s = open(t, dir)
	defer s.Close()
	if a, found, err := s.Account(ctx, "SHA256:abc+/="); err != nil || !found || a.Handle != "Magnus" || !a.Created.Equal(t0) {
		t.Errorf("account after reopening: %+v %v %v", a, found, err)
	}
	if got, err := s.Rating(ctx, "MAGNUS", "blitz"); err != nil || got != r {
		t.Errorf("rating after reopening: %+v %v", got, err)
	}
	if got, err := s.Rating(ctx, "ann", "blitz"); err != nil || got != rating.New() {
		t.Errorf("a new player's rating: %+v %v", got, err)
	}
	games, err := s.Games(ctx)
	if err != nil || len(games) != 1 || games[0].ID != "g1" || strings.Join(games[0].Game.Moves, " ") != "e2e4 e7e5" ||
		games[0].Game.Left[0] != 178*time.Second || !games[0].Game.Saved.Equal(t0.Add(5*time.Second)) {
		t.Errorf("live games after reopening: %+v %v", games, err)
	}
	// Archiving the game again (a crash before its last write) archives
	// nothing twice; dropped, it is gone.
	for range 2 {
		if err := s.ArchiveGame(ctx, "g1", "[Event \"two\"]\n\n1. e4 e5 *\n\n"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DropGame(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if games, _ := s.Games(ctx); len(games) != 0 {
		t.Errorf("finished game still live: %+v", games)
	}
	var b strings.Builder
	n, err := s.ExportPGN(ctx, &b)
	if err != nil || n != 2 || strings.Index(b.String(), "one") > strings.Index(b.String(), "two") {
		t.Errorf("export: %d games, %v:\n%s", n, err, b.String())
	}
	s.Close()
	// The embedded server's goroutines end with it.
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left, %d before", runtime.NumGoroutine(), before)
		}
	}
}

func TestOpenNeedsADirectory(t *testing.T) {
	if _, err := Open(context.Background(), Options{}); err == nil {
		t.Error("opened without a directory")
	}
}

// TestLeaderboard: established ratings ranked best first, then the
// provisional ones, best first; RatedPlayers counts each speed's.
func TestLeaderboard(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	defer s.Close()
	for _, st := range []Standing{
		{"ann", "blitz", rating.Rating{Rating: 1700, RD: 60, Volatility: 0.06}},
		{"bob", "blitz", rating.Rating{Rating: 1900, RD: 70, Volatility: 0.06}},
		{"cid", "blitz", rating.Rating{Rating: 2500, RD: 300, Volatility: 0.06}}, // provisional
		{"eve", "blitz", rating.Rating{Rating: 1400, RD: 111, Volatility: 0.06}}, // provisional
		{"dan", "bullet", rating.Rating{Rating: 2000, RD: 50, Volatility: 0.06}},
	} {
		if err := s.PutRating(ctx, st.Handle, st.Speed, st.Rating); err != nil {
			t.Fatal(err)
		}
	}
	board, err := s.Leaderboard(ctx, "blitz", 10)
	if err != nil || len(board) != 4 || board[0].Handle != "bob" || board[1].Handle != "ann" || board[2].Handle != "cid" || board[3].Handle != "eve" {
		t.Errorf("leaderboard %+v, %v", board, err)
	}
	n, err := s.RatedPlayers(ctx, "bullet", "blitz", "rapid")
	if err != nil || len(n) != 2 || n["blitz"] != 4 || n["bullet"] != 1 || n["rapid"] != 0 {
		t.Errorf("rated players by speed: %v, %v", n, err)
	}
}

// TestOneStorePerDirectory is issue 33's G13: `squall serve export` opened
// a running server's embedded store beside it, two NATS servers writing
// one JetStream directory. A directory's store is open once at a time:
// the second Open is refused, saying why, until the first is closed.
func TestOneStorePerDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	if err := s.ArchiveGame(ctx, "g1", "[Event \"x\"]\n\n1. e4 *\n\n"); err != nil {
		t.Fatal(err)
	}
	second, err := Open(ctx, Options{Dir: dir})
	if err == nil {
		var b strings.Builder
		n, eerr := second.ExportPGN(ctx, &b)
		second.Close()
		t.Fatalf("a second store opened on a directory in use (it exported %d games, %v)", n, eerr)
	}
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), fmt.Sprintf("(process %d)", os.Getpid())) {
		t.Errorf("refusal %q does not say the directory is in use", err)
	}
	s.Close()
	again := open(t, dir)
	defer again.Close()
	var b strings.Builder
	if n, err := again.ExportPGN(ctx, &b); err != nil || n != 1 {
		t.Errorf("after the first closed: %d games, %v", n, err)
	}
}
