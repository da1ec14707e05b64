package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// The list of who is online (issue 37; `ssh -t host online`, o at home):
// the players with a play session (the lobby or a game) on any server
// (presence.Presence.List), the ones the player follows first (★), then
// the followed who are offline (with when this server last saw them, as
// presence.Presence.LastSeen has it), each with their rating at every speed
// and the game they play; f follows the chosen player or stops, v watches
// their game, enter their profile.

type (
	// onlineTickMsg reads the list again.
	onlineTickMsg struct{}
	// onlineRatingsMsg are players' ratings by speed, read from the store.
	onlineRatingsMsg struct {
		ratings map[string][4]rating.Rating
		err     error
	}
)

// onlineRefresh is how often the list is read again; ratingsAgain, how
// often the ratings shown are.
const (
	onlineRefresh = 2 * time.Second
	ratingsAgain  = 30 * time.Second
)

// onlineModel is the list of who is online.
type onlineModel struct {
	quitKey
	p       *server.Games
	st      styles
	w, h    int
	account string // the session's key's fingerprint ("": a guest)
	handle  string // its account's handle, once known
	sshCmd  string
	club    clubNotes
	players []string
	away    map[string]bool             // the players listed who are offline (followed)
	ratings map[string][4]rating.Rating // by handle, by clock.Speed
	reading bool                        // a read of ratings is under way
	readAt  time.Time                   // when every rating shown was last read
	sel     int
	status  string
	isErr   bool
	profile func(handle string) *profileModel
	prof    *profileModel
}

func newOnlineModel(p *server.Games, r *lipgloss.Renderer, account, sshCmd string, w, h int) *onlineModel {
	return &onlineModel{p: p, st: sessionStyles(r), w: w, h: h, account: account, sshCmd: sshCmd, ratings: map[string][4]rating.Rating{}}
}

func (m *onlineModel) Init() tea.Cmd {
	cmds := []tea.Cmd{m.refresh()}
	if m.account != "" {
		cmds = append(cmds, lookUpAccount(m.p.Store, m.account))
	}
	return tea.Batch(cmds...)
}

// refresh lists who is online now and reads the ratings not read yet.
func (m *onlineModel) refresh() tea.Cmd {
	if m.p.Presence != nil {
		m.players = m.p.Presence.List()
	}
	// The followed first, the online then the offline, each part in the
	// order of the handles; then the others.
	var followed, others, offline []string
	on := map[string]bool{}
	for _, h := range m.players {
		on[account.Key(h)] = true
		if m.club.follows(h) {
			followed = append(followed, h)
		} else {
			others = append(others, h)
		}
	}
	m.away = map[string]bool{}
	for _, h := range m.club.following {
		if !on[account.Key(h)] {
			offline = append(offline, h)
			m.away[h] = true
		}
	}
	slices.Sort(offline)
	m.players = slices.Concat(followed, offline, others)
	m.sel = min(m.sel, max(len(m.players)-1, 0))
	m.club.look(m.p, m.handle)
	tick := tea.Tick(onlineRefresh, func(time.Time) tea.Msg { return onlineTickMsg{} })
	// The ratings not read yet, and every one again each ratingsAgain (a
	// game ended changes two), those shown meanwhile.
	again := time.Since(m.readAt) > ratingsAgain
	var missing []string
	for _, h := range m.players {
		if _, ok := m.ratings[h]; (again || !ok) && len(missing) < 50 {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 || m.reading {
		return tick
	}
	if again {
		m.readAt = time.Now()
	}
	m.reading = true
	st := m.p.Store
	return tea.Batch(tick, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		out := map[string][4]rating.Rating{}
		for _, h := range missing {
			var rs [4]rating.Rating
			for sp := clock.Bullet; sp <= clock.Classical; sp++ {
				r, err := st.Rating(ctx, h, sp.String())
				if err != nil {
					return onlineRatingsMsg{ratings: out, err: err}
				}
				rs[sp] = r
			}
			out[h] = rs
		}
		return onlineRatingsMsg{ratings: out}
	})
}

func (m *onlineModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
	}
	if _, done := msg.(profileDoneMsg); done {
		m.prof = nil
		return m, nil
	}
	switch msg.(type) {
	case onlineTickMsg, onlineRatingsMsg, accountMsg, followingMsg, sshd.ClosingMsg:
	default:
		if m.prof != nil {
			_, cmd := m.prof.Update(msg)
			return m, cmd
		}
	}
	switch msg := msg.(type) {
	case onlineTickMsg:
		return m, m.refresh()
	case onlineRatingsMsg:
		m.reading = false
		for h, r := range msg.ratings {
			m.ratings[h] = r
		}
		if msg.err != nil {
			m.say(msg.err.Error(), true)
		}
	case accountMsg:
		if msg.found {
			m.handle = msg.handle
			return m, readFollowing(m.p.Store, m.handle)
		}
	case followingMsg:
		switch {
		case msg.err != nil:
			m.say(msg.err.Error(), true)
		case msg.note != "":
			m.say(msg.note, false)
		}
		if msg.err == nil || msg.list != nil {
			m.club.setFollowing(msg.list)
		}
	case sshd.ClosingMsg:
		m.say("Server shutting down: "+string(msg), true)
		return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *onlineModel) say(s string, isErr bool) { m.status, m.isErr = s, isErr }

func (m *onlineModel) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	m.status = ""
	chosen := ""
	if m.sel < len(m.players) {
		chosen = m.players[m.sel]
	}
	switch k.String() {
	case "q", "esc", "ctrl+c":
		return m, tea.Quit
	case "up", "k":
		m.sel = max(m.sel-1, 0)
	case "down", "j":
		m.sel = min(m.sel+1, max(len(m.players)-1, 0))
	case "enter", "i":
		if chosen != "" && m.profile != nil {
			m.prof = m.profile(chosen)
			m.prof.within = true
			return m, m.prof.Init()
		}
	case "f":
		switch {
		case chosen == "":
		case m.handle == "":
			m.say("following needs a handle: choose one in play (p at home)", true)
		case chosen == m.handle:
			m.say("that is you", true)
		default:
			return m, setFollowing(m.p.Store, m.handle, chosen, !m.club.follows(chosen))
		}
	case "v":
		if id, ok := m.p.Hub.GameOf(chosen); ok && chosen != "" {
			return m, watchGame(m.home, m.sshCmd, id, func(s string) { m.say(s, false) })
		}
		return m, m.club.watch(m.home, m.sshCmd, func(s string) { m.say(s, false) })
	}
	return m, nil
}

