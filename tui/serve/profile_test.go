package serve

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/tui/view"
)

// profileGames makes accounts ann and bob and plays two games between
// them: a rated one ann loses, then a casual one she wins.
func profileGames(t *testing.T, p *server.Games) (rated, casual string) {
	t.Helper()
	ctx := context.Background()
	for _, h := range []string{"ann", "bob"} {
		if _, err := p.Store.CreateAccount(ctx, "key-"+h, h, time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
	}
	rated, err := p.Hub.Start(ctx, "ann", "bob", game.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, true)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if _, err := p.Hub.Move(ctx, rated, []string{"ann", "bob"}[i%2], mv); err != nil {
			t.Fatal(err)
		}
	}
	casual = playGame(t, p, "ann", "bob", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
	return rated, casual
}

// TestExecProfile: `ssh host profile HANDLE` prints, without a terminal,
// the player's ratings by speed (provisional ones marked ?), results and
// recent games newest first with their ids; an unknown player is an error
// on standard error with exit status 1.
func TestExecProfile(t *testing.T) {
	ts, p := startPlayServer(t)
	rated, casual := profileGames(t, p)
	key := newSigner(t)
	out, errOut, code := runExec(t, ts.addr, key, "profile ANN")
	if code != 0 || errOut != "" {
		t.Fatalf("profile ANN: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	for _, want := range []string{
		"ann · member since 2026-11-01",
		"bullet     1500? ±350    0 rated",
		"blitz ", "1 rated",
		"2 games: 1 won, 0 drawn, 1 lost",
		"won  1-0     5+3   casual white vs bob                  checkmate  " + casual,
		"lost 0-1     3+2   rated  white vs bob                  1500→",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("profile ANN lacks %q:\n%s", want, out)
		}
	}
	if i, j := strings.Index(out, casual), strings.Index(out, rated); i < 0 || j < i {
		t.Errorf("the games not newest first:\n%s", out)
	}
	for _, c := range []struct{ cmd, want string }{
		{"profile nobody", "no player nobody"},
		{"profile", "usage: profile HANDLE"},
	} {
		out, errOut, code := runExec(t, ts.addr, key, c.cmd)
		if code != 1 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.cmd, code, out, errOut, c.want)
		}
	}
}

// TestProfileScreen: the profile screen shows the ratings, results and
// the games newest first; enter opens the chosen game in the review and
// its close comes back; / looks up another player; opened from the
// leaderboard or the lobby, q goes back there.
func TestProfileScreen(t *testing.T) {
	_, p := startPlayServer(t)
	rated, _ := profileGames(t, p)
	m := newProfileModel(p, testRenderer(), nil, "", "ANN", "ssh host", 80, 24)
	defer m.release()
	var drain func(tea.Cmd)
	drain = func(cmd tea.Cmd) {
		for cmd != nil {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					drain(c)
				}
				return
			}
			if msg == nil {
				return
			}
			_, cmd = m.Update(msg)
		}
	}
	drain(m.Init())
	v := ansi.Strip(m.View())
	for _, want := range []string{"Squall · profile", "ann · member since 2026-11-01", "blitz", "2 games: 1 won, 0 drawn, 1 lost",
		"Games · newest first", "won  1-0", "lost 0-1", "enter review", "q quit"} {
		if !strings.Contains(v, want) {
			t.Errorf("the profile lacks %q:\n%s", want, v)
		}
	}
	if strings.Index(v, "won  1-0") > strings.Index(v, "lost 0-1") {
		t.Errorf("the games not newest first:\n%s", v)
	}
	// The second game, the rated one, in review.
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	msg := cmd()
	if a, ok := msg.(archivedMsg); !ok || a.err != nil || a.ended.ID != rated {
		t.Fatalf("enter on the rated game read %+v", msg)
	}
	m.Update(msg)
	if !m.review.isOpen() || !strings.Contains(ansi.Strip(m.View()), "Game review") {
		t.Fatalf("no review:\n%s", ansi.Strip(m.View()))
	}
	m.Update(view.CloseMsg{})
	if m.review.isOpen() || !strings.Contains(ansi.Strip(m.View()), "Games · newest first") {
		t.Errorf("the review's close did not come back to the profile:\n%s", ansi.Strip(m.View()))
	}
	// Another player's, by handle.
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
	for _, r := range "nobody" {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	drain(cmd)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "no player nobody") {
		t.Errorf("an unknown player:\n%s", v)
	}

	// From the leaderboard (where provisional players are ranked too).
	lb := newLeaderboardModel(p.Store, testRenderer(), 80, 24)
	lb.profile = func(h string) *profileModel { return newProfileModel(p, testRenderer(), m.life, "", h, "", 80, 24) }
	lb.Update(lb.Init()())
	if v := ansi.Strip(lb.View()); !strings.Contains(v, "ann") || !strings.Contains(v, "bob") || !strings.Contains(v, "?") {
		t.Fatalf("the blitz leaderboard:\n%s", v)
	}
	_, cmd = lb.Update(tea.KeyMsg{Type: tea.KeyEnter})
	lb.Update(cmd())
	if v := ansi.Strip(lb.View()); !strings.Contains(v, "Squall · profile") || !strings.Contains(v, "q back") {
		t.Fatalf("enter on the leaderboard:\n%s", v)
	}
	_, cmd = lb.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	lb.Update(cmd())
	if v := ansi.Strip(lb.View()); !strings.Contains(v, "Squall · leaderboard") {
		t.Errorf("q on the profile did not go back to the leaderboard:\n%s", v)
	}

	// From the lobby: i on a seek opens the seeker's.
	if _, err := p.Lobby.Seek(context.Background(), lobby.Seek{Handle: "bob", TC: game.TimeControl{Base: 3 * time.Minute}, Color: lobby.Random, Rated: true}); err != nil {
		t.Fatal(err)
	}
	pm, err := newPlayModel(p, testRenderer(), newSigner(t).PublicKey(), 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	defer pm.release()
	pm.handle = "ann"
	pm.toLobby()
	bobs, err := p.Store.Rating(context.Background(), "bob", "blitz")
	if err != nil {
		t.Fatal(err)
	}
	if v := ansi.Strip(pm.View()); !strings.Contains(v, "i profile") || !strings.Contains(v, "bob "+bobs.Shown()) {
		t.Errorf("the lobby lacks i, or bob's rating %s beside his seek:\n%s", bobs.Shown(), v)
	}
	_, cmd = pm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("i")})
	pm.Update(cmd())
	if v := ansi.Strip(pm.View()); !strings.Contains(v, "bob · member since") || !strings.Contains(v, "q back") {
		t.Fatalf("i on bob's seek:\n%s", v)
	}
	pm.Update(lobbyTickMsg{}) // the lobby goes on under it
	_, cmd = pm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	pm.Update(cmd())
	if v := ansi.Strip(pm.View()); !strings.Contains(v, "Squall · lobby") {
		t.Errorf("q on the profile did not go back to the lobby:\n%s", v)
	}

	// The game's header: both players with their ratings.
	id, err := p.Hub.Start(context.Background(), "ann", "bob", game.TimeControl{Base: 3 * time.Minute}, true)
	if err != nil {
		t.Fatal(err)
	}
	updates, stop, err := p.Hub.Watch(id)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	u := <-updates
	rows, _ := gameRows(sessionStyles(testRenderer()), &u, 0, false, 0, 80, nil, &moveList{}, [2]string{})
	header := ansi.Strip(strings.Join(rows, "\n"))
	for _, want := range []string{"White ann " + u.Players.AtStart[0].Shown(), "Black bob " + bobs.Shown()} {
		if !strings.Contains(header, want) {
			t.Errorf("the game's header lacks %q:\n%s", want, header)
		}
	}
}

