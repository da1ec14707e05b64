package serve

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/store"
)

// startPlayServer is a test server with play, assembled as `squall serve`
// assembles it (server.New): a store in a temporary directory, fake
// engines for Squall's seats and the spectators' analysis.
func startPlayServer(t *testing.T) (*testServer, *server.Games) {
	t.Helper()
	ts := startServerWith(t, false, func(o *server.Options) {
		o.Games = &server.GamesOptions{
			Store: store.Options{Dir: t.TempDir()}, Site: "squall test",
			NewEngine: func() (engine.Analyzer, error) { return &enginetest.Engine{MaxDepth: 3}, nil },
			Analysts:  1, AnalysisBudget: engine.Limits{Depth: 3, MultiPV: 2}, MaxReviews: 2,
			Stdout: t.Output(), Stderr: t.Output(),
		}
	})
	return ts, ts.srv.Games
}

// TestPlayOverSSH: two people connect with their keys, choose handles,
// meet through a seek and play a rated 1+0 game to mate; each screen shows
// the moves and the end; a spectator sees every move with Squall's
// analysis, which neither player's screen ever shows; the game is
// archived with [%clk] and both ratings changed.
func TestPlayOverSSH(t *testing.T) {
	ts, p := startPlayServer(t)
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	defer bob.close()
	enterLobby(t, ann, bob)
	seekAndPlay(t, ann, bob, "1+0")
	cid := connect(t, ts.addr, newSigner(t), "play", true)
	defer cid.close()
	cid.waitFor(t, "Choose the handle")
	cid.send(t, "cid", "\r")
	cid.waitFor(t, "Games in progress · 1")
	eve := connect(t, ts.addr, newSigner(t), "watch", true)
	defer eve.close()
	eve.waitFor(t, "ann")
	eve.send(t, "\r")
	eve.waitFor(t, "Squall · watching")
	ann.send(t, "f3", "\r")
	bob.waitFor(t, "1. f3")
	eve.waitFor(t, "1. f3")
	eve.waitFor(t, "depth 3")
	// Chat: the players' lines reach everyone, made safe; a spectator
	// without a handle is told how to get one.
	bob.send(t, "say good luck", "\r")
	for _, c := range []*client{ann, eve} {
		c.waitFor(t, "good luck")
	}
	eve.send(t, "c")
	eve.waitFor(t, "chatting needs a handle")
	bob.send(t, "e5", "\r")
	ann.waitFor(t, "1. f3 e5")
	ann.send(t, "g4", "\r")
	bob.waitFor(t, "2. g4")
	bob.send(t, "Qh4#", "\r")
	for _, c := range []*client{ann, bob} {
		c.waitFor(t, "Black wins by checkmate")
	}
	bob.waitFor(t, "ratings: White 1500 →")
	eve.waitFor(t, "Black wins by checkmate")
	eve.send(t, "r") // anyone may review the game after it
	eve.waitFor(t, "Game review")
	for _, c := range []*client{ann, bob} {
		if out := c.out.String(); strings.Contains(out, "depth") || strings.Contains(out, "analys") {
			t.Errorf("a player's screen showed analysis:\n%s", out)
		}
	}
	ctx := context.Background()
	var b strings.Builder
	if n, err := p.Store.ExportPGN(ctx, &b); err != nil || n != 1 || !strings.Contains(b.String(), "[%clk") || !strings.Contains(b.String(), `[Black "bob"]`) {
		t.Errorf("archive (%d, %v):\n%s", n, err, b.String())
	}
	for _, h := range []string{"ann", "bob"} {
		if r, err := p.Store.Rating(ctx, h, "bullet"); err != nil || r.Rating == 1500 {
			t.Errorf("%s's rating %+v (%v)", h, r, err)
		}
	}
	// The finished game in review, then back to the lobby, where it is
	// among the recent games.
	bob.send(t, "r")
	bob.waitFor(t, "Game review")
	bob.waitFor(t, "Qh4#")
	bob.send(t, "\x1b")
	bob.waitFor(t, "r review")
	ann.send(t, "\r")
	ann.waitFor(t, "no open seeks")
	ann.waitFor(t, "lost 0-1     1+0   rated  white vs bob")
}

// TestPlaySquall: a player sits against Squall from the lobby; Squall
// answers through the hub like a person, and its seat ends with the game.
func TestPlaySquall(t *testing.T) {
	ts, p := startPlayServer(t)
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	defer ann.close()
	ann.waitFor(t, "Choose the handle")
	ann.send(t, "ann", "\r")
	ann.waitFor(t, "Squall · lobby")
	ann.send(t, "s")
	ann.send(t, "4 1+0 white", "\r")
	ann.waitFor(t, "Squall-L4")
	ann.send(t, "e4", "\r")
	ann.waitFor(t, "1. e4 a6") // the fake engine's first legal move
	ann.send(t, "resign", "\r")
	ann.waitFor(t, "Black wins by resignation")
	p.Seats.Close() // returns: the seat's goroutine ended with the game
	if _, ok := p.Hub.GameOf("ann"); ok {
		t.Error("the game is still in progress")
	}
}

