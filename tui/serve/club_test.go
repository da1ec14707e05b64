package serve

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/server/store/storetest"
)

// answer runs cmd and gives m what it answers (one message, or a batch's
// each), and so on with the commands m answers with, but not the ticks
// (which would wait): the store reads and writes behind a key.
func answer(m tea.Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(200 * time.Millisecond):
		return // a tick
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			answer(m, c)
		}
		return
	}
	_, next := m.Update(msg)
	answer(m, next)
}

// TestFollowNoteInLobby (issue 37): a player who follows cid is told in
// the lobby when cid begins a game (not of the games in progress when they
// came), and v watches it — from the home screen, which opens the watch
// screen on it; as a command of its own, the lobby says the command.
func TestFollowNoteInLobby(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	accounts(t, p, "ann", "bob", "cid", "dan", "eve")
	if _, err := p.Store.SetFollowing(ctx, "ann", "CID", true); err != nil {
		t.Fatal(err)
	}
	before, err := p.Hub.Start(ctx, "cid", "eve", clock.TimeControl{Base: 3 * time.Minute}, false)
	if err != nil {
		t.Fatal(err)
	}
	ann := lobbyModel(t, p, "ann", 100)
	answer(ann, readFollowing(p.Store, "ann"))
	ann.refresh()
	if strings.Contains(screen(ann), "began a game") {
		t.Errorf("a game in progress before ann came is noted:\n%s", screen(ann))
	}
	if _, err := p.Hub.Resign(ctx, before, "eve"); err != nil {
		t.Fatal(err)
	}
	id, err := p.Hub.Start(ctx, "dan", "cid", clock.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Hub.Start(ctx, "bob", "eve", clock.TimeControl{Base: 5 * time.Minute}, false); err != nil {
		t.Fatal(err)
	}
	ann.refresh()
	wantOnScreen(t, "ann", ann, "cid began a game: dan 1500? vs cid 1500?, 5+3 rated · v watches")
	if strings.Contains(screen(ann), "bob 1500? vs") {
		t.Errorf("a game of players ann does not follow is noted:\n%s", screen(ann))
	}
	typeText(ann, "v")
	wantOnScreen(t, "ann", ann, "watch it with: ", " watch "+id)
	ann.fromHome()
	_, cmd := ann.Update(keyMsg("v"))
	if cmd == nil {
		t.Fatal("v from home asks nothing")
	}
	if o, ok := cmd().(openMsg); !ok || strings.Join(o.cmd, " ") != "watch "+id {
		t.Errorf("v from home asks %#v", cmd())
	}
}

// TestOnlineScreen (issue 37): the list of who is online shows the
// players with a play session on the server, with their ratings at each
// speed and the game they play; f follows the chosen player (★, first in
// the list, kept in the store) and stops following them.
func TestOnlineScreen(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	accounts(t, p, "ann", "bob", "cid")
	if err := p.Store.PutRating(ctx, "bob", "blitz", rating.Rating{Rating: 1712, RD: 60, Volatility: 0.06}); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"ann", "bob", "cid"} {
		p.Presence.Join(h)
	}
	if _, err := p.Hub.Start(ctx, "bob", "cid", clock.TimeControl{Base: 5 * time.Minute}, false); err != nil {
		t.Fatal(err)
	}
	m := newOnlineModel(p, testRenderer(), "key-ann", "ssh -p 2222 host", 100, 30)
	answer(m, m.Init())
	view := ansi.Strip(m.View())
	for _, w := range []string{"who is online · 3", "ann", "(you)", "bob                    1500?    1712   1500?     1500?  playing 5+0 vs cid"} {
		if !strings.Contains(view, w) {
			t.Errorf("the list lacks %q:\n%s", w, view)
		}
	}
	answer(m, func() tea.Msg { return keyMsg("j") }) // bob (ann, bob, cid)
	_, cmd := m.Update(keyMsg("f"))
	answer(m, cmd)
	if got, _ := p.Store.Following(ctx, "ann"); len(got) != 1 || got[0] != "bob" {
		t.Errorf("ann follows %v after f on bob", got)
	}
	m.refresh()
	view = ansi.Strip(m.View())
	if !strings.Contains(view, "you follow bob") || !strings.Contains(view, "★ bob") || strings.Index(view, "★ bob") > strings.Index(view, "  ann") {
		t.Errorf("after f on bob:\n%s", view)
	}
	m.sel = 0 // bob, first now
	_, cmd = m.Update(keyMsg("f"))
	answer(m, cmd)
	if got, _ := p.Store.Following(ctx, "ann"); len(got) != 0 {
		t.Errorf("ann follows %v after f on bob again", got)
	}
}