// TestProfileHeadOneGame: one game is "1 game", not "1 games" (found in
// tmux).
func TestProfileHeadOneGame(t *testing.T) {
	head := strings.Join(profileHead(play.Profile{Handle: "ann", Games: []store.Played{{Score: 1}}, Won: 1}, false), "\n")
	if !strings.Contains(head, "1 game: 1 won, 0 drawn, 0 lost") {
		t.Errorf("the head of a profile of one game:\n%s", head)
	}
}

// TestProfileReviewSide (issue 37): a game opened from a profile's
// history is drawn from the side of the profile's player — Black at the
// bottom for a game they played Black — and a game of one's own from
// one's own side, whoever's profile it was opened from. It was drawn
// from White's side always.
func TestProfileReviewSide(t *testing.T) {
	_, p := startPlayServer(t)
	accounts(t, p, "ann", "bob", "cid")
	id := playGame(t, p, "bob", "ann", "f3", "e5", "g4", "Qh4#") // ann Black
	flipped := regexp.MustCompile(`h +g +f +e +d +c +b +a`)
	upright := regexp.MustCompile(`a +b +c +d +e +f +g +h`)
	for _, c := range []struct {
		viewer, profile string
		black           bool // drawn from Black's side
	}{
		{"cid", "ann", true},  // ann's game, seen by a third
		{"ann", "ann", true},  // her own
		{"cid", "bob", false}, // bob's, who had White
		{"bob", "ann", false}, // bob's own, from ann's profile
		{"ann", "bob", true},  // ann's own, from bob's profile
	} {
		m := newProfileModel(p, testRenderer(), nil, "key-"+c.viewer, c.profile, "ssh host", 100, 30)
		answer(m, m.Init())
		if m.prof == nil || len(m.prof.Games) != 1 || m.prof.Games[0].ID != id {
			t.Fatalf("%s's profile for %s: %+v", c.profile, c.viewer, m.prof)
		}
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
		m.Update(cmd())
		v := ansi.Strip(m.View())
		if !m.review.isOpen() {
			t.Fatalf("no review:\n%s", v)
		}
		if got := flipped.MatchString(v); got != c.black || upright.MatchString(v) == c.black {
			t.Errorf("%s reviewing %s's game from the profile of %s: drawn from Black's side %v, want %v:\n%s", c.viewer, "bob–ann", c.profile, got, c.black, v)
		}
		m.release()
	}
}
