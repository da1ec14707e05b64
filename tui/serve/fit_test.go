package serve

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/reviewview"
	"github.com/squall-chess/squall/tui/view"
)

// TestServerScreensFit is issue 33's G12 on every server screen: at 40×12,
// 60×20 and 80×24 no line is wider than the terminal and no screen has
// more lines than it has rows; a screen that does not fit says so,
// wrapped, as the board does; at 80×24 every screen is drawn, and at 60×20
// every one but the review (which needs 80×24, as on the board). Lines
// were never cut or wrapped: at 40×12 the title, Black's clock and rank 8
// were cut off, and the review's "terminal too small" line was itself cut.
func TestServerScreensFit(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	ann, spec := playLongGame(t, p)
	ann.status, ann.isErr = "a status line long enough to need more than one row at forty columns, and more", true
	if p.Chats != nil {
		for i := range 7 {
			p.Chats.Room(ann.gameID).Post("bob", false, fmt.Sprintf("chat line %d, long enough to be cut at forty columns", i), time.Now())
		}
		ann.Update(clockTickMsg{})
		spec.Update(clockTickMsg{})
	}
	// A lobby with more seeks and games than rows.
	for i := range 12 {
		h := fmt.Sprintf("player_with_a_long_name%d", i)
		if _, err := p.Lobby.Seek(ctx, lobby.Seek{Handle: h, TC: game.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, Color: lobby.Random, Rated: true}); err != nil {
			t.Fatal(err)
		}
		if i < 6 {
			if _, err := p.Hub.Start(ctx, h, fmt.Sprintf("opponent_%d", i), game.TimeControl{Base: 5 * time.Minute}, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	lob, err := newPlayModel(p, testRenderer(), newSigner(t).PublicKey(), 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	lob.handle = "carol"
	lob.toLobby()
	if cmd := lob.lobbyInfo(); cmd != nil {
		lob.Update(cmd())
	}
	games := newSpectatorModel(p, testRenderer(), nil, 80, 24)
	games.refresh()
	board := newLeaderboardModel(p.Store, testRenderer(), 80, 24)
	board.Update(board.Init()())
	for range 12 { // a history longer than the rows
		playGame(t, p, "a_player_with_history", "an_opponent_of_theirs", "f3", "e5", "g4", "Qh4#")
	}
	profile := newProfileModel(p, testRenderer(), nil, "", "a_player_with_history", "", 80, 24)
	profile.Update(profile.Init()())
	for i := range 12 { // more online than rows
		p.Presence.Join(fmt.Sprintf("player_with_a_long_name%d", i))
	}
	online := newOnlineModel(p, testRenderer(), "", "ssh host", 80, 24)
	answer(online, online.Init())

	hub := room.NewRooms(nil, 1)
	defer hub.Close("")
	r, err := hub.Create("r")
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range longGame {
		if err := r.MoveText(mv); err != nil {
			t.Fatal(err)
		}
	}
	roomList, _ := newSessionModel(hub, testRenderer(), sshd.Owner, []string{"rooms"}, 80, 24)
	room, _ := newSessionModel(hub, testRenderer(), sshd.Viewer, []string{"room", "r"}, 80, 24)
	room.Update(snapshotMsg{From: room.updates, Value: <-room.updates, OK: true})

	th, _ := themes.ByName(themes.Default)
	rv := reviewview.New(view.Env{Renderer: testRenderer(), Theme: th, PGN: pgnOf(t, longGame)}, reviewview.Options{})

	for _, s := range []struct {
		name string
		m    tea.Model
	}{
		{"lobby", lob}, {"play", ann}, {"games in progress", games}, {"spectate", spec},
		{"leaderboard", board}, {"profile", profile}, {"online", online}, {"rooms", roomList}, {"room", room}, {"review", &reviewModel{v: rv}},
	} {
		for _, size := range [][2]int{{40, 12}, {60, 20}, {80, 24}} {
			w, h := size[0], size[1]
			s.m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			v := ansi.Strip(s.m.View())
			if showScreens {
				fmt.Printf("==== %s %dx%d\n%s\n", s.name, w, h, v)
			}
			lines := strings.Split(v, "\n")
			if len(lines) > h {
				t.Errorf("%s at %d×%d: %d lines:\n%s", s.name, w, h, len(lines), v)
			}
			for _, l := range lines {
				if lw := ansi.StringWidth(l); lw > w {
					t.Errorf("%s at %d×%d: a line %d wide: %q", s.name, w, h, lw, l)
				}
			}
			small := strings.Contains(strings.ToLower(v), "too small")
			if small && !strings.Contains(strings.Join(strings.Fields(v), " "), "Enlarge the window") {
				t.Errorf("%s at %d×%d: the too-small message is cut:\n%s", s.name, w, h, v)
			}
			if small && (w == 80 || w == 60 && s.name != "review") {
				t.Errorf("%s at %d×%d: too small:\n%s", s.name, w, h, v)
			}
		}
	}
}

// reviewModel shows a review view as the server's screens do.
type reviewModel struct {
	v    view.View
	w, h int
}

func (m *reviewModel) Init() tea.Cmd { return nil }
func (m *reviewModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
	}
	return m, nil
}
func (m *reviewModel) View() string { return m.v.View(m.w, m.h) }

// pgnOf is a game of moves in SAN from the initial position.
func pgnOf(t *testing.T, sans []string) *pgn.Game {
	t.Helper()
	g := pgn.NewGame()
	n, pos := g.Root, chess.NewPosition()
	var u chess.Undo
	for _, s := range sans {
		m, err := pos.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		n = n.AddChild(m, pos.SAN(m))
		pos.MakeMove(m, &u)
	}
	return g
}

const showScreens = false
