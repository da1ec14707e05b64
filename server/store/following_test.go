package store

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestFollowing (issue 37): a player follows others by handle, in any
// case (kept as their players spell them, sorted), not themselves nor a
// handle nobody holds; following twice is once, and unfollowing goes; two
// follows written at once both stay.
func TestFollowing(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	for _, h := range []string{"ann", "Bob", "cid", "dan"} {
		if _, err := s.CreateAccount(ctx, "SHA256:"+h, h, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Following(ctx, "ann"); err != nil || len(got) != 0 {
		t.Fatalf("ann follows %v, %v before following anyone", got, err)
	}
	if _, err := s.SetFollowing(ctx, "ann", "ANN", true); err == nil {
		t.Error("ann follows herself")
	}
	if _, err := s.SetFollowing(ctx, "ann", "nobody", true); err == nil {
		t.Error("ann follows a handle nobody holds")
	}
	for _, h := range []string{"cid", "BOB", "bob"} {
		if _, err := s.SetFollowing(ctx, "ann", h, true); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := s.Following(ctx, "ANN"); !slices.Equal(got, []string{"Bob", "cid"}) {
		t.Errorf("ann follows %v, want [Bob cid]", got)
	}
	if got, err := s.SetFollowing(ctx, "ann", "bob", false); err != nil || !slices.Equal(got, []string{"cid"}) {
		t.Errorf("after unfollowing bob: %v %v", got, err)
	}
	var wg sync.WaitGroup
	for _, h := range []string{"Bob", "dan"} {
		wg.Go(func() {
			if _, err := s.SetFollowing(ctx, "ann", h, true); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got, _ := s.Following(ctx, "ann"); !slices.Equal(got, []string{"Bob", "cid", "dan"}) {
		t.Errorf("after two follows at once ann follows %v", got)
	}
}
