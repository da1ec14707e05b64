package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/rating"
)

// lobbyModel is handle's lobby screen, w columns wide, on p.
func lobbyModel(t *testing.T, p *server.Games, handle string, w int) *playModel {
	t.Helper()
	m, err := newPlayModel(p, testRenderer(), newSigner(t).PublicKey(), w, 30)
	if err != nil {
		t.Fatal(err)
	}
	m.handle = handle
	m.toLobby()
	return m
}

// accounts gives each handle an account on p (a challenge is to a
// player who has one).
func accounts(t *testing.T, p *server.Games, handles ...string) {
	t.Helper()
	for _, h := range handles {
		if _, err := p.Store.CreateAccount(context.Background(), "key-"+h, h, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

func typeText(m *playModel, s string) {
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
}

func pressEnter(m *playModel) { m.Update(tea.KeyMsg{Type: tea.KeyEnter}) }

// keyAndAnswer gives m key k and then the answer of the action it starts
// (a store write's doneMsg).
func keyAndAnswer(t *testing.T, m *playModel, k tea.KeyMsg) {
	t.Helper()
	_, cmd := m.Update(k)
	if cmd == nil {
		t.Fatalf("%v started nothing", k)
	}
	m.Update(cmd())
}

// TestLobbyPromptClearedOnError is issue 33's G10: a time control the
// prompt refuses is cleared with the error shown, so that the next one
// typed is read alone (it was kept: "abc", enter, "n" read "abcn", and
// 999+999 after it "abcn0+0n999+999").
func TestLobbyPromptClearedOnError(t *testing.T) {
	_, p := startPlayServer(t)
	m := lobbyModel(t, p, "ann", 100)
	typeText(m, "n")
	for _, bad := range []string{"abc", "0+0", "999+999", "5+0 purple"} {
		typeText(m, bad)
		pressEnter(m)
		if !m.isErr || m.status == "" {
			t.Errorf("%q: no error shown (status %q)", bad, m.status)
		}
		if v := m.input.Value(); v != "" || !m.input.Focused() {
			t.Errorf("after %q was refused the prompt holds %q (focused %v), want it empty and open", bad, v, m.input.Focused())
		}
	}
	typeText(m, "5+0")
	pressEnter(m)
	if v := m.input.Value(); v != "" || m.isErr {
		t.Errorf("5+0: prompt %q, status %q", v, m.status)
	}
}

// TestLobbyColourFromReadersSide is issue 33's G9: a seek or challenge
// says which colour the reader would play, not the seeker's bare colour
// (bob's lobby showed "alice 5+0 rated black (a challenge to you)",
// meaning alice plays Black).
func TestLobbyColourFromReadersSide(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	tc := clock.TimeControl{Base: 5 * 60e9}
	accounts(t, p, "bob")
	if _, err := p.Lobby.Seek(ctx, lobby.Seek{Handle: "alice", TC: tc, Color: lobby.Black, Rated: true, To: "bob"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Lobby.Seek(ctx, lobby.Seek{Handle: "carol", TC: tc, Color: lobby.Random}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reader string
		want   []string
	}{
		{"bob", []string{"you play White (a challenge to you)", "colours by lot"}},
		{"alice", []string{"you play Black (your challenge to bob)", "colours by lot"}},
	} {
		view := ansi.Strip(lobbyModel(t, p, c.reader, 120).View())
		for _, w := range c.want {
			if !strings.Contains(view, w) {
				t.Errorf("%s's lobby lacks %q:\n%s", c.reader, w, view)
			}
		}
		if strings.Contains(view, "rated black") {
			t.Errorf("%s's lobby shows the seeker's bare colour:\n%s", c.reader, view)
		}
	}
}

// TestLobbyFitsWidth is issue 33's G12 for the lobby: at 100 columns (and
// at 60) no line is wider than the screen, and the help line, wrapped,
// still names every key, quit included (at 100 it ran past the edge); the
// games in progress say how to follow one without a literal "…".
func TestLobbyFitsWidth(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	if _, err := p.Hub.Start(ctx, "ann", "bob", clock.TimeControl{Base: 3 * 60e9}, false); err != nil {
		t.Fatal(err)
	}
	accounts(t, p, "carol")
	if _, err := p.Lobby.Seek(ctx, lobby.Seek{Handle: "a_very_long_handle_x", TC: clock.TimeControl{Base: 600 * 60e9, Increment: 600e9}, Color: lobby.White, To: "carol"}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{100, 60} {
		m := lobbyModel(t, p, "carol", w)
		view := m.View()
		for _, l := range strings.Split(view, "\n") {
			if lipgloss.Width(l) > w {
				t.Errorf("at %d columns a line is %d wide: %q", w, lipgloss.Width(l), ansi.Strip(l))
			}
		}
		plain := ansi.Strip(view)
		for _, key := range []string{"n new seek", "c challenge", "s play Squall", "q quit"} {
			if !strings.Contains(plain, key) {
				t.Errorf("at %d columns the help lacks %q:\n%s", w, key, plain)
			}
		}
		if strings.Contains(plain, "ssh …") {
			t.Errorf("at %d columns the lobby says %q:\n%s", w, "ssh …", plain)
		}
	}
}

// TestLobbyCasualSeek: a control too fast to rate (issue 33, F1) may be
// played casual — the lobby only opened rated seeks, so it could not be
// played at all — and the refusal of a rated one says how.
func TestLobbyCasualSeek(t *testing.T) {
	_, p := startPlayServer(t)
	m := lobbyModel(t, p, "ann", 100)
	run := func(cmd tea.Cmd) { // the seek's action, its answer handed back
		if cmd == nil {
			return
		}
		if msg, ok := cmd().(doneMsg); ok {
			m.Update(msg)
		}
	}
	typeText(m, "n")
	typeText(m, "0.1+0")
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	run(cmd)
	if !m.isErr || !strings.Contains(m.status, "casual after it") {
		t.Errorf("a rated 0.1+0 seek: status %q", m.status)
	}
	typeText(m, "n")
	typeText(m, "0.1+0 white casual")
	_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	run(cmd)
	if m.isErr || !strings.Contains(m.status, "seek open: 0.1+0 casual") {
		t.Errorf("a casual 0.1+0 seek: status %q", m.status)
	}
	if seeks := p.Lobby.Seeks("ann"); len(seeks) != 1 || seeks[0].Rated {
		t.Errorf("seeks %+v: want one casual seek", seeks)
	}
}

// TestQuitKeySaysHome: a screen opened from the home screen said "q quit"
// where q goes back home; each says which.
func TestQuitKeySaysHome(t *testing.T) {
	_, p := startPlayServer(t)
	lob := lobbyModel(t, p, "ann", 100)
	spec := newSpectatorModel(p, lipgloss.NewRenderer(nil), nil, 100, 30)
	for name, m := range map[string]interface {
		fromHome()
		View() string
	}{"lobby": lob, "games in progress": spec} {
		if v := ansi.Strip(m.View()); !strings.Contains(v, "q quit") {
			t.Errorf("%s on its own does not say q quits:\n%s", name, v)
		}
		m.fromHome()
		if v := ansi.Strip(m.View()); !strings.Contains(v, "q home") || strings.Contains(v, "q quit") {
			t.Errorf("%s opened from home:\n%s", name, v)
		}
	}
}

// TestControlAndColour: the part the Squall prompt, a seek and a challenge
// share — a time control and an optional colour — read one way.
func TestControlAndColour(t *testing.T) {
	for _, c := range []struct {
		words []string
		tc    string
		color lobby.Color
		err   string
	}{
		{[]string{"3+2"}, "3+2", lobby.Random, ""},
		{[]string{"5+3", "white"}, "5+3", lobby.White, ""},
		{[]string{"1+0", "black"}, "1+0", lobby.Black, ""},
		{[]string{"5+3", "red"}, "", lobby.Random, "the colour is white or black"},
		{[]string{"fast"}, "", lobby.Random, "time control"},
	} {
		tc, color, err := controlAndColour(c.words)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v; want an error saying %q", c.words, err, c.err)
			}
		case err != nil || tc.String() != c.tc || color != c.color:
			t.Errorf("%q: %v %v %v; want %s %v", c.words, tc, color, err, c.tc, c.color)
		}
	}
}

// TestLobbySeeksBySpeedAndRange (issue 37): the lobby lists the player's
// own seeks and challenges first, then the others' open seeks by speed
// (bullet first) and rating; f shows one speed at a time, saying how many
// it leaves out; a seek whose rating range does not admit the player is
// not listed to them at all (the lobby refuses their acceptance besides:
// lobby's TestSeekRange).
func TestLobbySeeksBySpeedAndRange(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	accounts(t, p, "ann", "bob", "cid", "dan")
	for h, r := range map[string]float64{"ann": 1700, "bob": 1950, "cid": 1600, "dan": 2100} {
		if err := p.Store.PutRating(ctx, h, "blitz", rating.Rating{Rating: r, RD: 60, Volatility: 0.06}); err != nil {
			t.Fatal(err)
		}
	}
	blitz, bullet := clock.TimeControl{Base: 5 * 60e9}, clock.TimeControl{Base: 60e9}
	for _, s := range []lobby.Seek{
		{Handle: "ann", TC: blitz, Rated: true, Range: 200},
		{Handle: "cid", TC: blitz, Rated: true},
		{Handle: "dan", TC: blitz, Rated: true},
		{Handle: "cid", TC: bullet},
		{Handle: "ann", TC: blitz, To: "bob"},
	} {
		if _, err := p.Lobby.Seek(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	m := lobbyModel(t, p, "bob", 100)
	m.Update(m.lobbyInfo()()) // bob's ratings read
	m.refresh()
	var got []string
	for _, s := range m.seeks {
		got = append(got, s.Handle+" "+s.TC.String())
	}
	if want := "ann 5+0 · cid 1+0 · dan 5+0 · cid 5+0"; strings.Join(got, " · ") != want {
		t.Errorf("bob's lobby lists %s, want %s (the challenge first, ann's ±200 left out)", strings.Join(got, " · "), want)
	}
	typeText(m, "f")
	typeText(m, "f") // every speed → bullet → blitz
	view := ansi.Strip(m.View())
	for _, w := range []string{"Seeks · blitz", "1 at other speeds", "dan 2100", "cid 1600", "(a challenge to you)"} {
		if !strings.Contains(view, w) {
			t.Errorf("filtered to blitz, bob's lobby lacks %q:\n%s", w, view)
		}
	}
	if strings.Contains(view, "1+0") || strings.Contains(view, "±200") {
		t.Errorf("filtered to blitz, bob's lobby shows a bullet seek or ann's ±200:\n%s", view)
	}
	cidView := ansi.Strip(lobbyModel(t, p, "cid", 100).View())
	if !strings.Contains(cidView, "±200") {
		t.Errorf("cid (1600) is not shown ann's ±200 seek:\n%s", cidView)
	}
}

// TestLobbyChallengeByHandle (issue 37): "challenge bob 5+3" typed on the
// seek line challenges bob (found in any case), listed to him; his d
// declines it, and ann's lobby says so; a handle nobody holds is refused.
func TestLobbyChallengeByHandle(t *testing.T) {
	_, p := startPlayServer(t)
	accounts(t, p, "ann", "bob")
	ann := lobbyModel(t, p, "ann", 100)
	typeText(ann, "n")
	typeText(ann, "challenge nobody 5+3")
	keyAndAnswer(t, ann, tea.KeyMsg{Type: tea.KeyEnter})
	wantOnScreen(t, "ann", ann, "no player has that handle: nobody")
	typeText(ann, "n")
	typeText(ann, "challenge BOB 5+3 white")
	keyAndAnswer(t, ann, tea.KeyMsg{Type: tea.KeyEnter})
	wantOnScreen(t, "ann", ann, "challenge sent to bob: 5+3 rated")
	bob := lobbyModel(t, p, "bob", 100)
	wantOnScreen(t, "bob", bob, "ann", "5+3", "you play Black (a challenge to you)")
	ann.refresh()
	wantOnScreen(t, "ann", ann, "(your challenge to bob)")
	keyAndAnswer(t, bob, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")})
	wantOnScreen(t, "bob", bob, "declined ann's challenge")
	if n := len(p.Lobby.Seeks("bob")); n != 0 {
		t.Fatalf("%d seeks listed to bob after he declined", n)
	}
	ann.refresh()
	ann.refresh() // the challenge gone a second look: declined, no game
	wantOnScreen(t, "ann", ann, "bob declined your challenge (5+3)")
}

// TestLeaderboardOpensAtRatedSpeed (issue 37): the lobby's leaderboard
// opens at the speed the lobby is filtered to, else at the speed with the
// most rated players, and the leaderboard screen at the latter: with only
// bullet games played both said "nobody rated yet" at blitz.
func TestLeaderboardOpensAtRatedSpeed(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	accounts(t, p, "ann", "bob", "cid")
	for _, r := range []struct {
		handle, speed string
		rating        float64
	}{{"ann", "bullet", 1620}, {"bob", "bullet", 1480}, {"cid", "rapid", 1550}} {
		if err := p.Store.PutRating(ctx, r.handle, r.speed, rating.Rating{Rating: r.rating, RD: 200, Volatility: 0.06}); err != nil {
			t.Fatal(err)
		}
	}
	m := lobbyModel(t, p, "ann", 100)
	answer(m, m.lobbyInfo())
	wantOnScreen(t, "ann", m, "Leaderboard · bullet", "1. ann", "2. bob")
	// Filtered to rapid: the leaderboard follows.
	for range 3 { // every speed → bullet → blitz → rapid
		_, cmd := m.Update(keyMsg("f"))
		answer(m, cmd)
	}
	wantOnScreen(t, "ann", m, "Seeks · rapid", "Leaderboard · rapid", "1. cid")
	// l still chooses another.
	_, cmd := m.Update(keyMsg("l"))
	answer(m, cmd)
	wantOnScreen(t, "ann", m, "Leaderboard · classical", "nobody rated yet")

	lb := newLeaderboardModel(p.Store, testRenderer(), 80, 24)
	answer(lb, lb.Init())
	if v := ansi.Strip(lb.View()); lb.speed != clock.Bullet || !strings.Contains(v, "1. ann") {
		t.Errorf("the leaderboard opens at %v:\n%s", lb.speed, v)
	}
}
