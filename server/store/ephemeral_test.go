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
	done := make(chan error, 1)
	go func() { done <- m.Follow(ctx, e) }()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Follow ended with %v", err)
		}
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
