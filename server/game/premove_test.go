package game

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// TestPremove: a move queued while the opponent thinks is played the
// instant the opponent's move is, charged exactly PremoveCharge (then the
// increment) and no lag allowance; a cancelled one is never played; one
// not legal when its turn comes is dropped and said; one queued on the
// side's own turn is a move.
func TestPremove(t *testing.T) {
	tc := TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
	g := New(tc, t0)
	mustPlay(t, g, chess.White, "e4", at(1))
	mustPlay(t, g, chess.Black, "e5", at(2))
	// White to move, its clock running from 2 s: Black queues exd4.
	if played, err := g.Premove(chess.Black, "exd4", at(3)); played || err != nil {
		t.Fatalf("queue exd4: %v %v", played, err)
	}
	if q := g.Premoves().Queued[chess.Black]; q != "exd4" {
		t.Fatalf("queued %q", q)
	}
	mustPlay(t, g, chess.White, "d4", at(7)) // 5 s thought, 0.1 s of it forgiven
	if got := strings.Join(g.SANs(), " "); got != "e4 e5 d4 exd4" || g.Turn() != chess.White {
		t.Fatalf("after the premove: %q, %s to move", got, g.Turn().Name())
	}
	if p := g.Premoves(); p != (Premoves{}) {
		t.Errorf("premoves after it was played: %+v", p)
	}
	now := at(7)
	wantWhite := 3*time.Minute - 5*time.Second + LagAllowance + tc.Increment
	wantBlack := 3*time.Minute - PremoveCharge + tc.Increment
	if w, b := g.Remaining(chess.White, now), g.Remaining(chess.Black, now); w != wantWhite || b != wantBlack {
		t.Errorf("clocks %v %v, want %v %v (the premove charged %v)", w, b, wantWhite, wantBlack, PremoveCharge)
	}
	if side, run := g.ClockRunning(); !run || side != chess.White {
		t.Error("White's clock does not run after the premove")
	}
	if st := g.State(now); st.MoveClocks[3] != wantBlack {
		t.Errorf("[%%clk] of the premove %v, want %v", st.MoveClocks[3], wantBlack)
	}

	// Cancelled: never played.
	if _, err := g.Premove(chess.Black, "Nc6", at(8)); err != nil {
		t.Fatal(err)
	}
	if err := g.CancelPremove(chess.Black); err != nil {
		t.Fatal(err)
	}
	if err := g.CancelPremove(chess.Black); !errors.Is(err, ErrNothing) {
		t.Errorf("cancel with none queued: %v", err)
	}
	mustPlay(t, g, chess.White, "Nf3", at(9))
	if got := len(g.Moves()); got != 5 || g.Turn() != chess.Black {
		t.Fatalf("a cancelled premove was played: %v", g.SANs())
	}
}

// TestPremoveDropped: a premove not legal after the opponent's move is
// dropped, named in Premoves.Dropped until the side moves, and the side
// is to move with its clock running.
func TestPremoveDropped(t *testing.T) {
	g := New(TimeControl{Base: time.Minute}, t0)
	mustPlay(t, g, chess.White, "e4", at(1))
	mustPlay(t, g, chess.Black, "e5", at(2))
	if _, err := g.Premove(chess.Black, "exd4", at(3)); err != nil {
		t.Fatal(err)
	}
	mustPlay(t, g, chess.White, "Nf3", at(4)) // nothing on d4 to take
	if p := g.Premoves(); p.Queued != [2]string{} || p.Dropped[chess.Black] != "exd4" {
		t.Errorf("premoves after the illegal one: %+v", p)
	}
	if len(g.Moves()) != 3 || g.Turn() != chess.Black {
		t.Errorf("moves %v, %s to move", g.SANs(), g.Turn().Name())
	}
	if side, run := g.ClockRunning(); !run || side != chess.Black {
		t.Error("Black's clock does not run")
	}
	mustPlay(t, g, chess.Black, "Nc6", at(5))
	if p := g.Premoves(); p != (Premoves{}) {
		t.Errorf("the dropped premove is still said after Black moved: %+v", p)
	}
	// Queued on the side's own turn: a move, at once.
	if played, err := g.Premove(chess.White, "Bc4", at(6)); !played || err != nil || g.Turn() != chess.Black {
		t.Errorf("a premove on White's turn: played %v, %v, %s to move", played, err, g.Turn().Name())
	}
	// A takeback changes the position: the premoves go.
	if _, err := g.Premove(chess.White, "Ng5", at(7)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.RequestTakeback(chess.Black, at(8)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.RequestTakeback(chess.White, at(9)); err != nil {
		t.Fatal(err)
	}
	if p := g.Premoves(); p.Queued != [2]string{} {
		t.Errorf("a premove outlived the takeback: %+v", p)
	}
	// Stored and resumed with the game.
	if _, err := g.Premove(chess.White, "Ng5", at(10)); err != nil {
		t.Fatal(err)
	}
	r, err := Resume(g.State(at(10)), at(11))
	if err != nil {
		t.Fatal(err)
	}
	if r.Premoves() != g.Premoves() {
		t.Errorf("resumed premoves %+v, want %+v", r.Premoves(), g.Premoves())
	}
}

// TestBerserk: a side berserks before its first move, once: its clock
// is set to the time given and earns no increment; after a resume too.
func TestBerserk(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	g := New(TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, t0)
	if err := g.Berserk(chess.White, 90*time.Second, t0); err != nil {
		t.Fatal(err)
	}
	if err := g.Berserk(chess.White, 45*time.Second, t0); !errors.Is(err, ErrBerserk) {
		t.Fatalf("berserk twice: %v", err)
	}
	for i, m := range []string{"e4", "e5", "Nf3", "Nc6"} {
		if err := g.Play([]chess.Color{chess.White, chess.Black}[i%2], m, t0.Add(time.Duration(i+1)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Berserk(chess.Black, 90*time.Second, t0.Add(5*time.Second)); !errors.Is(err, ErrBerserk) {
		t.Fatalf("black berserks after moving: %v", err)
	}
	at := t0.Add(5 * time.Second)
	st := g.State(at)
	// White: 90 s, 0.9 s charged for Nf3 (its first timed move, less the
	// lag allowance) and no increment, and a second on its clock since;
	// Black 0.9 s charged and 2 s earned.
	if st.Left[chess.White] != 88100*time.Millisecond || st.Left[chess.Black] != 181100*time.Millisecond || st.Berserk != [2]bool{true, false} {
		t.Fatalf("clocks %v, berserk %v", st.Left, st.Berserk)
	}
	r, err := Resume(st, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Play(chess.White, "Bc4", at.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if left := r.State(at.Add(time.Second)).Left[chess.White]; left != 87200*time.Millisecond || !r.Berserked(chess.White) {
		t.Fatalf("after a resume White has %v, berserked %v: want 87.2s, no increment", left, r.Berserked(chess.White))
	}
}
