package serve

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/tui/view"
)

// TestOwnGameNoAnalysis is issue 33's F2 for the player: during ann's
// game a second session with ann's key runs watch and enters her game; it
// shows the game, never Squall's analysis of it (it showed "Squall ·
// analysed depth 3/3 … 1. f3 …"), and says why. Another spectator of the
// same game gets the analysis.
func TestOwnGameNoAnalysis(t *testing.T) {
	ts, _ := startPlayServer(t)
	annKey := newSigner(t)
	ann := connect(t, ts.addr, annKey, "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	defer bob.close()
	enterLobby(t, ann, bob)
	seekAndPlay(t, ann, bob, "3+0")
	ann.send(t, "f3", "\r")
	bob.waitFor(t, "1. f3")
	bob.send(t, "e5", "\r")
	ann.waitFor(t, "1. f3 e5")

	again := connect(t, ts.addr, annKey, "watch", true) // ann's key, a second session
	defer again.close()
	eve := connect(t, ts.addr, newSigner(t), "watch", true)
	defer eve.close()
	for _, c := range []*client{again, eve} {
		c.waitFor(t, "ann")
		c.send(t, "\r")
		c.waitFor(t, "Squall · watching")
		c.waitFor(t, "1. f3 e5")
	}
	eve.waitFor(t, "depth 3")
	again.waitFor(t, "no analysis of your own game while it is played")
	ann.send(t, "g3", "\r")
	eve.waitFor(t, "2. g3")
	again.waitFor(t, "2. g3")
	eve.waitFor(t, "2… ")
	if out := again.out.String(); strings.Contains(out, "depth") || strings.Contains(out, "analysed") || strings.Contains(out, "analysing") {
		t.Errorf("ann's own key was shown the analysis of her game:\n%s", out)
	}
}

// fakeAnalysis records what a spectator's screen asks of the pool.
type fakeAnalysis struct {
	asked []engine.Game
}

func (f *fakeAnalysis) Watch(string) (<-chan analysis.Result, func()) {
	return make(chan analysis.Result), func() {}
}

func (f *fakeAnalysis) Analyse(_ string, g engine.Game) { f.asked = append(f.asked, g) }

// sans is the game of the moves in SAN from the initial position, and its
// moves in UCI as a game's state holds them.
func sans(t *testing.T, moves ...string) (engine.Game, []string) {
	t.Helper()
	g := engine.Game{Start: chess.NewPosition()}
	p := g.Start.Clone()
	var uci []string
	var u chess.Undo
	for _, s := range moves {
		m, err := p.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
		uci = append(uci, m.UCI(false))
		p.MakeMove(m, &u)
	}
	return g, uci
}

// watching is a spectator's screen following game "g" between ann and
// bob, its updates and analysis fed by the test.
func watching(t *testing.T, handle string) (*spectatorModel, *fakeAnalysis, chan play.Update, chan analysis.Result) {
	t.Helper()
	pool := &fakeAnalysis{}
	m := newSpectatorModel(&server.Games{Analysis: pool}, lipgloss.NewRenderer(nil), nil, 120, 40)
	m.Update(accountMsg{handle: handle, found: handle != ""})
	updates, results := make(chan play.Update), make(chan analysis.Result)
	m.gameID, m.updates, m.results = "g", updates, results
	return m, pool, updates, results
}

// show makes the screen show the game after moves.
func show(t *testing.T, m *spectatorModel, updates chan play.Update, moves ...string) {
	t.Helper()
	_, uci := sans(t, moves...)
	u := update(t, store.GameRecord{ID: "g", Players: play.Players{White: "ann", Black: "bob"},
		Game: game.State{TimeControl: game.TimeControl{Base: 3 * time.Minute}, Moves: uci, Left: [2]time.Duration{time.Minute, time.Minute}}})
	m.Update(shownMsg{from: updates, u: u})
}

// update is rec as a hub decodes it, its clocks read now.
func update(t *testing.T, rec store.GameRecord) play.Update {
	t.Helper()
	rec.Game.Saved = time.Now()
	u, err := play.Decode(rec, 1)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// report hands the screen an analysis of the position after moves, at
// depth with nodes, its best line the move pv.
func report(t *testing.T, m *spectatorModel, results chan analysis.Result, depth int, nodes uint64, cp int, pv string, moves ...string) {
	t.Helper()
	g, _ := sans(t, moves...)
	p, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	mv, err := p.ParseSAN(pv)
	if err != nil {
		t.Fatal(err)
	}
	in := engine.Info{Depth: depth, SelDepth: depth + 10, Nodes: nodes, Time: time.Second, MultiPV: 1,
		Score: engine.Score{CP: cp}, PV: []chess.Move{mv}}
	m.Update(analysisMsg{From: results, Value: analysis.Result{Game: g, Lines: []engine.Info{in}}, OK: true})
}

// TestSpectatorAnalysisOfShownPosition is issue 33's G2 on the spectator's
// screen: after a move, the panel never shows the analysis of the
// position before it (it showed the old line's "depth 16/26 45k nodes"
// with its score's sign flipped and no PV until the new position's first
// report), nor of another position the same number of moves in (a
// takeback and another move): only a report of the position shown.
func TestSpectatorAnalysisOfShownPosition(t *testing.T) {
	m, pool, updates, results := watching(t, "eve")
	show(t, m, updates, "e4")
	report(t, m, results, 16, 45_000, 20, "e5", "e4")
	if v := m.View(); !strings.Contains(v, "depth 16/26") || !strings.Contains(v, "1… e5") {
		t.Fatalf("the analysis of the position shown is not shown:\n%s", v)
	}
	show(t, m, updates, "e4", "c5")
	if v := m.View(); strings.Contains(v, "depth 16") || strings.Contains(v, "45k") {
		t.Errorf("after 1... c5 the panel shows the analysis of the position before it:\n%s", v)
	}
	report(t, m, results, 18, 90_000, -35, "Nf3", "d4", "d5") // the same ply, another position
	if v := m.View(); strings.Contains(v, "depth 18") {
		t.Errorf("the panel shows the analysis of another position of the same ply:\n%s", v)
	}
	report(t, m, results, 9, 3_000, 28, "Nf3", "e4", "c5")
	if v := m.View(); !strings.Contains(v, "depth 9/19") || !strings.Contains(v, "2. Nf3") {
		t.Errorf("the analysis of the position shown is not shown:\n%s", v)
	}
	if len(pool.asked) != 2 {
		t.Errorf("the screen asked for %d analyses for 2 positions shown", len(pool.asked))
	}
}

// TestSpectatorOwnGameBeforeAccount: F2 while the screen does not know yet
// whose key it is (the account's lookup has not answered): no analysis is
// asked for or shown until it does, and none once it says the spectator
// is one of the players.
func TestSpectatorOwnGameBeforeAccount(t *testing.T) {
	pool := &fakeAnalysis{}
	m := newSpectatorModel(&server.Games{Analysis: pool}, lipgloss.NewRenderer(nil), newSigner(t).PublicKey(), 120, 40)
	updates, results := make(chan play.Update), make(chan analysis.Result)
	m.gameID, m.updates, m.results = "g", updates, results
	show(t, m, updates, "e4")
	report(t, m, results, 16, 45_000, 20, "e5", "e4")
	if v := m.View(); strings.Contains(v, "depth") || len(pool.asked) != 0 {
		t.Errorf("before the account is known the screen asked %d analyses and shows:\n%s", len(pool.asked), v)
	}
	m.Update(accountMsg{handle: "Ann", found: true}) // ann's key: the handle in any case
	report(t, m, results, 17, 55_000, 20, "e5", "e4")
	if v := m.View(); strings.Contains(v, "depth") || len(pool.asked) != 0 || !strings.Contains(v, "no analysis of your own game") {
		t.Errorf("ann's key was asked %d analyses of her game and shown:\n%s", len(pool.asked), v)
	}
}

// TestChatKeptAfterCrash is issue 33's G5: the players' mute and the
// chat's lines are kept with the game, written before they are
// acknowledged — a server stopped and started again on its data directory
// has them (after `mute`, kill -9 and a restart the muted spectators were
// heard and the earlier lines gone).
func TestChatKeptAfterCrash(t *testing.T) {
	dir := t.TempDir()
	start := func() (*server.Games, func()) {
		srv, err := server.New(context.Background(), server.Options{
			SSH: sshd.Config{Listen: "127.0.0.1:0", HostKeyPath: filepath.Join(dir, "host"), Log: t.Output()},
			Games: &server.GamesOptions{
				Store: store.Options{Dir: dir}, Site: "squall test",
				NewEngine: func() (engine.Analyzer, error) { return &enginetest.Engine{MaxDepth: 3}, nil },
				Stdout:    t.Output(), Stderr: t.Output(),
			},
			Screens: testScreens,
		})
		if err != nil {
			t.Fatal(err)
		}
		return srv.Games, func() { srv.Shutdown(context.Background(), "restart") }
	}
	p, stop := start()
	id, err := p.Hub.Start(context.Background(), "ann", "bob", game.TimeControl{Base: 5 * time.Minute}, false)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	room := p.Chats.Room(id)
	for _, l := range []struct {
		handle    string
		spectator bool
		text      string
	}{{"ann", false, "good luck"}, {"eve", true, "Qh5 wins"}, {"bob", false, "thanks"}} {
		if err := room.Post(l.handle, l.spectator, l.text, now); err != nil {
			t.Fatal(err)
		}
	}
	room.Mute(true)
	stop()

	p, stop = start()
	defer stop()
	room = p.Chats.Room(id)
	if err := room.Post("eve", true, "psst", now.Add(time.Minute)); !errors.Is(err, chat.ErrMuted) {
		t.Errorf("a muted spectator posts after the restart: %v", err)
	}
	texts := func(player bool) string {
		var out []string
		for _, l := range room.Lines(player, 10) {
			out = append(out, l.Handle+": "+l.Text)
		}
		return strings.Join(out, " | ")
	}
	deadline := time.Now().Add(patience)
	for texts(false) != "ann: good luck | eve: Qh5 wins | bob: thanks" {
		if time.Now().After(deadline) {
			t.Fatalf("after the restart the chat has %q (players see %q)", texts(false), texts(true))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := texts(true); got != "ann: good luck | bob: thanks" {
		t.Errorf("after the restart a player sees %q: the mute was lost", got)
	}
}

// TestSpectatorDelayedGameShownAtOnce: a rated game shown behind said
// "joining the game…" for the whole delay (half a minute at 5+0); the
// screen says at once whose game it is, how far behind and when it comes.
func TestSpectatorDelayedGameShownAtOnce(t *testing.T) {
	m, _, updates, _ := watching(t, "eve")
	m.p.Delay = play.AutoDelay
	_, uci := sans(t, "d4")
	u := update(t, store.GameRecord{ID: "g", Players: play.Players{White: "ann", Black: "bob", Rated: true},
		Game: game.State{TimeControl: game.TimeControl{Base: 5 * time.Minute}, Moves: uci, Left: [2]time.Duration{5 * time.Minute, 5 * time.Minute}}})
	if play.SpectatorDelay(u.Players, u.Game.TimeControl, m.p.Delay) <= 0 {
		t.Fatal("test premise: a rated 5+0 game is not shown behind")
	}
	m.Update(gameUpdateMsg{From: updates, Value: u, OK: true})
	v := m.View()
	if strings.Contains(v, "joining") || !strings.Contains(v, "Squall · watching · 30s behind") || !strings.Contains(v, "ann – bob") {
		t.Errorf("a delayed game, just joined:\n%s", v)
	}
	if strings.Contains(v, "d4") {
		t.Errorf("the move not yet due is shown:\n%s", v)
	}
}

// spectatorCatchUp shows m every update of its game sent so far, as its
// commands would once the delay passed.
func spectatorCatchUp(m *spectatorModel) {
	for {
		select {
		case u, ok := <-m.updates:
			if !ok {
				return
			}
			m.Update(shownMsg{from: m.updates, u: u})
			continue
		default:
		}
		return
	}
}

// TestSpectatorFollowsRematch (issue 37): when the two players of the
// game watched begin its rematch, the spectator's screen moves to it, as
// lichess moves its spectators, and says so; it stayed on the finished
// game (esc showed the new one on the list). A game of the same players
// that is no rematch (the same colours) is not followed; one the review
// is open over waits for the review to close.
func TestSpectatorFollowsRematch(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	ann, bob := startGame(t, p)
	old := ann.gameID
	m := newSpectatorModel(p, testRenderer(), nil, 100, 30)
	t.Cleanup(m.release)
	m.refresh()
	m.Update(m.follow(old)())
	spectatorCatchUp(m)
	enter(ann, "resign", bob)
	spectatorCatchUp(m)
	if m.shown == nil || !m.shown.Over() {
		t.Fatal("the spectator did not see the game end")
	}
	for _, h := range []string{"ann", "bob"} {
		if _, err := p.Lobby.Rematch(ctx, h, ann.upd.GameRecord); err != nil {
			t.Fatal(err)
		}
	}
	next, ok := p.Hub.GameOf("ann")
	if !ok || next == old {
		t.Fatal("the rematch did not start")
	}
	m.Update(clockTickMsg{})
	if m.gameID != old {
		t.Fatal("the screen moved to the rematch before the end was seen")
	}
	m.endAt = m.endAt.Add(-rematchPause) // the end seen long enough
	m.Update(clockTickMsg{})
	if m.gameID != next {
		t.Fatalf("the spectator stays on game %s, not the rematch %s:\n%s", m.gameID, next, ansi.Strip(m.View()))
	}
	spectatorCatchUp(m)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "rematch: bob–ann, game 2") || !strings.Contains(v, "bob") {
		t.Errorf("the rematch is not said:\n%s", v)
	}
	// Its rematch in turn, with the review of the finished game open:
	// the screen moves once the review closes.
	for _, mv := range []struct{ who, move string }{{"bob", "d4"}, {"ann", "d5"}} {
		if _, err := p.Hub.Move(ctx, next, mv.who, mv.move); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Hub.Resign(ctx, next, "bob"); err != nil {
		t.Fatal(err)
	}
	spectatorCatchUp(m)
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	if !m.review.isOpen() {
		t.Fatalf("r opened no review: %s", m.status)
	}
	rec := m.shown.GameRecord
	for _, h := range []string{"ann", "bob"} {
		if _, err := p.Lobby.Rematch(ctx, h, rec); err != nil {
			t.Fatal(err)
		}
	}
	third, _ := p.Hub.GameOf("ann")
	m.endAt = m.endAt.Add(-rematchPause)
	m.Update(clockTickMsg{})
	if m.gameID != next || !m.review.isOpen() {
		t.Fatalf("the screen left the open review for game %s", m.gameID)
	}
	m.Update(view.CloseMsg{})
	m.Update(clockTickMsg{})
	spectatorCatchUp(m)
	if v := ansi.Strip(m.View()); m.gameID != third || !strings.Contains(v, "rematch: ann–bob, game 3") {
		t.Errorf("after the review, game %s (the rematch %s):\n%s", m.gameID, third, v)
	}
	// The same players again, colours unswapped: another game, not
	// followed.
	if _, err := p.Hub.Resign(ctx, third, "bob"); err != nil {
		t.Fatal(err)
	}
	spectatorCatchUp(m)
	if _, err := p.Hub.Start(ctx, "ann", "bob", game.TimeControl{Base: 5 * time.Minute}, false); err != nil {
		t.Fatal(err)
	}
	m.endAt = m.endAt.Add(-rematchPause)
	m.Update(clockTickMsg{})
	if m.gameID != third {
		t.Errorf("the spectator moved to a game that is no rematch: %s", m.gameID)
	}
}

// TestDelayedSpectatorClocks (issue 37): a spectator shown a rated game
// behind sees, as it shows the position the game had at T, the clocks as
// they stood at T, the side to move's running from there — as lichess's
// delayed broadcast shows them. The screen counted the clock down to the
// time of day: a 1+0 game's running clock read 0:45 the moment the
// spectator saw the move that started it, and 0:30 fifteen seconds later.
func TestDelayedSpectatorClocks(t *testing.T) {
	m, _, updates, _ := watching(t, "eve")
	m.p.Delay = play.AutoDelay
	_, uci := sans(t, "e4", "e5") // White's clock runs from here
	bullet := store.GameRecord{ID: "g", Players: play.Players{White: "ann", Black: "bob", Rated: true},
		Game: game.State{TimeControl: game.TimeControl{Base: time.Minute}, Moves: uci, Left: [2]time.Duration{time.Minute, time.Minute}}}
	behind := play.SpectatorDelay(bullet.Players, bullet.Game.TimeControl, m.p.Delay)
	if behind != 15*time.Second {
		t.Fatalf("test premise: a rated 1+0 game is shown %v behind, not 15s", behind)
	}
	for _, c := range []struct {
		shownFor time.Duration // how long the screen has shown the position
		white    string
	}{{0, "1:00"}, {20 * time.Second, "0:40"}} {
		u := update(t, bullet)
		// Played behind + shownFor ago: shown behind after it, shownFor ago.
		u.Game.Saved = time.Now().Add(-behind - c.shownFor)
		m.Update(shownMsg{from: updates, u: u})
		v := ansi.Strip(m.View())
		if !strings.Contains(v, "15s behind") {
			t.Fatalf("test premise: the game is not shown behind:\n%s", v)
		}
		for _, want := range []string{"White ann", "Black bob"} {
			clock := "1:00"
			if want == "White ann" {
				clock = c.white
			}
			line := lineWith(v, want)
			if !strings.Contains(line, want+" ") || !strings.HasSuffix(strings.TrimSpace(line), clock) {
				t.Errorf("shown for %v: the clock beside %q reads %q, want %s", c.shownFor, want, clockOf(line), clock)
			}
		}
	}
}

// lineWith is the first line of screen v that holds s ("": none).
func lineWith(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// clockOf is the last word of a clock's line: the clock.
func clockOf(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}