// TestPlayOpponentLeaves: a player whose opponent disconnects is told, and
// may claim only after the grace period; the opponent who comes back
// finds the game and the note goes.
func TestPlayOpponentLeaves(t *testing.T) {
	ts, p := startPlayServer(t)
	annKey, bobKey := newSigner(t), newSigner(t)
	ann := connect(t, ts.addr, annKey, "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, bobKey, "play", true)
	enterLobby(t, ann, bob)
	ann.send(t, "c", "bob 3+2 white", "\r") // a challenge this time
	ann.waitFor(t, "challenge sent to bob")
	bob.waitFor(t, "(a challenge to you)")
	bob.send(t, "\r")
	ann.waitFor(t, "Squall · game")
	ann.send(t, "e4", "\r")
	bob.waitFor(t, "1. e4")
	bob.send(t, "e5", "\r")
	ann.waitFor(t, "1. e4 e5")
	ann.send(t, "Nf3", "\r") // Black's clock runs from here
	bob.waitFor(t, "2. Nf3")
	bob.send(t, "draw", "\r")
	ann.waitFor(t, "bob offers a draw")
	bob.close()
	ann.waitFor(t, "bob left; you may claim the game in")
	ann.send(t, "claim", "\r")
	ann.waitFor(t, "the opponent may come back for")
	bob = connect(t, ts.addr, bobKey, "play", true)
	defer bob.close()
	bob.waitFor(t, "2. Nf3")
	// The game bob finds is the stored one: White's clock as stored,
	// Black's run down by exactly the time since (±100 ms).
	stored, err := p.Store.Games(context.Background())
	if err != nil || len(stored) != 1 {
		t.Fatalf("stored games %v, %v", stored, err)
	}
	live, err := p.Hub.Game(stored[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	left := live.Clocks(now)
	want := stored[0].Game.Left
	want[1] -= now.Sub(stored[0].Game.Saved)
	for side, name := range []string{"White", "Black"} {
		if d := left[side] - want[side]; d < -100*time.Millisecond || d > 100*time.Millisecond {
			t.Errorf("%s's clock %v on return, %v by the stored state", name, left[side], want[side])
		}
	}
	bob.send(t, "Nc6", "\r")
	ann.waitFor(t, "2. Nf3 Nc6")
}

// TestPlayNoLeaks: once every player and spectator has left (a game
// played to its end, a game abandoned mid-way, a spectator watching), the
// server's goroutines are back to what they were before anyone came.
func TestPlayNoLeaks(t *testing.T) {
	ts, _ := startPlayServer(t)
	runtime.GC()
	time.Sleep(200 * time.Millisecond)
	base := runtime.NumGoroutine()
	for round := range 3 {
		ann := connect(t, ts.addr, newSigner(t), "play", true)
		bob := connect(t, ts.addr, newSigner(t), "play", true)
		ann.waitFor(t, "Choose the handle")
		ann.send(t, fmt.Sprint("ann", round), "\r")
		bob.waitFor(t, "Choose the handle")
		bob.send(t, fmt.Sprint("bob", round), "\r")
		bob.waitFor(t, "Squall · lobby")
		ann.send(t, "n", "1+0 white", "\r")
		bob.waitFor(t, "1+0  rated")
		bob.send(t, "\r")
		ann.waitFor(t, "Squall · game")
		eve := connect(t, ts.addr, newSigner(t), "watch", true)
		eve.waitFor(t, "ann")
		eve.send(t, "\r")
		eve.waitFor(t, "Squall · watching")
		ann.send(t, "f3", "\r")
		bob.waitFor(t, "1. f3")
		if round < 2 {
			bob.send(t, "e5", "\r") // a game counts once both sides have moved
			ann.waitFor(t, "1. f3 e5")
			bob.send(t, "resign", "\r")
			ann.waitFor(t, "White wins by resignation")
		} // the last round's game is left in progress
		for _, c := range []*client{ann, bob, eve} {
			c.close()
		}
	}
	// The analysis of a game stays in the pool until nobody has asked for
	// it for analysis.ProxyIdle or the game ends (the abandoned one ends
	// when its first move is overdue): that long, not for ever.
	var now int
	for deadline := time.Now().Add(analysis.ProxyIdle + patience); ; time.Sleep(50 * time.Millisecond) {
		if now = runtime.NumGoroutine(); now <= base {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutines: baseline %d, still %d after %v", base, now, analysis.ProxyIdle+patience)
		}
	}
	t.Logf("goroutines: baseline %d, after 3 games with a spectator each: %d", base, now)
}

// TestPlayNeedsAKey: a guest (no SSH key) may watch, not play.
func TestPlayNeedsAKey(t *testing.T) {
	ts, _ := startPlayServer(t)
	conn, err := gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{
		User:            "guest",
		Auth:            []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for cmd, want := range map[string]string{"play": "playing needs an SSH key", "watch": "games in progress"} {
		sess, err := conn.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out := &syncBuffer{}
		sess.Stdout, sess.Stderr = out, out
		in, _ := sess.StdinPipe()
		if err := sess.RequestPty("xterm", 40, 120, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		if err := sess.Start(cmd); err != nil {
			t.Fatal(err)
		}
		answerTerminalQuery(in)
		c := &client{conn: conn, sess: sess, out: out, stdin: in}
		c.waitFor(t, want)
		sess.Close()
	}
}

// enterLobby has ann and bob, just connected to play, choose their handles
// ("ann", "bob") and waits until both are in the lobby.
func enterLobby(t *testing.T, ann, bob *client) {
	t.Helper()
	for _, c := range []struct {
		cl     *client
		handle string
	}{{ann, "ann"}, {bob, "bob"}} {
		c.cl.waitFor(t, "Choose the handle")
		c.cl.send(t, c.handle, "\r")
		c.cl.waitFor(t, "Squall · lobby")
	}
}

// seekAndPlay has ann open a seek of control tc playing White and bob accept
// it, and waits until both are in the game.
func seekAndPlay(t *testing.T, ann, bob *client, tc string) {
	t.Helper()
	ann.send(t, "n", tc+" white", "\r")
	ann.waitFor(t, "seek open: "+tc)
	bob.waitFor(t, "ann")
	bob.send(t, "\r") // accept the seek shown first
	for _, c := range []*client{ann, bob} {
		c.waitFor(t, "Squall · game")
	}
}
