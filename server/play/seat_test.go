package play

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server/game"
)

// seated starts a game of Squall (White) against ann and seats Squall in
// it with e and lim; the returned channel follows the game, and the seat
// ends with the test.
func seated(t *testing.T, h *Hub, tc game.TimeControl, rated bool, e engine.Analyzer, lim engine.Limits) (string, <-chan Update) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	id, err := h.Start(ctx, "Squall", "ann", tc, rated)
	if err != nil {
		t.Fatal(err)
	}
	updates, stop, err := h.Watch(id)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Seat(ctx, id, "Squall", e, lim) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("the seat: %v", err)
		}
		stop()
	})
	return id, updates
}

// await reads updates until one meets cond, which it returns; the test
// fails on the game's end (unless cond takes it) and after 10 s.
func await(t *testing.T, updates <-chan Update, what string, cond func(Update) bool) Update {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case u, ok := <-updates:
			switch {
			case !ok:
				t.Fatalf("the game ended before %s", what)
			case cond(u):
				return u
			case u.Over():
				t.Fatalf("the game ended (%s) before %s", u.End.Result, what)
			}
		case <-timeout:
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// plies is a condition: the game has n moves.
func plies(n int) func(Update) bool {
	return func(u Update) bool { return len(u.Game.Moves) == n }
}

// TestSeatAnswersOffers is issue 33's G3 against Squall: its seat answers
// a draw offer by its evaluation (the board's rule, level.AcceptsDraw) and
// a takeback request by the game's kind — granted in a casual game,
// refused in a rated one. Both were ignored.
func TestSeatAnswersOffers(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, _ := newHub(t, t.TempDir(), clk)
	// Squall thinks it stands a little worse after 1. e4 e5 (its
	// search at ply 2), and lost after 2. Nf3 Nc6 (ply 4).
	// Its search at ply 4 waits for the test to offer a draw meanwhile.
	searching, goOn := make(chan struct{}), make(chan struct{})
	moves := enginetest.MovesByPly(map[int]string{0: "e4", 2: "Nf3", 4: "Bc4"})
	e := &enginetest.Engine{
		Best: func(g engine.Game, p *chess.Position) (chess.Move, error) {
			if len(g.Moves) == 4 {
				close(searching)
				<-goOn
			}
			return moves(g, p)
		},
		Score: enginetest.ScoresByPly(map[int]engine.Score{2: {CP: -50}, 4: {CP: -250}}),
	}
	id, updates := seated(t, h, blitz, false, e, engine.Limits{Depth: 2})
	await(t, updates, "Squall's first move", plies(1))
	if _, err := h.Move(ctx, id, "ann", "e5"); err != nil {
		t.Fatal(err)
	}
	await(t, updates, "Squall's second move", plies(3))
	if _, err := h.Takeback(ctx, id, "ann"); err != nil {
		t.Fatal(err)
	}
	u := await(t, updates, "an answer to ann's takeback", func(u Update) bool { return !u.Game.Offers.Takeback[chess.Black] })
	if len(u.Game.Moves) != 1 || !u.Game.Offers.TookBack[chess.Black] {
		t.Fatalf("in a casual game Squall answered the takeback with %v, offers %+v", u.Game.Moves, u.Game.Offers)
	}
	if _, err := h.Move(ctx, id, "ann", "e5"); err != nil {
		t.Fatal(err)
	}
	await(t, updates, "Squall's second move again", plies(3))
	if _, err := h.OfferDraw(ctx, id, "ann"); err != nil {
		t.Fatal(err)
	}
	u = await(t, updates, "an answer to ann's draw offer", func(u Update) bool { return !u.Game.Offers.Draw[chess.Black] })
	if u.Over() || !u.Game.Offers.DrawDeclined[chess.Black] {
		t.Fatalf("at -0.50 on move 2 Squall answered the draw with over %v (%s), offers %+v", u.Over(), u.End.Result, u.Game.Offers)
	}
	if _, err := h.OfferDraw(ctx, id, "ann"); !errors.Is(err, game.ErrDeclined) {
		t.Errorf("ann offers again at once: %v", err)
	}
	// An offer made while Squall thinks is answered before its move,
	// which would decline it unheard.
	if _, err := h.Move(ctx, id, "ann", "Nc6"); err != nil {
		t.Fatal(err)
	}
	<-searching
	if _, err := h.OfferDraw(ctx, id, "ann"); err != nil {
		t.Fatal(err)
	}
	close(goOn)
	u = await(t, updates, "the game's end", func(u Update) bool { return u.Over() })
	if !u.End.Result.Draw || u.End.Result.Termination != game.Agreement || len(u.Game.Moves) != 4 {
		t.Errorf("at -2.50 Squall answered the draw offered while it thought with %s after %v", u.End.Result, u.Game.Moves)
	}

	// A rated game's takeback is refused.
	id, updates = seated(t, h, blitz, true, &enginetest.Engine{}, engine.Limits{Depth: 2})
	await(t, updates, "Squall's first move", plies(1))
	if _, err := h.Move(ctx, id, "ann", "e5"); err != nil {
		t.Fatal(err)
	}
	await(t, updates, "Squall's second move", plies(3))
	if _, err := h.Takeback(ctx, id, "ann"); err != nil {
		t.Fatal(err)
	}
	u = await(t, updates, "an answer to ann's takeback", func(u Update) bool { return !u.Game.Offers.Takeback[chess.Black] })
	if len(u.Game.Moves) != 3 || !u.Game.Offers.TakebackDeclined[chess.Black] {
		t.Errorf("in a rated game Squall answered the takeback with %v, offers %+v", u.Game.Moves, u.Game.Offers)
	}
	if _, err := h.Resign(ctx, id, "ann"); err != nil {
		t.Fatal(err)
	}
}

// TestSeatSpendsItsClock is issue 33's G14: Squall's seat plays its first
// moves at once (a small fixed time, as a player's book moves), and then
// on its clock — both clocks and increments as they stand, as the board
// gives them — so that a 1+0 game's first reply does not take the 3 s a
// twentieth of the clock would. The limits are the engine's, as the
// fake engine records them; no timing is measured.
func TestSeatSpendsItsClock(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	h, _ := newHub(t, t.TempDir(), clk)
	e := &enginetest.Engine{}
	tc := game.TimeControl{Base: time.Minute, Increment: time.Second}
	id, updates := seated(t, h, tc, false, e, engine.Limits{})
	const moves = quickMoves + 3
	// left[i] are the clocks after Squall's move i: its search of move
	// i+1 saw White's as they were (ann's move does not change it) and
	// Black's as ann's move left them (Squall's does not change it).
	var left [][2]time.Duration
	for ply := 1; ; ply += 2 {
		u := await(t, updates, "Squall's move", plies(ply))
		left = append(left, u.Game.Left)
		if len(left) == moves {
			break
		}
		p := chess.NewPosition()
		var undo chess.Undo
		for _, s := range u.Game.Moves {
			m, _ := p.ParseUCI(s)
			p.MakeMove(m, &undo)
		}
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		clk.Advance(2 * time.Second) // ann thinks
		if _, err := h.Move(ctx, id, "ann", ml.Moves[ml.N-1].UCI(false)); err != nil {
			t.Fatal(err)
		}
	}
	lims := e.Limits()
	if len(lims) != moves {
		t.Fatalf("%d searches, want %d", len(lims), moves)
	}
	for i, l := range lims {
		if i < quickMoves {
			if l.MoveTime <= 0 || l.MoveTime > time.Second || l.WTime != 0 || l.BTime != 0 {
				t.Errorf("Squall's move %d searched %s, want a quick fixed time", i+1, limitsText(l))
			}
			continue
		}
		want := engine.Limits{WTime: left[i-1][chess.White], BTime: left[i][chess.Black], WInc: tc.Increment, BInc: tc.Increment}
		if l.WTime != want.WTime || l.BTime != want.BTime || l.WInc != want.WInc || l.BInc != want.BInc || l.MoveTime != 0 {
			t.Errorf("Squall's move %d searched %s, want both clocks and increments: %s", i+1, limitsText(l), limitsText(want))
		}
	}
}

// limitsText shows a search's time limits (Limits.String says only their
// kind).
func limitsText(l engine.Limits) string {
	return fmt.Sprintf("movetime %v wtime %v btime %v winc %v binc %v", l.MoveTime, l.WTime, l.BTime, l.WInc, l.BInc)
}
