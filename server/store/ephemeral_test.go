package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestMirror: a mirror following an Ephemeral bucket has the records
// written anywhere, loses the removed ones, and lets a record lapse ttl
// after its last write was seen (the bucket drops lapsed records without
// an event).
func TestMirror(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := open(t, t.TempDir())
	defer s.Close()
	e, err := s.Ephemeral(ctx, "test_ephemeral", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	m := NewMirror(e.TTL(), clock)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.Follow(ctx, e, func(err error) { t.Errorf("the watch broke: %v", err) })
	}()
	defer func() {
		cancel()
		<-done // Follow ends with its context
	}()
	keys := func() map[string]string {
		out := map[string]string{}
		for _, r := range m.Records() {
			out[r.Key] = string(r.Value)
		}
		return out
	}
	waitKeys := func(want map[string]string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			got := keys()
			if len(got) == len(want) && func() bool {
				for k, v := range want {
					if got[k] != v {
						return false
					}
				}
				return true
			}() {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("mirror %v, want %v", got, want)
			}
		}
	}
	revA, err := e.Create(ctx, "a", []byte("1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Create(ctx, "a", []byte("2")); !errors.Is(err, ErrStale) {
		t.Errorf("a second create: %v", err)
	}
	revB, err := e.Create(ctx, "b", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	waitKeys(map[string]string{"a": "1", "b": "x"})
	if err := e.Remove(ctx, "b", revA); !errors.Is(err, ErrStale) {
		t.Errorf("a removal at another revision: %v", err)
	}
	if err := e.Remove(ctx, "b", revB); err != nil {
		t.Fatal(err)
	}
	waitKeys(map[string]string{"a": "1"})
	// "a" is renewed; then the clock passes a ttl with no write.
	if _, err := e.Renew(ctx, "a", []byte("3"), revA); err != nil {
		t.Fatal(err)
	}
	waitKeys(map[string]string{"a": "3"})
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	waitKeys(map[string]string{})
}

// TestRenewAfterLostAnswer: a renewal that reached the store but whose
// answer was lost leaves the writer a revision behind; its next renewal
// at the old revision finds its own record and renews it, while a record
// someone else wrote since stays refused.
func TestRenewAfterLostAnswer(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e, err := s.Ephemeral(ctx, "test_renew", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := e.Create(ctx, "seek", []byte("mine"))
	if err != nil {
		t.Fatal(err)
	}
	landed, err := e.Renew(ctx, "seek", []byte("mine"), rev) // its answer "lost": the writer keeps rev
	if err != nil {
		t.Fatal(err)
	}
	next, err := e.Renew(ctx, "seek", []byte("mine"), rev)
	if err != nil || next <= landed {
		t.Fatalf("renewed at the old revision: %d, %v (the landed write was %d)", next, err, landed)
	}
	if _, err := e.Renew(ctx, "seek", []byte("theirs"), next); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Renew(ctx, "seek", []byte("mine"), next); !errors.Is(err, ErrStale) {
		t.Errorf("another's record renewed as one's own: %v", err)
	}
	if err := e.Remove(ctx, "seek", next+1); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Renew(ctx, "seek", []byte("mine"), next); !errors.Is(err, ErrStale) {
		t.Errorf("a removed record renewed: %v", err)
	}
}
