package serve

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// screenFunc makes the screen a command names — its words: "play",
// "watch", "rooms", "room NAME", "leaderboard", "profile" — w×h cells large, and what
// ends the screen's watches (rooms, games, reviews) when it is left.
type screenFunc func(cmd []string, w, h int) (m tea.Model, release func(), err error)

// homeItem is one of the home screen's choices.
type homeItem struct {
	key, name, what string
	cmd             []string // the screen it opens; nil: the help
}

var homeItems = []homeItem{
	{"p", "play", "rated and casual games, against people or Squall", []string{"play"}},
	{"w", "watch games", "follow the games in progress, with Squall's analysis", []string{"watch"}},
	{"a", "arenas", "tournaments: join, standings, top boards", []string{"play", "arenas"}},
	{"r", "analysis rooms", "live analysis boards", []string{"rooms"}},
	{"l", "leaderboard", "the best ratings at each speed", []string{"leaderboard"}},
	{"i", "profiles", "your ratings and games, or any player's", []string{"profile"}},
	{"o", "online", "who is playing or in the lobby now, with ratings; follow them", []string{"online"}},
	{"?", "help", "the commands, also from your shell", nil},
}

// homeMinWidth is the narrowest home screen; below it, or in fewer rows
// than its lines, the screen says it is too small, as the board does.
const homeMinWidth = 24

// homeModel is the front door of a server with games (bare `ssh host`):
// one key to each screen — play, watch, the analysis rooms, the
// leaderboard — and the help. A screen opened here runs inside it, in the
// same session: its messages pass through, and its quit comes back here
// (q at home ends the session).
type homeModel struct {
	screen screenFunc
	st     styles
	w, h   int
	sshCmd string    // how the client connects: "ssh -p PORT HOST"
	cmds   []command // the server's, for the help
	sel    int
	help   bool
	status string

	sub tea.Model
	// gen counts the screens opened: a message from a screen left behind
	// (a tick, a store read's answer) is dropped, not given to the next.
	gen     int
	current *screenRelease
	closing string

	// games, account: the server's games and the session's key's
	// fingerprint, for the notes of a player with a handle (handle, once
	// known): the challenges to them, and the games the players they
	// follow begin (club.go). Nil, "": none.
	games      *server.Games
	account    string
	handle     string
	club       clubNotes
	challenges []string
	// bell is the session's (nil: none), rung for a new challenge.
	bell *sessionBell
}

// homeTickMsg looks at the notes again.
type homeTickMsg struct{}

// homeTick is how often the home screen looks at its notes.
const homeTick = time.Second

// homeTitle is the terminal's title, set when a screen is left for home
// (the play screen's says the game: playtitle.go).
const homeTitle = "Squall · home"

// subMsg is a message of the screen opened gen-th.
type subMsg struct {
	gen int
	msg tea.Msg
}

// subQuitMsg is the gen-th screen's quit: back home.
type subQuitMsg struct{ gen int }

func newHomeModel(screen screenFunc, r *lipgloss.Renderer, sshCmd string, cmds []command, w, h int) *homeModel {
	return &homeModel{screen: screen, st: sessionStyles(r), w: w, h: h, sshCmd: sshCmd, cmds: cmds, current: &screenRelease{}}
}

// release ends the open screen's watches; the server calls it when the
// SSH session ends, however the program ended.
func (m *homeModel) release() { m.current.close() }

// Init looks up the session's account, for its notes.
func (m *homeModel) Init() tea.Cmd {
	if m.games == nil || m.account == "" {
		return nil
	}
	return tea.Batch(lookUpAccount(m.games.Store, m.account), m.tick())
}

func (m *homeModel) tick() tea.Cmd {
	return tea.Tick(homeTick, func(time.Time) tea.Msg { return homeTickMsg{} })
}

// challengeBell rings for a new challenge to the player while the home
// screen is shown (a screen opened from it rings for its own news: the
// lobby for challenges, the game for moves).
func (m *homeModel) challengeBell() tea.Cmd {
	if m.sub != nil || m.games == nil || m.games.Lobby == nil {
		return nil
	}
	return m.bell.challenged(m.games.Lobby.Seeks(m.handle), m.handle)
}

// look brings the notes up to date.
func (m *homeModel) look() {
	m.club.look(m.games, m.handle)
	m.challenges = challengeLines(m.games, m.handle)
}

