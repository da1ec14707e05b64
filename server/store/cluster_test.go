package store

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// freePort is a loopback port nobody listens on (for the moment).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// natsCluster starts n NATS servers with JetStream, routed to each other on
// loopback ports (an in-process-only server cannot join a cluster), and
// returns them and their client URLs.
func natsCluster(t *testing.T, n int) ([]*server.Server, []string) {
	t.Helper()
	dir := t.TempDir()
	var client, route []int
	for range n {
		client, route = append(client, freePort(t)), append(route, freePort(t))
	}
	var routes []string
	for _, p := range route {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", p))
	}
	var servers []*server.Server
	var urls []string
	for i := range n {
		ns, err := server.NewServer(&server.Options{
			ServerName: fmt.Sprint("n", i), Host: "127.0.0.1", Port: client[i],
			JetStream: true, StoreDir: filepath.Join(dir, fmt.Sprint("n", i)), JetStreamMaxMemory: 64 << 20, JetStreamMaxStore: 1 << 30,
			Cluster: server.ClusterOpts{Name: "squall", Host: "127.0.0.1", Port: route[i]},
			Routes:  server.RoutesFromStr(strings.Join(routes, ",")), NoSigs: true, NoLog: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		go ns.Start()
		servers = append(servers, ns)
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", client[i]))
	}
	t.Cleanup(func() {
		for _, ns := range servers {
			ns.Shutdown()
			ns.WaitForShutdown()
		}
	})
	for _, ns := range servers {
		if !ns.ReadyForConnections(20 * time.Second) {
			t.Fatal("a cluster node is not ready")
		}
	}
	return servers, urls
}

// TestClusterStore: the store on a three-node NATS cluster with every bucket
// and the archive kept by all three; one node dies mid-game, and the game
// state, the accounts and the archive are all still there, and writes go on.
func TestClusterStore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-node NATS cluster")
	}
	servers, urls := natsCluster(t, 3)
	ctx := context.Background() // each step has its own deadline
	var s *Store
	var err error
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		// The cluster elects its JetStream leader first.
		octx, ocancel := context.WithTimeout(ctx, 10*time.Second)
		s, err = Open(octx, Options{URL: strings.Join(urls, ","), Replicas: 3})
		ocancel()
		if err == nil {
			break
		}
		t.Logf("not yet: %v", err)
		if time.Now().After(deadline) {
			t.Fatalf("store on the cluster: %v", err)
		}
	}
	defer s.Close()
	eventually(t, "an account", func(ctx context.Context) error {
		_, err := s.CreateAccount(ctx, "SHA256:ann", "ann", time.Now())
		if err != nil && strings.Contains(err.Error(), "this key has an account already") {
			return nil
		}
		return err
	})
	eventually(t, "an archived game", func(ctx context.Context) error { return s.FinishGame(ctx, "g0", "[Event \"x\"]\n\n1. e4 *\n\n") })
	// One node dies (not the one the client happens to use: the client
	// reconnects to another in either case).
	servers[2].Shutdown()
	servers[2].WaitForShutdown()
	// Until the cluster has re-elected the leaders the dead node held,
	// JetStream answers "temporarily unavailable": each check retries.
	eventually(t, "the account after a node died", func(ctx context.Context) error {
		a, found, err := s.Account(ctx, "SHA256:ann")
		if err == nil && (!found || a.Handle != "ann") {
			err = fmt.Errorf("found %v: %+v", found, a)
		}
		return err
	})
	eventually(t, "the archive after a node died", func(ctx context.Context) error {
		var b strings.Builder
		n, err := s.ExportPGN(ctx, &b)
		if err == nil && n != 1 {
			err = fmt.Errorf("%d games", n)
		}
		return err
	})
	eventually(t, "a write after a node died", func(ctx context.Context) error {
		_, err := s.CreateAccount(ctx, "SHA256:bob", "bob", time.Now())
		if err != nil && strings.Contains(err.Error(), "this key has an account already") {
			return nil // an earlier try got through
		}
		return err // a try that claimed the handle and failed after may be finished by the next
	})
}

// eventually retries f, each try with a deadline of its own, until it
// succeeds, for up to two minutes (a loaded machine elects slowly).
func eventually(t *testing.T, what string, f func(context.Context) error) {
	t.Helper()
	start := time.Now()
	for tries := 1; ; tries++ {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := f(ctx)
		cancel()
		if err == nil {
			if tries > 1 {
				t.Logf("%s: after %d tries, %v", what, tries, time.Since(start).Round(time.Millisecond))
			}
			return
		}
		if time.Since(start) > 2*time.Minute {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