// TestHomeNotes (issue 37): the home screen of a player with a handle
// says the challenges to them (p opens the lobby where they are answered)
// and the games begun by the players they follow.
func TestHomeNotes(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	accounts(t, p, "ann", "bob", "cid")
	if _, err := p.Store.SetFollowing(ctx, "bob", "cid", true); err != nil {
		t.Fatal(err)
	}
	m, _ := homeForTest(100, 30)
	m.games, m.account = p, "key-bob"
	answer(m, m.Init())
	answer(m, readFollowing(p.Store, "bob"))
	if m.handle != "bob" {
		t.Fatalf("home's handle %q", m.handle)
	}
	if _, err := p.Lobby.Seek(ctx, lobby.Seek{Handle: "ann", TC: clock.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, Color: lobby.White, Rated: true, To: "bob"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Hub.Start(ctx, "cid", "ann", clock.TimeControl{Base: time.Minute}, false); err != nil {
		t.Fatal(err)
	}
	m.Update(homeTickMsg{})
	view := ansi.Strip(m.View())
	for _, w := range []string{"ann 1500? challenges you: 5+3 rated, you play Black · p answers it in the lobby",
		"cid began a game: cid 1500? vs ann 1500?, 1+0 casual · v watches", "v watch it"} {
		if !strings.Contains(view, w) {
			t.Errorf("home lacks %q:\n%s", w, view)
		}
	}
}

// TestChallengeByHandleOverSSH (issue 37): `ssh host challenge bob 5+3`
// opens ann's lobby with the challenge made; bob, at his home screen, is
// told of it, p takes him to the lobby, and enter accepts it: both are in
// the game.
func TestChallengeByHandleOverSSH(t *testing.T) {
	ts, p := startPlayServer(t)
	annKey, bobKey := newSigner(t), newSigner(t)
	for h, k := range map[string]gossh.Signer{"ann": annKey, "bob": bobKey} {
		if _, err := p.Store.CreateAccount(context.Background(), gossh.FingerprintSHA256(k.PublicKey()), h, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	bob := connect(t, ts.addr, bobKey, "", true)
	defer bob.close()
	bob.waitFor(t, "Squall · home")
	ann := connect(t, ts.addr, annKey, "challenge Bob 5+3 white", true)
	defer ann.close()
	ann.waitFor(t, "challenge sent to bob: 5+3 rated")
	bob.waitFor(t, "ann 1500? challenges you: 5+3 rated, you play Black · p answers it in the lobby")
	bob.send(t, "p")
	bob.waitFor(t, "(a challenge to you)")
	bob.send(t, "\r")
	for _, c := range []*client{ann, bob} {
		c.waitFor(t, "Squall · game")
	}
}

// TestHomeHandleChosenInPlay: a new key's home screen learns the handle
// chosen in the play screen opened from it when that screen is left, and
// from then says the challenges to it (found in tmux: bob chose his handle
// in play, came back home, and was never told of alice's challenge).
func TestHomeHandleChosenInPlay(t *testing.T) {
	_, p := startPlayServer(t)
	m, _ := homeForTest(100, 30)
	m.games, m.account = p, "key-zed"
	answer(m, m.Init())
	if m.handle != "" {
		t.Fatalf("a key without an account has the handle %q", m.handle)
	}
	m.Update(keyMsg("w"))           // a screen opened…
	accounts(t, p, "zed", "ann")    // …where zed chooses his handle
	_, cmd := m.Update(keyMsg("q")) // and left
	answer(m, cmd)
	if m.handle != "zed" {
		t.Fatalf("back home, the handle is %q", m.handle)
	}
	if _, err := p.Lobby.Seek(context.Background(), lobby.Seek{Handle: "ann", TC: clock.TimeControl{Base: 5 * time.Minute}, To: "zed"}); err != nil {
		t.Fatal(err)
	}
	m.Update(homeTickMsg{})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "ann 1500? challenges you: 5+0 casual") {
		t.Errorf("home does not say ann's challenge:\n%s", v)
	}
}

// TestFollowAcrossCluster (issue 37): two servers of a NATS cluster, ann
// in the lobby of one: when cid, whom she follows (written on the other),
// begins a game hosted by the other, ann's lobby says so, and her list of
// who is online shows cid (connected to the other) playing it, with his
// lag measured there.
func TestFollowAcrossCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("a three-node cluster")
	}
	_, urls := storetest.Cluster(t, 3)
	var games [2]*server.Games
	for i, node := range []string{"a", "b"} {
		ts := startServerWith(t, false, func(o *server.Options) {
			o.Games = &server.GamesOptions{
				Store: store.Options{URL: strings.Join(append(urls[i:], urls[:i]...), ","), Replicas: 3}, Node: node, Site: "squall test",
				NewEngine:  func() (engine.Analyzer, error) { return &enginetest.Engine{MaxDepth: 3}, nil },
				MaxReviews: 1, Stdout: t.Output(), Stderr: t.Output(),
			}
		})
		games[i] = ts.srv.Games
	}
	a, b := games[0], games[1]
	ctx := context.Background()
	accounts(t, b, "ann", "cid", "dan")
	if _, err := b.Store.SetFollowing(ctx, "ann", "cid", true); err != nil {
		t.Fatal(err)
	}
	a.Presence.Join("ann")
	b.Presence.Join("cid")
	b.Presence.SetLag("cid", 23*time.Millisecond)
	ann := lobbyModel(t, a, "ann", 100)
	answer(ann, readFollowing(a.Store, "ann"))
	ann.refresh()
	id, err := b.Hub.Start(ctx, "cid", "dan", clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, false)
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the note on a of cid's game on b", func() bool {
		ann.refresh()
		return strings.Contains(screen(ann), "cid began a game: cid 1500? vs dan 1500?, 3+2 casual · v watches")
	})
	if g, ok := ann.club.newest(); !ok || g.ID != id {
		t.Errorf("v would watch %q, want %q", g.ID, id)
	}
	on := newOnlineModel(a, testRenderer(), "", "ssh host", 100, 30)
	waitUntil(t, "cid online on a, playing", func() bool {
		on.refresh()
		return strings.Contains(ansi.Strip(on.View()), "playing 3+2 vs dan")
	})
	waitUntil(t, "cid's lag on a", func() bool { d, ok := a.Presence.Lag("cid"); return ok && d == 23*time.Millisecond })
}

