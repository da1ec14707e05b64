package play

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/store"
)

// TestCorruptRecordRefused: a stored game whose moves do not replay
// (another server of a cluster wrote it, its third move illegal) is
// corrupt. The hub that follows it says so, naming the move and its
// number, and shows it to nobody: before, the record was mirrored and
// watched, and the screens' replay stopped silently at the bad move,
// drawing the game as its first two moves.
func TestCorruptRecordRefused(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The game's host is another server, alive: it holds the lease, for
	// longer than the test (this hub does not take the game over, which
	// would fail at the bad move too).
	h, err := NewHub(ctx, st, Config{Now: clk.Now, Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	leases, err := st.Leases(ctx, leaseBucket, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := leases.Acquire(ctx, "bad", "elsewhere"); err != nil {
		t.Fatal(err)
	}
	var rec store.GameRecord
	rec.ID, rec.White, rec.Black, rec.Host = "bad", "ann", "bob", "elsewhere"
	rec.Game = game.State{TimeControl: blitz, Moves: []string{"e2e4", "e7e5", "e1e8", "g8f6"}, Left: [2]time.Duration{blitz.Base, blitz.Base}, Started: clk.Now(), Saved: clk.Now()}
	if _, err := st.SaveGame(ctx, rec, 0); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var reported []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.Run(ctx, 50*time.Millisecond, func(_ *Ended, err error) {
			if err != nil {
				mu.Lock()
				reported = append(reported, err.Error())
				mu.Unlock()
			}
		})
	}()
	said := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(strings.Join(reported, "\n"), `game bad: stored move 3 ("e1e8")`)
	}
	for deadline := time.Now().Add(10 * time.Second); !said() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if !said() {
		mu.Lock()
		t.Errorf("the corrupt record was not reported; the hub said %q", reported)
		mu.Unlock()
	}
	if updates, stop, err := h.Watch("bad"); err == nil {
		u := <-updates
		stop()
		t.Errorf("the corrupt record is watched: game %s, its update sent to the screens", u.ID)
	}
	if n := len(h.Games()); n != 0 {
		t.Errorf("the corrupt record is listed among %d games in progress", n)
	}
	cancel()
	<-done
}
