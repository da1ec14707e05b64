package serve

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// TestHomeOverSSH (issue 33, E1): bare `ssh host` opens a home screen
// whose one keys open play, the games to watch, the analysis rooms, the
// leaderboard and the help in the same session, each screen's quit coming
// back to it; an unknown command lists every command.
func TestHomeOverSSH(t *testing.T) {
	ts, _ := startPlayServer(t)
	c := connect(t, ts.addr, newSigner(t), "", true)
	c.waitFor(t, "Squall · home")
	for _, want := range []string{"p play", "w watch", "r analysis rooms", "l leaderboard", "i profiles", "? help", "q quit"} {
		c.waitFor(t, want)
	}
	// Each key opens its screen, whose q comes back home.
	for _, step := range []struct{ key, screen string }{
		{"w", "Squall · games in progress"},
		{"r", "Squall rooms"},
		{"l", "Squall · leaderboard"},
		{"?", "pgn GAME_ID"},
		{"p", "Choose the handle"},
		{"i", "player: "}, // a key without an account: whose profile?
	} {
		n := len(c.out.String())
		c.send(t, step.key)
		waitUntil(t, step.key+" to open "+step.screen, func() bool { return strings.Contains(c.out.String()[n:], step.screen) })
		n = len(c.out.String())
		if step.key == "p" || step.key == "i" {
			c.send(t, "\x03") // the handle prompt types q
		} else {
			c.send(t, "q")
		}
		waitUntil(t, "q on "+step.screen+" to come back home", func() bool { return strings.Contains(c.out.String()[n:], "Squall · home") })
	}
	// At home, q ends the session.
	c.send(t, "q")
	if err := c.sess.Wait(); err != nil {
		t.Errorf("q at home: %v", err)
	}

	// The screens are reachable directly, as before.
	if _, err := ts.srv.Rooms.Create("main"); err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{"play": "Choose the handle", "watch": "Squall · games in progress", "room main": "Room main", "rooms": "Squall rooms"} {
		d := connect(t, ts.addr, newSigner(t), cmd, true)
		d.waitFor(t, want)
		d.close()
	}

	// An unknown command lists them all, one line each.
	out, errOut, code := runExec(t, ts.addr, newSigner(t), "foo")
	if code != 1 || out != "" {
		t.Errorf("foo: exit %d, stdout %q", code, out)
	}
	for _, want := range []string{`unknown command "foo"`, "play ", "watch ", "room NAME", "rooms ", "leaderboard ", "pgn GAME_ID", "games HANDLE", "profile HANDLE", "help "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("foo: stderr lacks %q:\n%s", want, errOut)
		}
	}
	if out, _, code := runExec(t, ts.addr, newSigner(t), "help"); code != 0 || !strings.Contains(out, "pgn GAME_ID") {
		t.Errorf("help: exit %d:\n%s", code, out)
	}
}

// homeForTest is a home screen whose screens are fakes that count their
// messages.
func homeForTest(w, h int) (*homeModel, *[]*fakeScreen) {
	var opened []*fakeScreen
	screen := func(cmd []string, w, h int) (tea.Model, func(), error) {
		f := &fakeScreen{name: strings.Join(cmd, " ")}
		opened = append(opened, f)
		return f, func() { f.released = true }, nil
	}
	s := NewScreens(Config{Games: &server.Games{}})
	return newHomeModel(screen, testRenderer(), "ssh -p 2222 chess.example.org", s.commands(), w, h), &opened
}

// fakeScreen is a screen that ticks, and quits on q.
type fakeScreen struct {
	name     string
	ticks    int
	released bool
}

type fakeTick struct{}

func (f *fakeScreen) Init() tea.Cmd { return func() tea.Msg { return fakeTick{} } }

func (f *fakeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case fakeTick:
		f.ticks++
	case tea.KeyMsg:
		if msg.String() == "q" {
			return f, tea.Batch(nil, tea.Quit)
		}
	}
	return f, nil
}

func (f *fakeScreen) View() string { return "fake " + f.name }

// run runs cmd as the program would: its message, a batch's in turn.
func run(m tea.Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			run(m, c)
		}
		return
	}
	if msg != nil {
		_, next := m.Update(msg)
		run(m, next)
	}
}