func (m *homeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case sshd.ClosingMsg:
		m.closing = string(msg)
		if m.sub == nil {
			return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
		}
		// The screen says it and quits, which ends the session (below).
	case homeTickMsg:
		m.look()
		return m, tea.Batch(m.tick(), m.challengeBell())
	case accountMsg: // the home screen's own: a screen's are tagged (subMsg)
		if msg.found {
			m.handle = msg.handle
			return m, readFollowing(m.games.Store, m.handle)
		}
		return m, nil
	case followingMsg:
		if msg.err == nil {
			m.club.setFollowing(msg.list)
			m.look()
		}
		return m, nil
	case subMsg:
		if msg.gen != m.gen || m.sub == nil {
			return m, nil
		}
		if o, ok := msg.msg.(openMsg); ok {
			m.back()
			return m.open(o.cmd)
		}
		return m.forward(msg.msg)
	case subQuitMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		if m.closing != "" {
			return m, tea.Quit
		}
		m.back()
		title := tea.SetWindowTitle(homeTitle) // the play screen's says a game, maybe
		switch {
		case m.handle != "":
			return m, tea.Batch(title, readFollowing(m.games.Store, m.handle)) // changed on the screen left, maybe
		case m.games != nil && m.account != "":
			return m, tea.Batch(title, lookUpAccount(m.games.Store, m.account)) // a handle chosen in play, maybe
		}
		return m, title
	}
	if m.sub != nil {
		return m.forward(msg)
	}
	if k, ok := msg.(tea.KeyMsg); ok {
		return m.key(k)
	}
	return m, nil
}

// forward gives msg to the open screen.
func (m *homeModel) forward(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.sub, cmd = m.sub.Update(msg)
	return m, tagCmd(m.gen, cmd)
}

func (m *homeModel) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	m.status = ""
	if m.help {
		switch k.String() {
		case "q", "esc", "?", "h", "enter":
			m.help = false
		case "ctrl+c":
			return m, tea.Quit
		}
		return m, nil
	}
	switch k.String() {
	case "q", "ctrl+c":
		return m, tea.Quit
	case "up", "k":
		m.sel = max(m.sel-1, 0)
	case "down", "j":
		m.sel = min(m.sel+1, len(homeItems)-1)
	case "enter":
		return m.choose(homeItems[m.sel])
	case "h":
		return m.choose(homeItems[len(homeItems)-1])
	case "v":
		return m, m.club.watch(true, m.sshCmd, func(s string) { m.status = s })
	case "p":
		if len(m.challenges) > 0 { // answered in the lobby
			m.sel = 0
			return m.choose(homeItems[0])
		}
		fallthrough
	default:
		for i, it := range homeItems {
			if k.String() == it.key {
				m.sel = i
				return m.choose(it)
			}
		}
	}
	return m, nil
}

// choose opens an item's screen, or the help.
func (m *homeModel) choose(it homeItem) (tea.Model, tea.Cmd) {
	if it.cmd == nil {
		m.help = true
		return m, nil
	}
	return m.open(it.cmd)
}

// open opens the screen cmd names.
func (m *homeModel) open(cmd []string) (tea.Model, tea.Cmd) {
	sub, release, err := m.screen(cmd, m.w, m.h)
	if err != nil {
		m.status = err.Error()
		return m, nil
	}
	if s, ok := sub.(interface{ fromHome() }); ok {
		s.fromHome()
	}
	m.gen++
	m.sub = sub
	m.current.set(release)
	return m, tagCmd(m.gen, sub.Init())
}

// back leaves the open screen for the home screen.
func (m *homeModel) back() {
	m.current.set(nil)
	m.sub = nil
	m.gen++ // what the screen left running is dropped when it answers
}

// tagCmd makes cmd's message the gen-th screen's: a quit comes back home,
// and the program's own messages (a batch's commands tagged in turn) go to
// the program.
func tagCmd(gen int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		msg := cmd()
		switch msg := msg.(type) {
		case nil:
			return nil
		case tea.QuitMsg:
			return subQuitMsg{gen}
		case tea.BatchMsg:
			out := make(tea.BatchMsg, 0, len(msg))
			for _, c := range msg {
				out = append(out, tagCmd(gen, c))
			}
			return out
		}
		t := reflect.TypeOf(msg)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.PkgPath() == teaPackage {
			// The program's own (screen, cursor, window size, sequence):
			// for the program to act on, or, exported ones, for the
			// screen, which gets any message untagged.
			return msg
		}
		return subMsg{gen, msg}
	}
}

// teaPackage is bubbletea's import path, whose messages the program reads.
var teaPackage = reflect.TypeOf(tea.QuitMsg{}).PkgPath()

// screenRelease holds what ends the open screen's watches. It is the one
// piece of the home screen that another goroutine touches: the server's,
// when the session ends.
type screenRelease struct {
	mu     sync.Mutex
	end    func()
	closed bool
}

// set ends the screen before and makes end the next end; after close it
// runs end at once.
func (r *screenRelease) set(end func()) {
	r.mu.Lock()
	old := r.end
	r.end = end
	if r.closed {
		old, r.end = end, nil
	}
	r.mu.Unlock()
	if old != nil {
		old()
	}
}

// close ends the open screen's watches for good.
func (r *screenRelease) close() {
	r.mu.Lock()
	end := r.end
	r.end, r.closed = nil, true
	r.mu.Unlock()
	if end != nil {
		end()
	}
}

