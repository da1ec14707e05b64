package play

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/game"
)

// TestPremove: a queued premove is played by the host in the very write
// that stores the opponent's move (the store's next revision after the
// premove's holds both moves, none between), charged exactly
// game.PremoveCharge plus the increment; a cancelled premove is never
// played; an illegal one is dropped and the record says so to the
// player.
func TestPremove(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, st := newHub(t, t.TempDir(), clk)
	id, err := h.Start(ctx, "ann", "bob", blitz, false)
	if err != nil {
		t.Fatal(err)
	}
	move := func(who, m string) {
		t.Helper()
		if _, err := h.Move(ctx, id, who, m); err != nil {
			t.Fatalf("%s %s: %v", who, m, err)
		}
	}
	move("ann", "e4")
	move("bob", "e5")
	clk.Advance(time.Second)
	if _, err := h.Premove(ctx, id, "bob", "exd4"); err != nil {
		t.Fatal(err)
	}
	rec, rev, _, err := st.Game(ctx, id)
	if err != nil || rec.Game.Premoves.Queued[chess.Black] != "exd4" {
		t.Fatalf("the premove is not stored when Premove returns: %+v %v", rec.Game.Premoves, err)
	}
	clk.Advance(5 * time.Second)
	move("ann", "d4")
	rec, rev2, _, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rec.Game.Moves, " "); got != "e2e4 e7e5 d2d4 e5d4" || rev2 != rev+1 {
		t.Errorf("after ann's move the store holds %q at revision %d (the premove's %d): want both moves in the next write", got, rev2, rev)
	}
	wantAnn := blitz.Base - 6*time.Second + game.LagAllowance + blitz.Increment
	wantBob := blitz.Base - game.PremoveCharge + blitz.Increment
	if rec.Game.Left != [2]time.Duration{wantAnn, wantBob} {
		t.Errorf("clocks %v, want ann %v, bob %v (the premove charged %v)", rec.Game.Left, wantAnn, wantBob, game.PremoveCharge)
	}

	// Cancelled: never played.
	if _, err := h.Premove(ctx, id, "bob", "Nc6"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.CancelPremove(ctx, id, "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.CancelPremove(ctx, id, "bob"); !errors.Is(err, game.ErrNothing) {
		t.Errorf("cancel with nothing queued: %v", err)
	}
	move("ann", "Nf3")
	u, err := h.Game(id)
	if err != nil || len(u.Game.Moves) != 5 || u.Replayed.Position.SideToMove() != chess.Black {
		t.Fatalf("the cancelled premove was played: %v %v", u.Replayed.SANs, err)
	}

	// Illegal when its turn comes: dropped, and the player told.
	move("bob", "Nc6")
	move("ann", "Bc4")
	if _, err := h.Premove(ctx, id, "ann", "Ng5"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Premove(ctx, id, "ann", "O-O"); err != nil { // replaces Ng5; legal now, not in check
		t.Fatal(err)
	}
	move("bob", "Bb4+")
	u, _ = h.Game(id)
	if p := u.Game.Premoves; p.Queued != [2]string{} || p.Dropped[chess.White] != "O-O" || len(u.Game.Moves) != 8 {
		t.Errorf("after the illegal premove: %+v, moves %v", p, u.Replayed.SANs)
	}
	// A premove to a game where a spectator tries it: refused.
	if _, err := h.Premove(ctx, id, "eve", "c3"); !errors.Is(err, ErrNotPlayer) {
		t.Errorf("a spectator's premove: %v", err)
	}
	move("ann", "c3")
	if u, _ = h.Game(id); u.Game.Premoves != (game.Premoves{}) {
		t.Errorf("the dropped premove is still said after ann moved: %+v", u.Game.Premoves)
	}
}
