package serve

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/lobby"
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

func typeText(m *playModel, s string) {
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
}

func pressEnter(m *playModel) { m.Update(tea.KeyMsg{Type: tea.KeyEnter}) }

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
	if _, err := p.Lobby.Seek(ctx, "alice", tc, lobby.Black, true, "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Lobby.Seek(ctx, "carol", tc, lobby.Random, false, ""); err != nil {
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
	if _, err := p.Lobby.Seek(ctx, "a_very_long_handle_x", clock.TimeControl{Base: 600 * 60e9, Increment: 600e9}, lobby.White, false, "carol"); err != nil {
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
