package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/squall-chess/squall/server/store"
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

// TestClusterStoreSetUp: servers started together on a new cluster all
// open the store at their first try (they race to make the same buckets;
// the losers find the winners'), and a tool opening it with no replicas
// given (serve export) leaves the buckets as the servers made them.
func TestClusterStoreSetUp(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-node NATS cluster")
	}
	_, urls := storetest.Cluster(t, 3)
	url := strings.Join(urls, ",")
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			s, err := store.Open(ctx, store.Options{URL: url, Replicas: 3})
			if err == nil {
				_, err = s.Ephemeral(ctx, "squall_test_ttl", time.Minute)
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("server %d: %v", i, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := store.Open(ctx, store.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ephemeral(ctx, "squall_test_ttl", time.Minute); err != nil {
		t.Fatal(err)
	}
	s.Close()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"KV_squall_accounts", "KV_squall_games", "KV_squall_test_ttl", "SQUALL_ARCHIVE"} {
		st, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r := st.CachedInfo().Config.Replicas; r != 3 {
			t.Errorf("%s kept by %d servers after a store opened without replicas, want 3", name, r)
		}
	}
}
