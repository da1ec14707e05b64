package serve

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

// Messages of the session model.
type (
	// snapshotMsg carries a room update, or (OK false) the room's end;
	// From tells which subscription it came from, so a late message from a
	// room the viewer left is ignored.
	snapshotMsg = livecmd.Received[*room.Snapshot]
)

// closingDelay is how long a viewer sees the shutdown message before its
// session ends.
const closingDelay = 500 * time.Millisecond

// sessionModel is one SSH viewer's program: the room list, or one room's
// board and analysis. Its own settings (orientation, size, panel) are
// private to the session; only an owner's keys reach the room.
type sessionModel struct {
	rooms *room.Rooms
	st    styles
	role  sshd.Role
	w, h  int
	flip  bool
	panel bool

	room    *room.Room
	sub     *subscription
	updates <-chan *room.Snapshot
	snap    *room.Snapshot

	list     []room.Info
	selected int

	boardKey  boardKey
	boardText string
	moves     moveList // the game's, in the panel

	// browse is the ply this viewer looks at on its own, -1 when it
	// follows the room live; browsed caches the snapshot drawn for it.
	browse  int
	browsed *room.Snapshot

	input    textinput.Model
	inputFor string // "move", "fen", "room" or ""
	status   string
	closing  string
	// quit is the help's word for q: "quit", or "home" when the home
	// screen opened the rooms (their quit goes back to it).
	quitKey
}

func newSessionModel(rooms *room.Rooms, r *lipgloss.Renderer, role sshd.Role, cmd []string, w, h int) (*sessionModel, error) {
	in := textinput.New()
	in.CharLimit = 120
	m := &sessionModel{rooms: rooms, st: sessionStyles(r), role: role, w: w, h: h, panel: true, input: in, sub: &subscription{owner: role == sshd.Owner}, browse: -1}
	switch {
	case len(cmd) == 0, len(cmd) == 1 && cmd[0] == "rooms":
		m.list = rooms.List()
	case len(cmd) == 2 && cmd[0] == "room":
		room, ok := rooms.Room(cmd[1])
		if !ok && role == sshd.Owner {
			var err error
			if room, err = rooms.Create(cmd[1]); err != nil {
				return nil, err
			}
			ok = true
		}
		if !ok {
			m.list = rooms.List()
			m.status = fmt.Sprintf("no room %q; pick one below", cmd[1])
			break
		}
		m.join(room)
	default:
		return nil, fmt.Errorf("unknown command %q; use 'room NAME', or 'rooms' for the room list", termtext.SafeLine(strings.Join(cmd, " ")))
	}
	return m, nil
}

// fromHome says that q goes back to the home screen.

func (m *sessionModel) join(r *room.Room) {
	m.room = r
	m.updates = m.sub.set(r)
	m.snap = nil
}

func (m *sessionModel) leave() {
	m.sub.set(nil)
	m.room, m.updates, m.snap = nil, nil, nil
}

// subscription is the session's current room subscription. It is the one
// piece of session state another goroutine touches: the server releases it
// when the SSH session ends, however the program ended.
type subscription struct {
	mu     sync.Mutex
	room   *room.Room
	id     int
	owner  bool // an owner's session, not counted as a viewer
	closed bool
}

// set leaves the current room (if any) and subscribes to r (if not nil).
func (s *subscription) set(r *room.Room) <-chan *room.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.room != nil {
		s.room.Unsubscribe(s.id)
		s.room = nil
	}
	if r == nil || s.closed {
		return nil
	}
	var ch <-chan *room.Snapshot
	s.room = r
	if s.owner {
		s.id, ch = r.SubscribeOwner()
	} else {
		s.id, ch = r.Subscribe()
	}
	return ch
}

// release unsubscribes for good. It closes first, then leaves: a join
// after the close subscribes nothing, and the leave undoes a join before
// it. (Leaving first let a join between the two subscribe again, a viewer
// never released.)
func (s *subscription) release() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.set(nil)
}

func (m *sessionModel) Init() tea.Cmd {
	if m.updates != nil {
		return livecmd.Recv(m.updates)
	}
	return nil
}

