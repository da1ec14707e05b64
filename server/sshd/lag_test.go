package sshd

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// sshPair is a server and a client connection over loopback TCP (a
// net.Pipe has no buffer: both ends' versions, written at once, would
// wait on each other); the client
// answers global requests as Go's ssh client does (with a failure).
func sshPair(t *testing.T) (srv *gossh.ServerConn, client gossh.Conn) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &gossh.ServerConfig{NoClientAuth: true}
	cfg.AddHostKey(signer)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan error, 1)
	go func() {
		a, err := l.Accept()
		if err != nil {
			done <- err
			return
		}
		var reqs <-chan *gossh.Request
		srv, _, reqs, err = gossh.NewServerConn(a, cfg)
		if err == nil {
			go gossh.DiscardRequests(reqs)
		}
		done <- err
	}()
	b, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c, _, reqs, err := gossh.NewClientConn(b, "loopback", &gossh.ClientConfig{User: "t", HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	go gossh.DiscardRequests(reqs) // answers keepalive@openssh.com with a failure
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); srv.Close() })
	return srv, c
}

// TestMeasureLag (issue 37): a session's lag is the round trip of a
// keepalive@openssh.com request, measured while its client is active and
// not once it has been idle for lagIdle; the measuring ends with the
// session, and when the connection closes.
func TestMeasureLag(t *testing.T) {
	srv, client := sshPair(t)
	var mu sync.Mutex
	var got []time.Duration
	last := time.Now()
	lastInput := func() time.Time { mu.Lock(); defer mu.Unlock(); return last }
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		measureLagOn(ctx, srv, lastInput, func(d time.Duration) { mu.Lock(); got = append(got, d); mu.Unlock() })
	}()
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(got) }
	for deadline := time.Now().Add(10 * time.Second); count() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no lag measured")
		}
	}
	mu.Lock()
	if got[0] <= 0 || got[0] > 5*time.Second {
		t.Errorf("lag %v", got[0])
	}
	last = time.Now().Add(-2 * lagIdle) // the client idle
	n := len(got)
	mu.Unlock()
	time.Sleep(LagEvery + LagEvery/2)
	if count() > n+1 { // one measured as it went idle, at most
		t.Errorf("%d measured after the client went idle", count()-n)
	}
	cancel()
	<-ended

	// The connection closed: the measuring ends without its context.
	go func() { client.Close() }()
	done := make(chan struct{})
	go func() {
		defer close(done)
		measureLagOn(context.Background(), srv, time.Now, func(time.Duration) {})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("measuring a closed connection did not end")
	}
}
