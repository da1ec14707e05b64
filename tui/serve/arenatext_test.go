package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/game"
)

// TestExecArena: `ssh host arena` lists the arenas, `arena NAME` prints
// one's standings as the log makes them, and `arena ID --pgn` every
// finished game of it, as the archive keeps them; an unknown arena is an
// error.
func TestExecArena(t *testing.T) {
	ts, p := startPlayServer(t)
	ctx := context.Background()
	spec, err := arena.ParseSpec("Club Bullet 1+0 10m")
	if err != nil {
		t.Fatal(err)
	}
	def, err := p.Arenas.Ensure(ctx, spec, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"ann", "bob"} {
		if err := p.Arenas.Join(ctx, def.ID, h); err != nil {
			t.Fatal(err)
		}
	}
	var id string
	waitUntil(t, "the arena's first game", func() bool { id, _ = p.Hub.GameOf("ann"); return id != "" })
	g, err := p.Hub.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		if _, err := p.Hub.Move(ctx, id, []string{g.White, g.Black}[i%2], m); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "the game's end in the arena", func() bool {
		st, err := p.Arenas.State(def.ID)
		return err == nil && len(st.Standings) == 2 && st.Standings[0].Score == 2
	})
	key := newSigner(t)
	out, errOut, code := runExec(t, ts.addr, key, "arena")
	if code != 0 || !strings.Contains(out, def.ID) || !strings.Contains(out, "Club Bullet · 1+0 · 10m") {
		t.Fatalf("arena: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	out, errOut, code = runExec(t, ts.addr, key, "arena Club Bullet")
	winner := g.Black
	if code != 0 || !strings.Contains(out, "  1. "+winner) || !strings.Contains(out, "2 players") {
		t.Fatalf("arena Club Bullet: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	t.Logf("arena Club Bullet:\n%s", out)
	out, errOut, code = runExec(t, ts.addr, key, "arena "+def.ID+" --pgn")
	games := readGames(t, "arena --pgn", out)
	if code != 0 || len(games) != 1 || games[0].Tag("Event") != "Club Bullet Arena" || games[0].Tag("Result") != "0-1" {
		t.Fatalf("arena --pgn: exit %d, stderr %q, %d games:\n%s", code, errOut, len(games), out)
	}
	if _, errOut, code := runExec(t, ts.addr, key, "arena Nothing Here"); code != 1 || !strings.Contains(errOut, "no such arena") {
		t.Fatalf("an unknown arena: exit %d, %q", code, errOut)
	}
}

// TestArenaScreen: from the lobby, a lists the arenas with the chosen
// one's standings; j joins; the arena's first wave takes both players to
// their game, and after it they are back at the arena, whose standings
// show the result; w withdraws; a session's end pauses its player.
func TestArenaScreen(t *testing.T) {
	ts, p := startPlayServer(t)
	ctx := context.Background()
	spec, _ := arena.ParseSpec("Screen Bullet 1+0 10m")
	def, err := p.Arenas.Ensure(ctx, spec, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	defer bob.close()
	enterLobby(t, ann, bob)
	for _, c := range []*client{ann, bob} {
		c.send(t, "a")
		c.waitFor(t, "Squall · arenas")
		c.waitFor(t, "you are not in it: j joins")
		c.send(t, "j")
	}
	var id string
	waitUntil(t, "the arena's game", func() bool { id, _ = p.Hub.GameOf("ann"); return id != "" })
	g, err := p.Hub.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Arena != def.ID {
		t.Fatalf("game %+v: not the arena's", g.Players)
	}
	loser := map[string]*client{"ann": ann, "bob": bob}[g.White]
	for _, c := range []*client{ann, bob} {
		c.waitFor(t, "clock allows") // the game's screen
	}
	loser.send(t, "berserk\r")
	for _, c := range []*client{ann, bob} {
		c.waitFor(t, "berserk · lag") // under the berserker's clock, on both screens
	}
	for i, m := range []string{"e2e4", "e7e5"} {
		if _, err := p.Hub.Move(ctx, id, []string{g.White, g.Black}[i], m); err != nil {
			t.Fatal(err)
		}
	}
	loser.send(t, "resign\r")
	waitUntil(t, "the result in the arena", func() bool {
		st, err := p.Arenas.State(def.ID)
		return err == nil && len(st.Standings) == 2 && st.Standings[0].Score == 2
	})
	loser.waitFor(t, "back to the arena")
	loser.send(t, "\x1b")
	loser.waitFor(t, "Standings · 2 players")
	loser.waitFor(t, "  1. "+g.Black)
	loser.send(t, "w")
	loser.waitFor(t, "withdrawn: j joins again")
	winner := map[string]*client{"ann": ann, "bob": bob}[g.Black]
	winner.close()
	waitUntil(t, "the winner paused as the session ends", func() bool {
		st, _ := p.Arenas.State(def.ID)
		for _, s := range st.Standings {
			if s.Handle == g.Black {
				return s.Paused
			}
		}
		return false
	})
}

// TestArenaNextGame: a player left on an arena game's end screen is taken
// to the next game the arena pairs them in, and m offers no rematch.
func TestArenaNextGame(t *testing.T) {
	ts, p := startPlayServer(t)
	ctx := context.Background()
	spec, _ := arena.ParseSpec("Next Bullet 1+0 10m")
	def, err := p.Arenas.Ensure(ctx, spec, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	defer bob.close()
	enterLobby(t, ann, bob)
	for _, c := range []*client{ann, bob} {
		c.send(t, "a")
		c.waitFor(t, "you are not in it: j joins")
		c.send(t, "j")
	}
	var first string
	waitUntil(t, "the arena's game", func() bool { first, _ = p.Hub.GameOf("ann"); return first != "" })
	ann.waitFor(t, "Next Bullet Arena")
	g, _ := p.Hub.Game(first)
	for i, m := range []string{"e2e4", "e7e5"} {
		if _, err := p.Hub.Move(ctx, first, []string{g.White, g.Black}[i], m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Hub.Resign(ctx, first, "ann"); err != nil {
		t.Fatal(err)
	}
	ann.waitFor(t, "your next game opens as the arena pairs you")
	ann.send(t, "m")
	ann.waitFor(t, "no rematch in an arena")
	fresh := func() int { return strings.Count(ansi.Strip(ann.out.String()), "no moves yet") }
	before := fresh()
	// The two are the arena's only players: the duel pairs them again
	// once both have waited (WaitBeforePairing, 15 s at 1+0).
	var second string
	for end := time.Now().Add(arena.WaitBeforePairing(def.Control) + 10*time.Second); second == "" || second == first; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no second game")
		}
		second, _ = p.Hub.GameOf("ann")
	}
	waitUntil(t, "ann's screen at the second game", func() bool { return fresh() > before })
}

// TestArenaMadeByOwner: an owner's n on the arenas makes one from the
// line typed, starting at the next minute, theirs; anyone else's n is
// refused.
func TestArenaMadeByOwner(t *testing.T) {
	ts, p := startPlayServer(t)
	owner := connect(t, ts.addr, ts.owner, "play", true)
	defer owner.close()
	guest := connect(t, ts.addr, newSigner(t), "play", true)
	defer guest.close()
	enterLobby(t, owner, guest)
	guest.send(t, "a")
	guest.waitFor(t, "no arenas: an owner makes one with n")
	guest.send(t, "n")
	guest.waitFor(t, "only the server's owners make arenas")
	owner.send(t, "a")
	owner.waitFor(t, "n new · ")
	owner.send(t, "n")
	owner.waitFor(t, "new arena:")
	owner.send(t, "Owner Cup 0.1+0 30m\r")
	owner.waitFor(t, "too fast to be rated")
	owner.send(t, "Owner Cup 5+0 45m\r")
	owner.waitFor(t, "arena Owner Cup made: it starts at")
	owner.waitFor(t, "Owner Cup · 5+0 · 45m")
	d, err := p.Arenas.Find("Owner Cup")
	if err != nil || d.Owner != "ann" || d.Length != 45*time.Minute || d.Start.Second() != 0 || d.Start.Before(time.Now().Add(-time.Minute)) {
		t.Fatalf("arena %+v, %v", d, err)
	}
}

// TestWatchTopBoards: a spectator's list of games in progress has the
// arena's games first, the best ranked pairing first, each labelled with
// the arena and both players' ranks.
func TestWatchTopBoards(t *testing.T) {
	ts, p := startPlayServer(t)
	ctx := context.Background()
	casual := playGame(t, p, "cy", "dee", "e4", "e5") // a lobby game, in progress
	spec, _ := arena.ParseSpec("Top Arena 1+0 10m")
	def, err := p.Arenas.Ensure(ctx, spec, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"ann", "bob", "eve", "fay"} {
		if err := p.Arenas.Join(ctx, def.ID, h); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "the arena's games", func() bool {
		st, err := p.Arenas.State(def.ID)
		return err == nil && len(st.Playing) == 2
	})
	games, boards := topBoardsFirst(p.Hub.Games(), p.Arenas)
	if len(games) != 3 || games[2].ID != casual || boards[games[0].ID] != "Top Arena #1–#2" && boards[games[0].ID] != "Top Arena #2–#1" {
		t.Fatalf("games %v, boards %v", games, boards)
	}
	spec2 := connect(t, ts.addr, newSigner(t), "watch", true)
	defer spec2.close()
	spec2.waitFor(t, "Top Arena #3")
}

// TestArenaWatchTopBoard: v on the arenas screen watches the arena's top
// board (its best ranked pairing) as watch does: from home it opens the
// watch screen on that game; as a command of its own the screen says the
// command that watches it.
func TestArenaWatchTopBoard(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	spec, _ := arena.ParseSpec("Watched Arena 1+0 10m")
	def, err := p.Arenas.Ensure(ctx, spec, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"ann", "bob"} {
		if err := p.Arenas.Join(ctx, def.ID, h); err != nil {
			t.Fatal(err)
		}
	}
	var id string
	waitUntil(t, "the arena's game", func() bool { id, _ = p.Hub.GameOf("ann"); return id != "" })
	waitUntil(t, "the game in the arena's state", func() bool {
		st, err := p.Arenas.State(def.ID)
		return err == nil && len(st.Playing) == 1
	})
	cy := lobbyModel(t, p, "cy", 100)
	typeText(cy, "a")
	wantOnScreen(t, "cy", cy, "Top boards", "v watches")
	typeText(cy, "v")
	wantOnScreen(t, "cy", cy, "watch it with: ", " watch "+id)
	cy.fromHome()
	_, cmd := cy.Update(keyMsg("v"))
	if cmd == nil {
		t.Fatal("v from home asks nothing")
	}
	if o, ok := cmd().(openMsg); !ok || strings.Join(o.cmd, " ") != "watch "+id {
		t.Errorf("v from home asks %#v", cmd())
	}
}

// pausedArena is arena "Paused 1+0 10m", under way on p, and whether
// handle is paused in it as this server has it.
func pausedArena(t *testing.T, p *server.Games) (arena.Definition, func(handle string) bool) {
	t.Helper()
	spec, _ := arena.ParseSpec("Paused 1+0 10m")
	def, err := p.Arenas.Ensure(context.Background(), spec, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return def, func(handle string) bool {
		st, _ := p.Arenas.State(def.ID)
		for _, s := range st.Standings {
			if s.Handle == handle {
				return s.Paused
			}
		}
		return false
	}
}

// TestArenaPausedOnlyWhenPlaying (issue 37): the pause of a player who
// seeks elsewhere stands only if the seek or game really begins. bob,
// waiting in an arena, accepts ann's seek as she is in a game already
// (the hub refuses the game): his screen says why, and he is still
// waiting in the arena — he stayed paused there, though nothing began.
func TestArenaPausedOnlyWhenPlaying(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	def, paused := pausedArena(t, p)
	ann := lobbyModel(t, p, "ann", 100)
	typeText(ann, "n")
	typeText(ann, "5+0")
	keyAndAnswer(t, ann, tea.KeyMsg{Type: tea.KeyEnter})
	if _, err := p.Hub.Start(ctx, "ann", "eve", game.TimeControl{Base: 5 * time.Minute}, false); err != nil {
		t.Fatal(err) // ann plays elsewhere (a challenge taken on another server), her seek still open
	}
	if err := p.Arenas.Join(ctx, def.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	bob := lobbyModel(t, p, "bob", 100)
	keyAndAnswer(t, bob, tea.KeyMsg{Type: tea.KeyEnter}) // ann's seek, the first
	if !bob.isErr || !strings.Contains(bob.status, "already playing") {
		t.Fatalf("bob accepted the seek of ann, who is playing: status %q (error %v)", bob.status, bob.isErr)
	}
	if paused("bob") {
		t.Errorf("bob's accept began no game, and he is paused in the arena")
	}
	if strings.Contains(screen(bob), "paused in") {
		t.Errorf("bob's screen says he is paused:\n%s", screen(bob))
	}
}

// TestArenaJoinWithdrawsSeeks (issue 37): j on the arenas screen
// withdraws the seeks and challenges the player has open in the lobby,
// as lichess's joining a tournament does, and says so — left open, one
// accepted would pause them in the arena they just joined.
func TestArenaJoinWithdrawsSeeks(t *testing.T) {
	_, p := startPlayServer(t)
	accounts(t, p, "ann", "bob")
	_, paused := pausedArena(t, p)
	ann := lobbyModel(t, p, "ann", 100)
	typeText(ann, "n")
	typeText(ann, "5+0")
	keyAndAnswer(t, ann, tea.KeyMsg{Type: tea.KeyEnter})
	typeText(ann, "c")
	typeText(ann, "bob 3+2")
	keyAndAnswer(t, ann, tea.KeyMsg{Type: tea.KeyEnter})
	if n := len(p.Lobby.Seeks("ann")); n != 2 {
		t.Fatalf("test premise: ann has %d seeks open, want a seek and a challenge", n)
	}
	typeText(ann, "a")
	keyAndAnswer(t, ann, keyMsg("j"))
	if left := p.Lobby.Seeks("ann"); len(left) != 0 {
		t.Errorf("ann joined the arena and still has %d seeks open: %+v", len(left), left)
	}
	wantOnScreen(t, "ann", ann, "joined", "your seek 5+0 and challenge to bob 3+2 withdrawn")
	if paused("ann") {
		t.Error("ann joined and is paused")
	}
}

// TestArenaPausedStandingLine: a player waiting in an arena under way who
// opens a seek is paused in the arena as it opens; one who accepts a
// seek is paused as the game begins. While they are paused (issue 37),
// the lobby and the game screen say so in a line of their own, not once
// on the status line that the next word replaces — on the game screen
// under the board and the clocks, never over them.
func TestArenaPausedStandingLine(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	def, paused := pausedArena(t, p)
	const word = "paused in Paused Arena while you play here · j on the arenas screen resumes"
	ann := lobbyModel(t, p, "ann", 100)
	if err := p.Arenas.Join(ctx, def.ID, "ann"); err != nil {
		t.Fatal(err)
	}
	typeText(ann, "n")
	typeText(ann, "5+0")
	keyAndAnswer(t, ann, tea.KeyMsg{Type: tea.KeyEnter})
	wantOnScreen(t, "ann", ann, "seek open: 5+0 rated", word)
	if !paused("ann") {
		t.Fatal("ann's seek is open and she is not paused in the arena")
	}
	typeText(ann, "n")
	typeText(ann, "0+0") // refused: a word of its own on the status line
	pressEnter(ann)
	ann.Update(lobbyTickMsg{})
	wantOnScreen(t, "ann", ann, word)
	if err := p.Arenas.Join(ctx, def.ID, "ann"); err != nil { // j on the arenas screen, from another session
		t.Fatal(err)
	}
	ann.Update(lobbyTickMsg{})
	if strings.Contains(screen(ann), "paused in") {
		t.Errorf("ann came back to the arena and her lobby still says she is paused:\n%s", screen(ann))
	}

	if err := p.Arenas.Join(ctx, def.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	bob := lobbyModel(t, p, "bob", 100)
	keyAndAnswer(t, bob, tea.KeyMsg{Type: tea.KeyEnter}) // ann's seek
	t.Cleanup(bob.release)
	if !paused("bob") || bob.screen != atBoard {
		t.Fatalf("bob accepted ann's seek: paused %v, at the board %v", paused("bob"), bob.screen == atBoard)
	}
	catchUp(bob)
	wantOnScreen(t, "bob", bob, word)
	ann.Update(lobbyTickMsg{}) // the lobby finds her game
	if ann.screen != atBoard || !paused("ann") {
		t.Fatalf("bob accepted ann's seek: her screen at the board %v, she paused %v", ann.screen == atBoard, paused("ann"))
	}
	t.Cleanup(ann.release)
	catchUp(ann)
	enter(ann, "say hello", bob) // the status line has another word
	for range 5 {
		ann.Update(clockTickMsg{})
	}
	s := screen(ann)
	wantOnScreen(t, "ann", ann, word)
	lines := strings.Split(s, "\n")
	board, at := 0, -1
	for i, l := range lines {
		if strings.Contains(l, "a  b  c") || strings.Contains(l, "h  g  f") { // the board's files, its last row
			board = i
		}
		if strings.Contains(l, "paused in") {
			at = i
		}
	}
	if at <= board || strings.Contains(lines[at], "♜") || strings.Contains(lines[at], "White") {
		t.Errorf("the pause's line is row %d, the board's last row %d: want it under the board, a row of its own:\n%s", at, board, s)
	}
}

// TestArenaPausedLineSaysWhy (issue 37): the standing line says why the
// player is paused. Paused because they play here, it says so (as
// TestArenaPausedStandingLine has it); paused by their own doing — w on
// the arenas screen after the start, or leaving (the session's end) and
// coming back — it does not say "while you play here", which is untrue.
func TestArenaPausedLineSaysWhy(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	def, paused := pausedArena(t, p)
	const own = "paused in Paused Arena · j on the arenas screen resumes"
	ann := lobbyModel(t, p, "ann", 100)
	typeText(ann, "a")
	keyAndAnswer(t, ann, keyMsg("j"))
	keyAndAnswer(t, ann, keyMsg("w"))
	if !paused("ann") {
		t.Fatal("test premise: ann withdrew after the start and is not paused")
	}
	ann.Update(tea.KeyMsg{Type: tea.KeyEsc})
	ann.Update(lobbyTickMsg{})
	wantOnScreen(t, "ann (withdrew with w)", ann, own)
	if strings.Contains(screen(ann), "while you play here") {
		t.Errorf("ann withdrew with w and her lobby says she plays here:\n%s", screen(ann))
	}
	typeText(ann, "n") // a seek: she is paused already, for her own reason
	typeText(ann, "5+0")
	keyAndAnswer(t, ann, tea.KeyMsg{Type: tea.KeyEnter})
	ann.Update(lobbyTickMsg{})
	wantOnScreen(t, "ann (withdrew, then seeks)", ann, own)

	if err := p.Arenas.Join(ctx, def.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := p.Arenas.Pause(ctx, def.ID, "bob"); err != nil { // his session ended, as lifetime.end pauses
		t.Fatal(err)
	}
	bob := lobbyModel(t, p, "bob", 100) // he comes back
	bob.Update(lobbyTickMsg{})
	wantOnScreen(t, "bob (came back)", bob, own)
	if strings.Contains(screen(bob), "while you play here") {
		t.Errorf("bob left and came back, and his lobby says he plays here:\n%s", screen(bob))
	}
}

// TestArenaGameInNewSession (issue 37, found by TestServeArena's SSH
// players): a player who comes back in a new session to their arena game
// — their server died, and they ssh again, to this one — is in the arena
// in that session as in the one they joined from: after the game, enter
// takes them back to the arena, and leaving pauses them. The session
// knew the arena only from j: it sent them to the lobby, and their
// leaving left them to be paired while gone.
func TestArenaGameInNewSession(t *testing.T) {
	ts, p := startPlayServer(t)
	ctx := context.Background()
	def, paused := pausedArena(t, p)
	bobKey := newSigner(t)
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, bobKey, "play", true)
	enterLobby(t, ann, bob)
	bob.close()
	for _, h := range []string{"ann", "bob"} { // joined in sessions on a server since gone
		if err := p.Arenas.Join(ctx, def.ID, h); err != nil {
			t.Fatal(err)
		}
	}
	var id string
	waitUntil(t, "the arena's game", func() bool { id, _ = p.Hub.GameOf("bob"); return id != "" })
	g, err := p.Hub.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"e2e4", "e7e5"} {
		if _, err := p.Hub.Move(ctx, id, []string{g.White, g.Black}[i], m); err != nil {
			t.Fatal(err)
		}
	}
	bob = connect(t, ts.addr, bobKey, "play", true) // bob comes back
	defer bob.close()
	bob.waitFor(t, "1. e4 e5")
	bob.send(t, "resign\r")
	bob.waitFor(t, "enter or esc: back to the arena")
	bob.send(t, "\r")
	bob.waitFor(t, "Squall · arenas")
	bob.close()
	waitUntil(t, "bob paused as his session ends", func() bool { return paused("bob") })
}