func (m *sessionModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case snapshotMsg:
		if msg.From != m.updates {
			return m, nil // from a room we left; its channel is closed
		}
		if msg.OK {
			m.snap = msg.Value
			if msg.Value.Closing != "" {
				m.closing = msg.Value.Closing
			}
			return m, livecmd.Recv(m.updates)
		}
		if m.closing != "" {
			return m, tea.Quit
		}
		reason := m.room.EndReason()
		if reason == "" {
			reason = "the room was closed"
		}
		m.leave()
		m.list = m.rooms.List()
		m.status = reason
	case sshd.ClosingMsg:
		m.closing = string(msg)
		// Quit after the message has been on screen a moment; viewers in
		// a room quit sooner, when the room closes.
		return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *sessionModel) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.inputFor != "" {
		return m.inputKey(k)
	}
	switch k.String() {
	case "ctrl+c", "q":
		m.leave()
		return m, tea.Quit
	}
	if m.room == nil {
		return m.listKey(k)
	}
	m.status = ""
	switch k.String() {
	case "f":
		m.flip = !m.flip
	case "p":
		m.panel = !m.panel
	case "t":
		m.nextTheme()
	case "g":
		m.togglePieces()
	case "esc":
		m.leave()
		m.list = m.rooms.List()
		return m, nil // back on the room list: no room for the keys below
	}
	if m.role != sshd.Owner || m.room.ReadOnly() && m.browseKey(k.String()) {
		return m.viewerKey(k.String())
	}
	if m.room.ReadOnly() {
		switch k.String() {
		case "left", "h", "right", "l", "home", "end", "a", "m", ":", "L":
			m.status = "this room mirrors a broadcast: it follows the broadcaster's game, and nobody here can change it"
		}
		return m, nil
	}
	var err error
	switch k.String() {
	case "left", "h":
		err = m.room.Step(-1)
	case "right", "l":
		err = m.room.Step(1)
	case "home":
		err = m.room.Goto(0)
	case "end":
		err = m.room.Goto(1 << 20)
	case "a":
		if m.room.Analysing() {
			m.room.StopAnalysis()
		} else {
			err = m.room.StartAnalysis()
		}
	case "m", ":":
		return m.prompt("move", "move (SAN or UCI): ")
	case "L":
		return m.prompt("fen", "FEN: ")
	}
	if err != nil {
		m.status = err.Error()
	}
	return m, nil
}

// nextTheme switches this viewer's board to the next built-in theme. A
// terminal without colours keeps the monochrome one.
func (m *sessionModel) nextTheme() {
	if view.Colourless(m.st.r) {
		m.status = "your terminal shows no colours (TERM, NO_COLOR): the board stays monochrome"
		return
	}
	all := themes.Builtin()
	i := 0
	for j, t := range all {
		if t.Name == m.st.Theme.Name {
			i = j + 1
		}
	}
	m.st = newStyles(m.st.r, all[i%len(all)], m.st.Board.Pieces())
	m.status = "theme " + m.st.Theme.Name
}

// togglePieces switches this viewer's pieces between glyphs and letters
// (for terminals whose fonts draw the chess glyphs badly). A monochrome
// board always shows letters.
func (m *sessionModel) togglePieces() {
	if m.st.Theme.Monochrome {
		m.status = "a board without colours always shows letters"
		return
	}
	pieces := boardview.Letters
	if m.st.Board.Pieces() == boardview.Letters {
		pieces = boardview.Glyphs
	}
	m.st = newStyles(m.st.r, m.st.Theme, pieces)
}

func (m *sessionModel) listKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "j", "down":
		m.selected = min(m.selected+1, max(len(m.list)-1, 0))
	case "k", "up":
		m.selected = max(m.selected-1, 0)
	case "r":
		m.list = m.rooms.List()
	case "n":
		if m.role == sshd.Owner {
			return m.prompt("room", "new room name: ")
		}
		m.status = "only owners can create rooms"
	case "enter":
		if m.selected < len(m.list) {
			if r, ok := m.rooms.Room(m.list[m.selected].Name); ok {
				m.join(r)
				return m, livecmd.Recv(m.updates)
			}
			m.status = "that room is gone"
			m.list = m.rooms.List()
		}
	}
	return m, nil
}

func (m *sessionModel) prompt(kind, label string) (tea.Model, tea.Cmd) {
	m.inputFor = kind
	m.input.Prompt = label
	m.input.SetValue("")
	return m, m.input.Focus()
}

func (m *sessionModel) inputKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "esc":
		m.inputFor = ""
		m.input.Blur()
		return m, nil
	case "enter":
		text := strings.TrimSpace(m.input.Value())
		kind := m.inputFor
		m.inputFor = ""
		m.input.Blur()
		if text == "" {
			return m, nil
		}
		var err error
		switch kind {
		case "move":
			err = m.room.MoveText(text)
		case "fen":
			err = m.room.LoadFEN(text)
		case "room":
			var r *room.Room
			if r, err = m.rooms.Create(text); err == nil {
				m.join(r)
				return m, livecmd.Recv(m.updates)
			}
		}
		if err != nil {
			m.status = err.Error()
		}
		return m, nil
	}
	cmd, note := typeInto(&m.input, k)
	if note != "" {
		m.status = note
	}
	return m, cmd
}

// The rooms' screens' least sizes: the list's, and the room's (the
// board in its small squares with the eval bar, the header and help).
const (
	roomsMinWidth = 30
	roomsMinRows  = 8
	roomMinWidth  = 40
	roomMinRows   = chromeLines + 9 + 2 // the board and two rows of panel under it
)