func (m *homeModel) View() string {
	if m.sub != nil {
		return m.sub.View()
	}
	var lines []string
	if m.help {
		lines = m.helpView()
	} else {
		lines = m.menuView()
	}
	if m.status != "" {
		lines = append(lines, "", m.st.Err.Render(termtext.SafeLine(m.status)))
	}
	if notes := m.notes(); !m.help && len(notes) > 0 && (m.h == 0 || len(lines)+1+len(notes) <= m.h) {
		lines = append(append(lines, ""), notes...)
	}
	if m.closing != "" {
		lines = append([]string{m.st.Err.Render("Server shutting down: " + termtext.SafeLine(m.closing)), ""}, lines...)
	}
	if need := m.menuRows(); m.w > 0 && m.h > 0 && (m.w < homeMinWidth || m.h < need || len(lines) > m.h) {
		if m.w >= homeMinWidth {
			need = max(need, len(lines))
		}
		return view.TooSmall("home screen", homeMinWidth, need, m.w, m.h, "q quits")
	}
	for i, l := range lines {
		lines[i] = termtext.Cut(l, max(m.w, homeMinWidth))
	}
	return strings.Join(lines, "\n")
}

// notes are the challenges to the player and the games of the players
// they follow, as the menu says them under it, each cut to the width.
func (m *homeModel) notes() []string {
	var out []string
	for _, l := range append(append([]string(nil), m.challenges...), m.club.lines()...) {
		out = append(out, m.st.Title.Render(termtext.Cut(l, max(m.w, homeMinWidth))))
	}
	return out
}

// homeHelp is the home screen's help line's items.
func (m *homeModel) homeHelp() []string {
	items := make([]string, 0, len(homeItems)+2)
	for _, it := range homeItems {
		items = append(items, it.key+" "+it.name)
	}
	if _, ok := m.club.newest(); ok {
		items = append(items, "v watch it")
	}
	return append(items, "↑/↓ enter", "q quit")
}

// menuRows is how many rows the menu needs at the width (at least
// homeMinWidth), and the least the screen takes.
func (m *homeModel) menuRows() int {
	return 3 + len(homeItems) + len(wrapHelp(m.homeHelp(), max(m.w, homeMinWidth)))
}

func (m *homeModel) menuView() []string {
	out := []string{m.st.Title.Render("Squall · home"), ""}
	nameW, whatW := 0, 0
	for _, it := range homeItems {
		nameW = max(nameW, lipgloss.Width(it.name))
		whatW = max(whatW, lipgloss.Width(it.what))
	}
	// The descriptions where they all fit: a narrow screen keeps the keys.
	described := m.w == 0 || 2+1+2+nameW+3+whatW <= m.w
	for i, it := range homeItems {
		row, what := fmt.Sprintf("%s  %-*s", it.key, nameW, it.name), ""
		if described {
			what = "   " + it.what
		}
		if i == m.sel {
			out = append(out, m.st.Selected.Render("> "+row+what))
		} else {
			out = append(out, "  "+row+m.st.Muted.Render(what))
		}
	}
	out = append(out, "")
	for _, l := range wrapHelp(m.homeHelp(), m.w) {
		out = append(out, m.st.Muted.Render(l))
	}
	return out
}

// wrapped is text in lines of width cells (view.WrapWords: broken at
// spaces, a word longer than a line where the line ends); a width not known
// yet (0) leaves it one line.
func wrapped(text string, width int) []string {
	if width <= 0 {
		return []string{text}
	}
	return view.WrapWords(text, width)
}

// helpView lists the commands, as `ssh host help` prints them, and the
// keys; where the screen is short, what fits and where the rest is.
func (m *homeModel) helpView() []string {
	out := []string{m.st.Title.Render("Squall · help"), ""}
	out = append(out, wrapped("Each screen is also a command, as is printing games' PGN:", m.w)...)
	for _, l := range wrapped(termtext.SafeLine(m.sshCmd)+" COMMAND", m.w) {
		out = append(out, m.st.Muted.Render(l))
	}
	out = append(out, "")
	useW, whatW := 0, 0
	for _, c := range m.cmds {
		useW = max(useW, lipgloss.Width(commandUse(c)))
		whatW = max(whatW, lipgloss.Width(c.what))
	}
	for _, c := range m.cmds {
		use := commandUse(c)
		if m.w == 0 || 2+useW+2+whatW <= m.w {
			out = append(out, fmt.Sprintf("  %-*s  %s", useW, use, m.st.Muted.Render(c.what)))
		} else { // narrow: the description under its command
			out = append(out, "  "+use)
			for _, l := range wrapped(c.what, m.w-4) {
				out = append(out, "    "+m.st.Muted.Render(l))
			}
		}
	}
	out = append(out, "", "q in a screen comes back here")
	help := wrapHelp([]string{"q, esc or ? back", "ctrl+c quit"}, m.w)
	if m.h > 0 && len(out)+len(help) > m.h {
		tail := wrapped("… the whole list: "+termtext.SafeLine(m.sshCmd)+" help", m.w)
		out = out[:min(max(m.h-len(help)-len(tail), 0), len(out))]
		for _, l := range tail {
			out = append(out, m.st.Muted.Render(l))
		}
	}
	for _, l := range help {
		out = append(out, m.st.Muted.Render(l))
	}
	return out
}
