package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLeases tests the lease pattern on a real (embedded) JetStream rather
// than assuming it: a held lease refuses others; renewals keep it past its
// length; a released one is free at once; one whose holder stops renewing
// lapses after its length, and another takes it; the old holder's renewal
// then fails.
func TestLeases(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	defer s.Close()
	const ttl = time.Second
	l, err := s.Leases(ctx, "test_leases", ttl)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := l.Acquire(ctx, "game-1", "node-a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx, "game-1", "node-b"); !errors.Is(err, ErrHeld) {
		t.Fatalf("a second holder: %v", err)
	}
	// Renewed every half length for two lengths: still node-a's.
	for range 4 {
		time.Sleep(ttl / 2)
		if rev, err = l.Renew(ctx, "game-1", "node-a", rev); err != nil {
			t.Fatalf("renewal: %v", err)
		}
	}
	if h, _, ok, _ := l.Holder(ctx, "game-1"); !ok || h != "node-a" {
		t.Fatalf("holder after renewals: %q %v", h, ok)
	}
	// Released: free at once.
	if err := l.Release(ctx, "game-1", rev); err != nil {
		t.Fatal(err)
	}
	if rev, err = l.Acquire(ctx, "game-1", "node-b"); err != nil {
		t.Fatalf("after release: %v", err)
	}
	// node-b stops renewing (it died): the lease lapses and node-a takes it.
	start := time.Now()
	for {
		if _, err := l.Acquire(ctx, "game-1", "node-a"); err == nil {
			break
		} else if !errors.Is(err, ErrHeld) {
			t.Fatal(err)
		}
		if time.Since(start) > 10*ttl {
			t.Fatalf("the lease never lapsed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if el := time.Since(start); el < ttl-100*time.Millisecond {
		t.Errorf("taken over after %v, before the lease's length %v", el, ttl)
	}
	if _, err := l.Renew(ctx, "game-1", "node-b", rev); !errors.Is(err, ErrLost) {
		t.Errorf("the dead holder's renewal: %v", err)
	}
	t.Logf("lapsed and taken over %v after the last write", time.Since(start).Round(10*time.Millisecond))
}