// playing says what game handle plays, if any: "playing 5+3 vs bob".
func (m *onlineModel) playing(handle string, games []store.GameRecord) string {
	for _, g := range games {
		if g.Players.Plays(handle) {
			opp := g.Players.Black
			if opp == handle {
				opp = g.Players.White
			}
			return "playing " + g.Game.TimeControl.String() + " vs " + termtext.SafeLine(opp)
		}
	}
	return ""
}

// offline says a followed player is offline, and when this server saw
// them go if it did ("offline · last seen 5 min ago"); one that has not
// seen them leave since it started cannot say.
func (m *onlineModel) offline(handle string) string {
	if m.p.Presence == nil {
		return "offline"
	}
	at, ok := m.p.Presence.LastSeen(handle)
	if !ok {
		return "offline"
	}
	return "offline · last seen " + ago(time.Since(at))
}

// ago says a time gone by, roughly: "just now", "5 min ago", "3 h ago",
// "2 days ago".
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
}

func (m *onlineModel) View() string {
	if m.prof != nil {
		return m.prof.View()
	}
	out := []string{m.st.Title.Render(fmt.Sprintf("Squall · who is online · %d", len(m.players)-len(m.away))) + m.st.Muted.Render("  playing, or in the lobby"), ""}
	for _, l := range m.club.lines() {
		out = append(out, m.st.Title.Render(termtext.Cut(l, max(m.w, 30))))
	}
	if len(m.club.begun) > 0 {
		out = append(out, "")
	}
	out = append(out, m.st.Muted.Render(fmt.Sprintf("  %-20s %7s %7s %7s %9s", "player", "bullet", "blitz", "rapid", "classical")))
	var tail []string
	if m.status != "" {
		s := m.st.Muted
		if m.isErr {
			s = m.st.Err
		}
		for _, l := range wrapped(termtext.SafeLine(m.status), m.w) {
			tail = append(tail, s.Render(l))
		}
	}
	tail = append(tail, "")
	for _, l := range wrapHelp([]string{"↑/↓ choose", "enter profile", "f follow (★) or stop", "v watch their game", m.quitHelp()}, m.w) {
		tail = append(tail, m.st.Muted.Render(l))
	}
	if len(m.players) == 0 {
		out = append(out, m.st.Muted.Render("  nobody is playing or in the lobby now"))
	}
	rows := len(m.players)
	if m.h > 0 {
		rows = min(rows, max(m.h-len(out)-len(tail), 1))
	}
	games := m.p.Hub.Games()
	top := listWindow(m.sel, len(m.players), rows)
	for i := top; i < min(top+rows, len(m.players)); i++ {
		h := m.players[i]
		mark := " "
		if m.club.follows(h) {
			mark = "★"
		}
		cols := make([]string, 4)
		if rs, ok := m.ratings[h]; ok {
			for sp, r := range rs {
				cols[sp] = r.Shown()
			}
		}
		doing := m.playing(h, games)
		if m.away[h] {
			doing = m.offline(h)
		}
		if h == m.handle {
			doing = strings.TrimSpace(doing + " (you)")
		}
		name := view.Pad(termtext.Cut(termtext.SafeLine(h), 20), 20) // the longest handle's width
		row := fmt.Sprintf("%s %s %7s %7s %7s %9s  %s", mark, name, cols[0], cols[1], cols[2], cols[3], doing)
		if i == m.sel {
			row = m.st.Selected.Render(row)
		}
		out = append(out, strings.TrimRight(row, " "))
	}
	return fitScreen(append(out, tail...), m.w, m.h, 40, 8, "list of who is online", m.quitSentence())
}
