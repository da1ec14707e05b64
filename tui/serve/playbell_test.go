package serve

import (
	"context"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/server/game"
)

// rings gives m a bell that counts its rings.
func rings(m *playModel) *atomic.Int32 {
	var n atomic.Int32
	m.bell.ring = func() { n.Add(1) }
	return &n
}

// runBell runs cmd as the program would, for its rings (nil: none).
func runBell(cmd tea.Cmd) {
	if cmd != nil {
		cmd()
	}
}

// TestBell (issue 37): the player's bell rings for the opponent's move
// (with the player's premove played in the same update too), not for the
// player's own; once a game when the player's running clock first reads
// under lowTime; never once turned off with `bell`.
func TestBell(t *testing.T) {
	_, p := startPlayServer(t)
	ann, bob := startGame(t, p)
	n := rings(ann)
	ring := func(before func()) int32 {
		t.Helper()
		prev, was := ann.upd, n.Load()
		before()
		runBell(ann.moveBell(prev, *ann.upd))
		return n.Load() - was
	}
	if got := ring(func() { enter(ann, "Nf3", bob) }); got != 0 {
		t.Errorf("ann's own move rang %d times", got)
	}
	if got := ring(func() { enter(bob, "Nc6", ann) }); got != 1 {
		t.Errorf("bob's move rang %d times, want 1", got)
	}
	enter(ann, "Bc4", bob) // a premove of ann's, played with bob's move
	if got := ring(func() { enter(ann, "d3", bob); enter(bob, "Nf6", ann) }); got != 1 || len(ann.upd.Game.Moves) != 7 {
		t.Errorf("bob's move with ann's premove rang %d times (moves %v), want 1", got, ann.upd.Replayed.SANs)
	}
	enter(ann, "bell", bob)
	if !strings.Contains(ann.status, "bell off") {
		t.Errorf("bell: %q", ann.status)
	}
	if got := ring(func() { enter(ann, "Nc3", bob); enter(bob, "Be7", ann) }); got != 0 {
		t.Errorf("the bell turned off rang %d times", got)
	}

	if lowTime(game.TimeControl{Base: 3 * time.Minute}) != 36*time.Second || lowTime(game.TimeControl{Base: time.Minute}) != 12*time.Second || lowTime(game.TimeControl{Base: 15 * time.Second}) != 10*time.Second {
		t.Error("lowTime is not the greater of 10 s and a fifth of the initial time")
	}
	// Low time: ann's clock runs (5+0: low under 60 s).
	enter(bob, "O-O", ann)
	enter(ann, "bell", bob)
	was, now := n.Load(), time.Now()
	runBell(ann.lowTimeBell(now))
	runBell(ann.lowTimeBell(now.Add(4*time.Minute + 10*time.Second)))
	if got := n.Load() - was; got != 1 {
		t.Errorf("ann's clock at 50 s rang %d times, want 1", got)
	}
	runBell(ann.lowTimeBell(now.Add(4*time.Minute + 20*time.Second)))
	if got := n.Load() - was; got != 1 {
		t.Error("the low-time bell rang twice in a game")
	}
}

// oscs are OSC sequences, ended by BEL or ST.
var oscs = regexp.MustCompile("\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)")

// TestBellOverSSH: the bell reaches the client as the BEL byte, for the
// accepted seek and the opponent's move, and not once the player turned
// it off (the byte is the server's only BEL after the session's start
// outside an OSC: the terminal queries end with one, before the screen,
// and the terminal's title, playtitle.go, is an OSC ended by one).
func TestBellOverSSH(t *testing.T) {
	ts, _ := startPlayServer(t)
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	defer bob.close()
	enterLobby(t, ann, bob)
	mark := len(ann.out.String())
	seekAndPlay(t, ann, bob, "1+0")
	// A BEL ending an OSC (the terminal's title, playtitle.go) is no bell.
	bells := func(c *client, from int) int {
		return strings.Count(oscs.ReplaceAllString(c.out.String()[from:], ""), "\a")
	}
	waitUntil(t, "ann's bell for the accepted seek", func() bool { return bells(ann, mark) == 1 })
	mark = len(bob.out.String())
	ann.send(t, "f3", "\r")
	bob.waitFor(t, "1. f3")
	waitUntil(t, "bob's bell for ann's move", func() bool { return bells(bob, mark) == 1 })
	bob.send(t, "bell", "\r")
	bob.waitFor(t, "bell off")
	bob.send(t, "e5", "\r")
	ann.waitFor(t, "1. f3 e5")
	mark = len(bob.out.String())
	ann.send(t, "g4", "\r")
	bob.waitFor(t, "2. g4")
	time.Sleep(200 * time.Millisecond)
	if n := bells(bob, mark); n != 0 {
		t.Errorf("bob's bell, turned off, rang %d times", n)
	}
}

// TestChallengeBell (issue 37): a challenge to the player rings their
// bell once, wherever they are on the server — at home, and in the lobby
// — and not once they turned the bell off with b in the lobby (the
// setting holds for the SSH session: back home too).
func TestChallengeBell(t *testing.T) {
	ts, p := startPlayServer(t)
	annKey, bobKey := newSigner(t), newSigner(t)
	for h, k := range map[string]gossh.Signer{"ann": annKey, "bob": bobKey} {
		if _, err := p.Store.CreateAccount(context.Background(), gossh.FingerprintSHA256(k.PublicKey()), h, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	bells := func(c *client, from int) int {
		return strings.Count(oscs.ReplaceAllString(c.out.String()[from:], ""), "\a")
	}
	bob := connect(t, ts.addr, bobKey, "", true)
	defer bob.close()
	bob.waitFor(t, "Squall · home")
	mark := len(bob.out.String())
	ann := connect(t, ts.addr, annKey, "play", true)
	defer ann.close()
	ann.waitFor(t, "Squall · lobby")
	ann.send(t, "n", "challenge bob 5+3\r")
	bob.waitFor(t, "ann 1500? challenges you: 5+3 rated")
	waitUntil(t, "bob's bell at home for ann's challenge", func() bool { return bells(bob, mark) == 1 })
	bob.send(t, "p")
	bob.waitFor(t, "(a challenge to you)")
	ann.send(t, "n", "challenge bob 1+0\r")
	bob.waitFor(t, "1+0")
	waitUntil(t, "bob's bell in the lobby for ann's second challenge", func() bool { return bells(bob, mark) == 2 })
	bob.send(t, "b")
	bob.waitFor(t, "bell off")
	bob.send(t, "q")
	bob.waitFor(t, "Squall · home")
	ann.send(t, "n", "challenge bob 3+0\r")
	bob.waitFor(t, "ann 1500? challenges you: 3+0 rated")
	time.Sleep(300 * time.Millisecond)
	if n := bells(bob, mark); n != 2 {
		t.Errorf("bob's bell rang %d times, want 2: turned off, it rang for the third challenge", n)
	}
}
