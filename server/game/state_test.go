package game

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// TestReplay: a state's moves come back as moves, SANs and the position
// after them; a move that is not legal where it stands is an error that
// names it and its number, and nothing of the game comes back with it.
func TestReplay(t *testing.T) {
	st := State{Moves: []string{"e2e4", "e7e5", "g1f3"}}
	r, err := st.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.SANs, " "); got != "e4 e5 Nf3" || len(r.Game.Moves) != 3 || r.Position.SideToMove() != chess.Black {
		t.Errorf("replayed %q, %d moves, %s to move", got, len(r.Game.Moves), r.Position.SideToMove().Name())
	}
	if r.Last().UCI(false) != "g1f3" {
		t.Errorf("last move %s", r.Last().UCI(false))
	}
	st.Moves = []string{"e2e4", "e7e5", "e1e8", "g8f6"}
	r, err = st.Replay()
	if err == nil || !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), `stored move 3 ("e1e8")`) {
		t.Errorf("a bad third move: %v", err)
	}
	if r.Position != nil || r.SANs != nil {
		t.Errorf("a bad record replayed in part: %+v", r)
	}
}

// TestClocks: a state's clocks as read at a later time — the side to
// move's counts down from Saved once both sides have moved, and not at
// all before, nor once the game is over; a flagged clock reads 0.
func TestClocks(t *testing.T) {
	st := State{TimeControl: TimeControl{Base: time.Minute}, Left: [2]time.Duration{50 * time.Second, 40 * time.Second}, Saved: at(10)}
	for _, c := range []struct {
		moves []string
		over  bool
		at    time.Time
		want  [2]time.Duration
	}{
		{nil, false, at(15), [2]time.Duration{50 * time.Second, 40 * time.Second}},
		{[]string{"e2e4"}, false, at(15), [2]time.Duration{50 * time.Second, 40 * time.Second}},
		{[]string{"e2e4", "e7e5"}, false, at(15), [2]time.Duration{45 * time.Second, 40 * time.Second}},
		{[]string{"e2e4", "e7e5", "g1f3"}, false, at(15), [2]time.Duration{50 * time.Second, 35 * time.Second}},
		{[]string{"e2e4", "e7e5", "g1f3"}, true, at(15), [2]time.Duration{50 * time.Second, 40 * time.Second}},
		{[]string{"e2e4", "e7e5", "g1f3"}, false, at(100), [2]time.Duration{50 * time.Second, 0}},
	} {
		st.Moves = c.moves
		if got := st.Clocks(c.at, c.over); got != c.want {
			t.Errorf("%d moves, over %v: %v, want %v", len(c.moves), c.over, got, c.want)
		}
	}
}
