package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/store/storetest"
)

// TestClusterStore: the store on a three-node NATS cluster with every bucket
// and the archive kept by all three; one node dies mid-game, and the game
// state, the accounts and the archive are all still there, and writes go on.
func TestClusterStore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-node NATS cluster")
	}
	servers, urls := storetest.Cluster(t, 3)
	s := storetest.Open(t, urls, 3)
	storetest.Eventually(t, "an account", func(ctx context.Context) error {
		_, err := s.CreateAccount(ctx, "SHA256:ann", "ann", time.Now())
		if err != nil && strings.Contains(err.Error(), "this key has an account already") {
			return nil
		}
		return err
	})
	storetest.Eventually(t, "an archived game", func(ctx context.Context) error { return s.ArchiveGame(ctx, "g0", "[Event \"x\"]\n\n1. e4 *\n\n") })
	// One node dies (not the one the client happens to use: the client
	// reconnects to another in either case).
	servers[2].Shutdown()
	servers[2].WaitForShutdown()
	// Until the cluster has re-elected the leaders the dead node held,
	// JetStream answers "temporarily unavailable": each check retries.
	storetest.Eventually(t, "the account after a node died", func(ctx context.Context) error {
		a, found, err := s.Account(ctx, "SHA256:ann")
		if err == nil && (!found || a.Handle != "ann") {
			err = fmt.Errorf("found %v: %+v", found, a)
		}
		return err
	})
	storetest.Eventually(t, "the archive after a node died", func(ctx context.Context) error {
		var b strings.Builder
		n, err := s.ExportPGN(ctx, &b)
		if err == nil && n != 1 {
			err = fmt.Errorf("%d games", n)
		}
		return err
	})
	storetest.Eventually(t, "a write after a node died", func(ctx context.Context) error {
		_, err := s.CreateAccount(ctx, "SHA256:bob", "bob", time.Now())
		if err != nil && strings.Contains(err.Error(), "this key has an account already") {
			return nil // an earlier try got through
		}
		return err // a try that claimed the handle and failed after may be finished by the next
	})
}
