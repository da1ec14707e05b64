// Package storetest starts NATS clusters for the tests of the store and of
// the servers that share one.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/squall-chess/squall/server/store"
)

// Ports are picked below Linux's ephemeral range (32768–60999), where the
// kernel hands out the local ports of outgoing connections and of
// listeners on port 0: a port found free there can be taken by another
// test process's connection before the NATS node listens on it, and the
// node then never becomes ready (the cause of a CI failure, "a cluster
// node is not ready").
const lowPort, highPort = 20000, 32000

// freePorts returns n distinct loopback ports nobody listens on, each
// held until all are found so that none is returned twice.
func freePorts(n int) ([]int, error) {
	var ports []int
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for tries := 0; len(ports) < n; tries++ {
		if tries > 1000 {
			return nil, errors.New("no free loopback ports")
		}
		p := lowPort + rand.IntN(highPort-lowPort)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue
		}
		held, ports = append(held, l), append(ports, p)
	}
	return ports, nil
}

// Cluster starts n NATS servers with JetStream, routed to each other on
// loopback ports (an in-process-only server cannot join a cluster), and
// returns them and their client URLs; they stop with the test. A port
// can still be taken between its check and its use, by another process:
// then the whole cluster is started again on other ports, up to three
// times.
func Cluster(t testing.TB, n int) ([]*server.Server, []string) {
	t.Helper()
	var err error
	for try := 1; try <= 3; try++ {
		var servers []*server.Server
		var urls []string
		servers, urls, err = startCluster(t.TempDir(), n)
		if err == nil {
			t.Cleanup(func() { stopAll(servers) })
			return servers, urls
		}
		t.Logf("cluster, try %d: %v", try, err)
	}
	t.Fatalf("cluster: %v", err)
	return nil, nil
}

// startCluster is one try of Cluster: on an error nothing is left running.
func startCluster(dir string, n int) ([]*server.Server, []string, error) {
	ports, err := freePorts(2 * n)
	if err != nil {
		return nil, nil, err
	}
	client, route := ports[:n], ports[n:]
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
			stopAll(servers)
			return nil, nil, err
		}
		go ns.Start()
		servers = append(servers, ns)
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", client[i]))
	}
	for i, ns := range servers {
		if !ns.ReadyForConnections(20 * time.Second) {
			stopAll(servers)
			return nil, nil, fmt.Errorf("node n%d (client port %d, route port %d) is not ready after 20 s", i, client[i], route[i])
		}
	}
	return servers, urls, nil
}

func stopAll(servers []*server.Server) {
	for _, ns := range servers {
		ns.Shutdown()
		ns.WaitForShutdown()
	}
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