// TestFollowNoteInGame (issue 37): a game begun by a player ann follows
// while she plays reaches her game screen as a quiet note on its status
// line — no bell, the board and both clocks whole at 100×30 — and v on the
// end screen watches it (as the lobby's v does). It was not said until
// she was back in the lobby.
func TestFollowNoteInGame(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	accounts(t, p, "ann", "bob", "cid", "dan")
	if _, err := p.Store.SetFollowing(ctx, "ann", "cid", true); err != nil {
		t.Fatal(err)
	}
	ann, bob := startGame(t, p)
	ann.h = 30
	rings := 0
	ann.bell.ring = func() { rings++ }
	answer(ann, readFollowing(p.Store, "ann"))
	tick := func() { // a second of the screen's clock ticks
		t.Helper()
		for range 5 {
			_, cmd := ann.Update(clockTickMsg{})
			answer(ann, cmd)
		}
	}
	tick()
	id, err := p.Hub.Start(ctx, "dan", "cid", clock.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, true)
	if err != nil {
		t.Fatal(err)
	}
	tick()
	v := screen(ann)
	for _, want := range []string{"cid began a game: dan 1500? vs cid 1500?, 5+3 rated", "Black bob", "White ann", "5:00", "1. e4 e5", "move> "} {
		if !strings.Contains(v, want) {
			t.Errorf("ann's game screen lacks %q:\n%s", want, v)
		}
	}
	for _, rank := range []string{"8 ", "7 ", "6 ", "5 ", "4 ", "3 ", "2 ", "1 "} {
		if !strings.Contains(v, "\n"+rank) {
			t.Errorf("the board's rank %q is not whole:\n%s", rank, v)
		}
	}
	if rings != 0 {
		t.Errorf("the note rang the bell %d times", rings)
	}
	enter(ann, "resign", bob)
	tick()
	wantOnScreen(t, "ann", ann, "cid began a game", "v watches", "v watch followed")
	typeText(ann, "v")
	wantOnScreen(t, "ann", ann, " watch "+id)
}

// TestOnlineListsFollowedOffline (issue 37): the list of who is online
// lists the players one follows who are not, marked, with when they were
// last seen where the server saw them leave, else "offline" (a player of
// a game the server resumed as it started was not seen leaving: it said
// "last seen just now" of the restart); they were left out.
func TestOnlineListsFollowedOffline(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	accounts(t, p, "ann", "bob", "cid", "dan")
	for _, h := range []string{"bob", "cid"} {
		if _, err := p.Store.SetFollowing(ctx, "ann", h, true); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range []string{"ann", "bob", "dan"} {
		p.Presence.Join(h)
	}
	p.Presence.Leave("bob")
	p.Presence.Away("cid") // a game of cid's resumed as the server started: not a sighting
	m := newOnlineModel(p, testRenderer(), "key-ann", "ssh -p 2222 host", 100, 30)
	answer(m, m.Init())
	m.refresh()
	view := ansi.Strip(m.View())
	for _, w := range []string{"who is online · 2", "★ bob", "offline · last seen just now", "★ cid", "  dan", "ann"} {
		if !strings.Contains(view, w) {
			t.Errorf("the list lacks %q:\n%s", w, view)
		}
	}
	if !regexp.MustCompile(`★ cid .* offline\s*\n`).MatchString(view) {
		t.Errorf("cid, never seen here, is not said offline:\n%s", view)
	}
	if i, j := strings.Index(view, "★ bob"), strings.Index(view, "  dan"); i < 0 || j < i {
		t.Errorf("the followed are not listed first:\n%s", view)
	}
}