func keyMsg(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestHomeScreens (issue 33, E1): each key opens its screen; the screen's
// quit comes back home and ends its watches; a message the screen left
// running is dropped, not given to the screen opened next.
func TestHomeScreens(t *testing.T) {
	m, opened := homeForTest(100, 30)
	_, initW := m.Update(keyMsg("w"))
	if len(*opened) != 1 || (*opened)[0].name != "watch" || m.View() != "fake watch" {
		t.Fatalf("w opened %d screens, view %q", len(*opened), m.View())
	}
	_, quit := m.Update(keyMsg("q"))
	run(m, quit)
	if !strings.Contains(m.View(), "Squall · home") || !(*opened)[0].released {
		t.Fatalf("q on the screen: view %q, released %v", m.View(), (*opened)[0].released)
	}
	_, initR := m.Update(keyMsg("r"))
	run(m, initW) // the watch screen's first tick, answered late
	run(m, initR)
	if w, r := (*opened)[0], (*opened)[1]; w.ticks != 0 || r.ticks != 1 || r.name != "rooms" {
		t.Errorf("ticks: the screen left %d, the screen open %d (%s); want 0 and 1", w.ticks, r.ticks, r.name)
	}
	m.release() // the session ends
	if !(*opened)[1].released {
		t.Errorf("the session's end did not release the open screen")
	}
	_, quit = m.Update(keyMsg("q"))
	run(m, quit)
	_, initL := m.Update(keyMsg("l"))
	run(m, initL)
	if !(*opened)[2].released {
		t.Errorf("a screen opened after the session's end was not released")
	}

	m, opened = homeForTest(100, 30)
	m.Update(keyMsg("?"))
	if v := m.View(); !strings.Contains(v, "ssh -p 2222 chess.example.org COMMAND") || !strings.Contains(v, "games HANDLE [--since YYYY-MM-DD]") || len(*opened) != 0 {
		t.Errorf("? shows:\n%s", v)
	}
	m.Update(keyMsg("q"))
	if _, cmd := m.Update(keyMsg("q")); cmd == nil || cmd() != (tea.QuitMsg{}) {
		t.Errorf("q at home does not quit")
	}
}

// TestHomeFitsSmallTerminals (issue 33, E1): the home screen and its help
// fit the window, each line cut to its width, or say it is too small.
func TestHomeFitsSmallTerminals(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {100, 30}, {80, 24}, {40, 15}, {40, 14}, {40, 12}, {30, 20}, {20, 5}} {
		for _, help := range []bool{false, true} {
			m, _ := homeForTest(size[0], size[1])
			if help {
				m.Update(keyMsg("?"))
			}
			v := ansi.Strip(m.View())
			lines := strings.Split(v, "\n")
			if len(lines) > size[1] {
				t.Errorf("%dx%d (help %v): %d lines:\n%s", size[0], size[1], help, len(lines), v)
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%dx%d (help %v): a line of %d columns: %q", size[0], size[1], help, w, l)
				}
			}
			small := strings.Contains(v, "Too small")
			// 15 rows at 40 columns: the title, eight items, the help line in
			// four rows (14 before a, the arenas; 12 before o, who is online).
			if wantSmall := size[0] < homeMinWidth || size[1] < 15; small != wantSmall {
				t.Errorf("%dx%d (help %v): too small %v, want %v:\n%s", size[0], size[1], help, small, wantSmall, v)
			}
			if !small && !help && (!strings.Contains(v, "q quit") || !strings.Contains(v, "p play")) {
				t.Errorf("%dx%d: the help line lacks the keys or how to quit:\n%s", size[0], size[1], v)
			}
		}
	}
}

// TestLeaderboardFits: the leaderboard's lines, its note on provisional
// ratings included, are whole within a narrow window.
func TestLeaderboardFits(t *testing.T) {
	m := newLeaderboardModel(nil, testRenderer(), 40, 12)
	m.Update(boardMsg{speed: m.speed, board: []store.Standing{{Handle: "ann", Rating: rating.New()}}})
	v := ansi.Strip(m.View())
	if !strings.Contains(strings.ReplaceAll(v, "\n", " "), "(deviation above 110), ranked after the established ones") ||
		!strings.Contains(v, "ann") || !strings.Contains(v, "1500? ±350") || !strings.Contains(v, "q quit") {
		t.Errorf("at 40×12:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("a line of %d columns at 40: %q", w, l)
		}
	}
}
