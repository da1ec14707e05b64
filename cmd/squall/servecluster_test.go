package main

import (
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/server/store/storetest"
)

// TestServeClusterKill9 (issue 22, acceptance 1 and 2, as people see it):
// two `squall serve` processes on one three-node NATS cluster. ann plays
// on server A and bob on server B: they meet in the one lobby (ann's seek
// made on A, accepted by bob on B, so B hosts the game), and eve watches
// on A. B is killed with SIGKILL mid-game; A takes the game over; bob
// connects to A with his key, finds his game as it was, and the game is
// played on to its end, every screen following.
func TestServeClusterKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS cluster and two servers")
	}
	_, urls := storetest.Cluster(t, 3)
	storetest.Open(t, urls, 3) // the cluster has elected its JetStream leader
	dir := t.TempDir()
	start := func(node string, nats []string) (*exec.Cmd, net.Addr) {
		t.Helper()
		cmd, addr, _ := startServe(t, "--nats", strings.Join(nats, ","), "--nats-replicas", "3",
			"--node", node, "--host-key", filepath.Join(dir, node+"-host"), "--room", "", "--analysts", "1", "--analysis-nodes", "20000",
			"--spectator-delay", "0") // failover is the point here, not the delay
		return cmd, addr
	}
	_, addrA := start("a", urls)
	srvB, addrB := start("b", []string{urls[1], urls[2], urls[0]})

	type person struct {
		key    gossh.Signer
		screen *lockedBuffer
		keys   io.Writer
	}
	typeLine := func(p *person, s string) {
		for _, r := range s + "\r" {
			io.WriteString(p.keys, string(r))
			time.Sleep(20 * time.Millisecond)
		}
	}
	see := func(p *person, s string) {
		t.Helper()
		waitOutput(t, p.screen, regexp.MustCompile(regexp.QuoteMeta(s)), 20*time.Second)
	}
	ann, bob := &person{key: newKey(t)}, &person{key: newKey(t)}
	ann.screen, ann.keys = terminal(t, addrA, ann.key, "play")
	bob.screen, bob.keys = terminal(t, addrB, bob.key, "play")
	for _, p := range []*person{ann, bob} {
		see(p, "Choose the handle")
	}
	typeLine(ann, "ann")
	typeLine(bob, "bob")
	see(ann, "Squall · lobby")
	see(bob, "Squall · lobby")
	io.WriteString(ann.keys, "n")
	time.Sleep(50 * time.Millisecond)
	typeLine(ann, "5+0 white")
	see(bob, "5+0  rated") // ann's seek, made on A, in B's lobby
	typeLine(bob, "")
	see(ann, "Squall · game")
	see(bob, "Squall · game")
	eve := &person{key: newKey(t)}
	eve.screen, eve.keys = terminal(t, addrA, eve.key, "watch")
	see(eve, "ann")
	typeLine(eve, "")
	see(eve, "Squall · watching")
	for i, m := range []string{"d4", "d5", "c4"} {
		p := []*person{ann, bob}[i%2]
		typeLine(p, m)
		see([]*person{bob, ann}[i%2], m)
	}
	see(eve, "1. d4 d5 2. c4")
	see(eve, "analys") // the host's analysis, on A's spectator screen

	if err := srvB.Process.Kill(); err != nil { // SIGKILL: B's leases are left to lapse
		t.Fatal(err)
	}
	srvB.Wait()
	bob.screen, bob.keys = terminal(t, addrA, bob.key, "play") // bob comes back, on A
	see(bob, "1. d4 d5 2. c4")
	typeLine(bob, "e6")
	see(ann, "1. d4 d5 2. c4 e6")
	see(eve, "1. d4 d5 2. c4 e6")
	typeLine(ann, "Nc3")
	see(bob, "3. Nc3")
	typeLine(bob, "resign")
	see(ann, "White wins by resignation")
	see(eve, "White wins by resignation")
}
