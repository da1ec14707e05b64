// Package storetest starts NATS clusters for the tests of the store and of
// the servers that share one.
package storetest

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/squall-chess/squall/server/store"
)

// freePort is a loopback port nobody listens on (for the moment).
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Cluster starts n NATS servers with JetStream, routed to each other on
// loopback ports (an in-process-only server cannot join a cluster), and
// returns them and their client URLs; they stop with the test.
func Cluster(t testing.TB, n int) ([]*server.Server, []string) {
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

// Open opens a store on the cluster at urls (the client connects to the
// first it reaches, in that order), every bucket kept by replicas nodes;
// it retries while the cluster elects its JetStream leader, and closes
// the store with the test.
func Open(t testing.TB, urls []string, replicas int) *store.Store {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		s, err := store.Open(ctx, store.Options{URL: strings.Join(urls, ","), Replicas: replicas})
		cancel()
		if err == nil {
			t.Cleanup(func() { s.Close() })
			return s
		}
		t.Logf("not yet: %v", err)
		if time.Now().After(deadline) {
			t.Fatalf("store on the cluster: %v", err)
		}
	}
}

// Eventually retries f, each try with a deadline of its own, until it
// succeeds, for up to two minutes (a loaded machine elects slowly): after
// a node dies, JetStream answers "temporarily unavailable" until the
// leaders it held are elected again.
func Eventually(t testing.TB, what string, f func(context.Context) error) {
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