func (m *sessionModel) View() string {
	var lines []string
	if m.closing != "" {
		for _, l := range wrapped("Server shutting down: "+termtext.SafeLine(m.closing), m.w) {
			lines = append(lines, m.st.Err.Render(l))
		}
		lines = append(lines, "")
	}
	var tail []string
	if m.inputFor != "" {
		tail = append(tail, m.input.View())
	}
	if m.status != "" {
		for _, l := range wrapped(termtext.SafeLine(m.status), m.w) {
			tail = append(tail, m.st.Err.Render(l))
		}
	}
	key := m.quitSentence()
	if m.room == nil {
		lines = append(lines, m.listView(len(lines)+len(tail))...)
		return fitScreen(append(lines, tail...), m.w, m.h, roomsMinWidth, roomsMinRows, "list of rooms", key)
	}
	lines = append(lines, strings.Split(m.roomView(len(lines)+len(tail)), "\n")...)
	return fitScreen(append(lines, tail...), m.w, m.h, roomMinWidth, roomMinRows, "room", key)
}

// listView is the rooms, the selected one kept in view in the rows left
// by reserved others.
func (m *sessionModel) listView(reserved int) []string {
	out := []string{m.st.Title.Render("Squall rooms") + fmt.Sprintf("  (you are a%s)", article(m.role)), ""}
	items := []string{"j/k move", "enter join", "r refresh", m.quitHelp()}
	if m.role == sshd.Owner {
		items = append(items, "n new room")
	}
	help := wrapHelp(items, m.w)
	if len(m.list) == 0 {
		out = append(out, m.st.Muted.Render("no rooms yet"))
	}
	rows := len(m.list)
	if m.h > 0 {
		rows = max(m.h-len(out)-1-len(help)-reserved, 1)
	}
	top := listWindow(m.selected, len(m.list), rows)
	for i := top; i < len(m.list) && i < top+rows; i++ {
		r := m.list[i]
		line := fmt.Sprintf("%-20s %12s  ply %-4d", r.Name, plural.Count(r.Viewers, "viewer"), r.Ply)
		if r.Analysing {
			line += " analysing"
		}
		if r.Broadcast {
			line += " · broadcast"
		}
		if i == m.selected {
			line = m.st.Selected.Render("> " + line)
		} else {
			line = "  " + line
		}
		out = append(out, line)
	}
	out = append(out, "")
	for _, l := range help {
		out = append(out, m.st.Muted.Render(l))
	}
	return out
}

func article(r sshd.Role) string {
	if r == sshd.Owner {
		return "n owner"
	}
	return " viewer"
}

// browseKey reports the keys that step through the game.
func (m *sessionModel) browseKey(k string) bool {
	switch k {
	case "left", "h", "right", "l", "home", "end":
		return true
	}
	return false
}

// viewerKey handles a key of someone who cannot change the room (a viewer,
// or anyone in a broadcast's room): the arrows step through the game on
// this screen alone, End returns to the live position, and the keys that
// would change the room say why they do nothing.
func (m *sessionModel) viewerKey(k string) (tea.Model, tea.Cmd) {
	if m.snap == nil {
		return m, nil
	}
	last := len(m.snap.Moves)
	cur := m.browse
	if cur < 0 {
		cur = m.snap.Ply
	}
	switch k {
	case "left", "h":
		m.setBrowse(max(cur-1, 0))
	case "right", "l":
		m.setBrowse(min(cur+1, last))
	case "home":
		m.setBrowse(0)
	case "end":
		m.browse, m.browsed = -1, nil
	case "m", ":", "a", "L":
		if m.room.ReadOnly() {
			m.status = "this room mirrors a broadcast: it follows the broadcaster's game, and nobody here can change it"
		} else {
			m.status = "you are watching: only the room's owners can move, analyse or load (they connect with an owner key)"
		}
	}
	return m, nil
}

// setBrowse shows ply on this screen only; the room's own ply is live.
func (m *sessionModel) setBrowse(ply int) {
	if ply == m.snap.Ply && m.browse < 0 {
		return // already there, live
	}
	m.browse, m.browsed = ply, nil
}

// shown is the snapshot this screen draws: the room's, or for a viewer
// browsing the game, the room's game at the viewer's own ply, without the
// analysis (which is of the live position).
func (m *sessionModel) shown() *room.Snapshot {
	s := m.snap
	if s == nil || m.browse < 0 {
		return s
	}
	ply := min(m.browse, len(s.Moves))
	if b := m.browsed; b != nil && b.Seq == s.Seq && b.Ply == ply {
		return b
	}
	pos, err := engine.Game{Start: s.Start, Moves: s.Moves[:ply]}.Position()
	if err != nil {
		return s
	}
	b := *s
	b.Ply, b.Position = ply, pos
	b.Lines, b.LinesSAN, b.Progress, b.CurrMoveSAN = nil, nil, engine.Info{}, ""
	m.browsed = &b
	return &b
}
