package presence

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/store"
)

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

// running is a presence of server node on st, running until the test ends.
func running(t *testing.T, st *store.Store, node string, clk *fakeClock) *Presence {
	t.Helper()
	p, err := New(context.Background(), st, node, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Run(ctx, func(err error) { t.Error(err) }) }()
	t.Cleanup(func() { cancel(); <-done })
	return p
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 10 s", what)
		}
	}
}

// TestTwoServers: a player connected to server a is here for server b
// too; two sessions on a keep them here until both end; once gone, b
// says since when; a player never seen is not gone until marked Away.
// Online says who has a session now, on either server; LastSeen when a
// player was seen to go (not one only marked Away).
func TestTwoServers(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // after the presences stop
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	a, b := running(t, st, "a", clk), running(t, st, "b", clk)
	if _, gone := b.Gone("ann"); gone {
		t.Error("ann, never seen, is gone")
	}
	b.Away("ann") // her game was resumed here: the grace runs from now
	if since, gone := b.Gone("ann"); !gone || !since.Equal(clk.Now()) {
		t.Errorf("ann marked away: %v %v", since, gone)
	}
	if at, seen := b.LastSeen("ann"); seen {
		t.Errorf("ann, only marked away, last seen at %v", at)
	}
	a.Join("ann")
	a.Join("ann")
	waitUntil(t, "ann here on b", func() bool { _, gone := b.Gone("ann"); return !gone })
	if !a.Online("ann") || !b.Online("ann") || b.Online("bob") {
		t.Errorf("online now: ann on a %v, on b %v; bob on b %v", a.Online("ann"), b.Online("ann"), b.Online("bob"))
	}
	clk.Advance(5 * time.Second) // less than a TTL: the records are live
	a.Leave("ann")
	time.Sleep(200 * time.Millisecond)
	if _, gone := b.Gone("ann"); gone {
		t.Error("ann gone with one of her two sessions still open")
	}
	a.Leave("ann")
	if since, gone := a.Gone("ann"); !gone || !since.Equal(clk.Now()) {
		t.Errorf("on a, where she left: gone %v since %v", gone, since)
	}
	left := clk.Now()
	waitUntil(t, "ann gone on b", func() bool { _, gone := b.Gone("ann"); return gone })
	if b.Online("ann") {
		t.Error("ann online on b after her last session")
	}
	if since, _ := b.Gone("ann"); since.Before(left) {
		t.Errorf("on b, gone since %v, before she left at %v", since, left)
	}
	if at, seen := a.LastSeen("ann"); !seen || !at.Equal(left) {
		t.Errorf("on a, ann last seen %v (%v), want %v", at, seen, left)
	}
	if at, seen := b.LastSeen("ann"); !seen || at.Before(left) {
		t.Errorf("on b, ann last seen %v (%v), before she left at %v", at, seen, left)
	}
	a.Join("ann")
	if _, seen := a.LastSeen("ann"); seen {
		t.Error("ann, back, has a last seen")
	}
}

// TestOwnRecordRetaken: a record under this server's key that it did not
// write in this run (written before a restart under the same name, or by
// a write that timed out but reached the store) is taken back, not
// refused until it lapses.
func TestOwnRecordRetaken(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	recs, err := st.Ephemeral(ctx, bucket, TTL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recs.Create(ctx, "ann\x00a", []byte("a")); err != nil {
		t.Fatal(err)
	}
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	a := running(t, st, "a", clk) // reports any failed write as the test's error
	a.Join("ann")
	waitUntil(t, "ann's record renewed", func() bool {
		r, live, err := recs.Get(ctx, "ann\x00a")
		return err == nil && live && r.Rev > 1
	})
}

// TestListAndLag (issue 37): List is who has a session on any server;
// a player's lag set where they are connected reaches the other server
// with their record's renewal, and goes with their last session.
func TestListAndLag(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	a, b := running(t, st, "a", clk), running(t, st, "b", clk)
	a.Join("ann")
	b.Join("bob")
	a.SetLag("cid", time.Second) // no session of cid's here: nothing
	waitUntil(t, "both listed on both", func() bool {
		return slices.Equal(a.List(), []string{"ann", "bob"}) && slices.Equal(b.List(), []string{"ann", "bob"})
	})
	if _, ok := a.Lag("cid"); ok {
		t.Error("a lag for cid, who has no session")
	}
	if _, ok := b.Lag("ann"); ok {
		t.Error("ann's lag known before it was measured")
	}
	a.SetLag("ann", 42*time.Millisecond)
	if d, ok := a.Lag("ann"); !ok || d != 42*time.Millisecond {
		t.Errorf("ann's lag where she is: %v %v", d, ok)
	}
	a.sync(ctx, true, func(err error) { t.Error(err) }) // the renewal
	waitUntil(t, "ann's lag on b", func() bool { d, ok := b.Lag("ann"); return ok && d == 42*time.Millisecond })
	a.Leave("ann")
	waitUntil(t, "ann gone from b's list", func() bool { return slices.Equal(b.List(), []string{"bob"}) })
	if _, ok := b.Lag("ann"); ok {
		t.Error("ann's lag after her last session")
	}
}
