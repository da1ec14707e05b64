package serve

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/analysisview"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/movelist"
)

// Messages of the spectator session.
type (
	gamesTickMsg struct{}
	// shownMsg is a game update whose spectator delay has passed.
	shownMsg struct {
		from <-chan play.Update
		u    play.Update
	}
	// analysisMsg is the pool's next result for the game watched, or
	// (OK false) the end of its results.
	analysisMsg = livecmd.Received[analysis.Result]
	// chatPostedMsg is a spectator's chat line written to the store (or
	// refused).
	chatPostedMsg struct{ err error }
)

// spectatorModel is one spectator's session (`ssh -t host watch`): the
// games in progress, then one game with Squall's analysis of it from the
// server's pool, shown behind the game (play.SpectatorDelay) so that a
// spectator cannot relay it to a player in time. Players' sessions never
// get the analysis: only this model asks the pool, and never for a game
// its key's account plays (a player's second session), nor before it
// knows whose key it is.
type spectatorModel struct {
	quitKey
	p    *server.Games
	st   styles
	w, h int

	games []store.GameRecord
	// boards label the arenas' games listed ("Hourly Blitz #1–#4"), by
	// id: the top boards come first (topBoardsFirst).
	boards map[string]string
	sel    int

	gameID  string
	updates <-chan play.Update
	results <-chan analysis.Result
	life    *lifetime
	shown   *play.Update
	// first is the first update of a game shown behind, until its delay
	// has passed: the screen says whose game it is and when it appears,
	// rather than "joining the game…" for the whole delay.
	first    *play.Update
	firstDue time.Time
	moves    moveList // the game's, as the screen lists them
	shownKey string   // the shown position's analysis.Key
	analysed *analysis.Result
	status   string
	// players are the followed game's, from the list, then from each
	// update shown.
	players play.Players

	review reviewPane // a finished game in review, while open
	// series counts the games of the players followed from the list and
	// their rematches (toRematch): the one shown is the series-th; note
	// says the rematch moved to; endAt is when the end of the game shown
	// was (zero before).
	series int
	note   string
	endAt  time.Time

	sshCmd string // how the client connects, for the PGN's command
	keyFP  string // the SSH key's fingerprint ("": a guest)
	handle string // the account's handle: spectators chat under it
	// known is whether handle is known: a guest's, or the account's lookup
	// has answered. No analysis is asked for or shown before.
	known bool
	// following is the game to follow once the account's lookup answers.
	following string
	input     textinput.Model
	posting   bool // a chat line is being written
	chat      []chat.Line
}

// needsHandle answers a spectator who asks to chat without a handle.
const needsHandle = "chatting needs a handle: connect once with play (and an SSH key) to choose one"

func newSpectatorModel(p *server.Games, r *lipgloss.Renderer, key gossh.PublicKey, w, h int) *spectatorModel {
	in := textinput.New()
	in.CharLimit = chat.MaxLen
	in.Prompt = "say: "
	m := &spectatorModel{p: p, st: sessionStyles(r), w: w, h: h, life: &lifetime{}, input: in}
	if key != nil {
		m.keyFP = gossh.FingerprintSHA256(key)
	}
	m.known = m.keyFP == ""
	return m
}

// release ends the session's watches (the server calls it at the end).
func (m *spectatorModel) release() { m.life.end() }

// Init lists the games and looks up the spectator's handle, if any.
func (m *spectatorModel) Init() tea.Cmd {
	if m.keyFP == "" {
		return m.refresh()
	}
	return tea.Batch(m.refresh(), lookUpAccount(m.p.Store, m.keyFP))
}

func (m *spectatorModel) refresh() tea.Cmd {
	m.games, m.boards = topBoardsFirst(m.p.Hub.Games(), m.p.Arenas)
	m.sel = min(m.sel, max(len(m.games)-1, 0))
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return gamesTickMsg{} })
}

// delay is how far behind the game u is shown: Play.Delay, or by
// play.SpectatorDelay's rule (rated games behind) when it is play.AutoDelay.
func (m *spectatorModel) delay(u play.Update) time.Duration {
	return play.SpectatorDelay(u.Players, u.Game.TimeControl, m.p.Delay)
}

// spectatorMsgs are the session's own messages, told from those of a
// review open over it.
var spectatorMsgs = screenMsgsOf(sshd.ClosingMsg(""), gamesTickMsg{}, clockTickMsg{}, gameUpdateMsg{}, shownMsg{}, analysisMsg{}, accountMsg{})

func (m *spectatorModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
	}
	if cmd, taken := m.review.update(msg, spectatorMsgs); taken {
		return m, cmd
	}
	switch msg := msg.(type) {
	case gamesTickMsg:
		if m.gameID == "" {
			return m, m.refresh()
		}
	case accountMsg:
		// A failed lookup leaves the handle unknown: no analysis.
		m.known = msg.err == nil
		if msg.found {
			m.handle = msg.handle
		}
		if msg.chat && m.gameID != "" { // the lookup of a c: the chat opens now
			if m.handle == "" {
				m.status = needsHandle
			} else {
				m.input.Focus()
			}
		}
		if id := m.following; id != "" && m.gameID == "" {
			m.following = ""
			return m, m.follow(id)
		}
	case clockTickMsg:
		if cmd := m.toRematch(); cmd != nil {
			return m, cmd // the rematch's screen ticks on its own
		}
		if m.gameID != "" && m.p.Chats != nil {
			m.chat = m.p.Chats.Room(m.gameID).Lines(false, chatRows)
		}
		if m.gameID != "" {
			return m, tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return clockTickMsg{} })
		}
	case gameUpdateMsg:
		if msg.From != m.updates || !msg.OK {
			return m, nil
		}
		u, from := msg.Value, msg.From
		show := func(time.Time) tea.Msg { return shownMsg{from: from, u: u} }
		next := livecmd.Recv(m.updates)
		if u.Over() {
			next = nil // the channel closes after the last update
		}
		if m.shown == nil && m.first == nil {
			m.first, m.firstDue = &u, time.Now().Add(m.delay(u))
		}
		return m, tea.Batch(tea.Tick(max(m.delay(u), time.Millisecond), show), next)
	case shownMsg:
		if msg.from != m.updates {
			return m, nil
		}
		u := msg.u
		m.first = nil
		if u.Over() && m.endAt.IsZero() {
			m.endAt = time.Now()
		}
		m.shown, m.players = &u, u.Players
		m.shownKey = analysis.Key(u.Replayed.Game)
		if m.analysed != nil && m.analysed.Key() != m.shownKey {
			m.analysed = nil // the analysis of the position before: never beside this one
		}
		if m.analysable() && !u.Over() {
			m.p.Analysis.Analyse(m.gameID, u.Replayed.Game)
		}
	case analysisMsg:
		if msg.From != m.results || !msg.OK {
			return m, nil
		}
		// A result is shown only beside the position it is of.
		if r := msg.Value; m.analysable() && m.shown != nil && r.Key() == m.shownKey {
			m.analysed = &r
		}
		return m, livecmd.Recv(m.results)
	case chatPostedMsg:
		m.posting = false
		if msg.err != nil {
			m.status = msg.err.Error()
		} else {
			m.status = ""
			m.input.Reset()
			m.input.Blur()
		}
		if m.gameID != "" && m.p.Chats != nil {
			m.chat = m.p.Chats.Room(m.gameID).Lines(false, chatRows)
		}
	case sshd.ClosingMsg:
		m.release()
		m.review.close()
		m.status = "Server shutting down: " + string(msg)
		return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *spectatorModel) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.input.Focused() {
		switch k.Type {
		case tea.KeyEsc:
			m.input.Blur()
			m.input.Reset()
		case tea.KeyEnter:
			if m.posting {
				return m, nil
			}
			// Kept in the store before it is acknowledged: written off the
			// screen's goroutine.
			m.posting = true
			room, handle, text := m.p.Chats.Room(m.gameID), m.handle, m.input.Value()
			return m, func() tea.Msg { return chatPostedMsg{room.Post(handle, true, text, time.Now())} }
		default:
			cmd, note := typeInto(&m.input, k)
			if note != "" {
				m.status = note
			}
			return m, cmd
		}
		return m, nil
	}
	switch k.String() {
	case "r":
		if m.shown != nil && m.shown.Over() {
			cmd, err := m.review.open(m.p, m.st, m.shown.Ended, nil, chess.White, m.life, pgnCommand(m.sshCmd, m.gameID), m.w, m.h)
			if err != nil {
				m.status = err.Error()
			}
			return m, cmd
		}
	case "c":
		switch {
		case m.gameID == "" || m.p.Chats == nil:
		case m.handle == "" && m.keyFP != "":
			// A handle chosen since this session began (in a play session
			// beside it) is read first (issue 33, G8).
			return m, lookUpForChat(m.p.Store, m.keyFP)
		case m.handle == "":
			m.status = needsHandle
		default:
			m.input.Focus()
		}
	case "ctrl+c", "q":
		if m.gameID == "" || k.String() == "ctrl+c" {
			return m, tea.Quit
		}
		fallthrough
	case "esc":
		m.life.watch()
		m.gameID, m.updates, m.results, m.shown, m.analysed, m.following, m.note = "", nil, nil, nil, nil, "", ""
		return m, m.refresh()
	case "up", "k":
		m.sel = max(m.sel-1, 0)
	case "down", "j":
		m.sel = min(m.sel+1, max(len(m.games)-1, 0))
	case "enter":
		if m.gameID != "" || m.sel >= len(m.games) {
			break
		}
		m.series = 1
		if id := m.games[m.sel].ID; m.keyFP == "" || m.handle != "" {
			return m, m.follow(id)
		} else if m.following == "" {
			// Whose key this is decides the analysis: ask (again — a handle
			// may have been chosen meanwhile in a play session), then follow.
			m.following, m.known = id, false
			return m, lookUpAccount(m.p.Store, m.keyFP)
		}
	}
	return m, nil
}

// rematchPause is how long a spectator sees a game's end before the
// screen moves to its rematch: shown behind, the end and the rematch's
// start come at once.
const rematchPause = 3 * time.Second

// toRematch moves the screen to the rematch of the finished game shown
// once its players begin it (lobby.IsRematch), as lichess moves its
// spectators, saying so — the end seen first for rematchPause; not while
// the review is open over the game (it moves at the first tick after the
// review closes).
func (m *spectatorModel) toRematch() tea.Cmd {
	if m.shown == nil || !m.shown.Over() || m.review.isOpen() || time.Since(m.endAt) < rematchPause {
		return nil
	}
	of := m.shown.GameRecord
	id, ok := m.p.Hub.GameOf(of.Players.White)
	if !ok || id == of.ID {
		return nil
	}
	for _, g := range m.p.Hub.Games() {
		if g.ID == id && lobby.IsRematch(of, g) {
			m.series = max(m.series, 1) + 1
			cmd := m.watch(id, g.Players)
			m.note = fmt.Sprintf("rematch: %s–%s, game %d", termtext.SafeLine(g.Players.White), termtext.SafeLine(g.Players.Black), m.series)
			return cmd
		}
	}
	return nil
}

// analysable tells whether this session may see the analysis of the game
// it follows: the server has a pool, the session knows whose key it is,
// and that account is not one of the game's players (play.Players.Plays:
// no analysis of one's own game in progress, from any session).
func (m *spectatorModel) analysable() bool {
	return m.p.Analysis != nil && m.known && !m.players.Plays(m.handle)
}

// follow watches game id of the list, with the pool's analysis of it if
// this session may see it.
func (m *spectatorModel) follow(id string) tea.Cmd {
	var players play.Players
	for _, g := range m.games {
		if g.ID == id {
			players = g.Players
		}
	}
	return m.watch(id, players)
}

// watch watches game id between players (which decide whether the
// session may see the analysis), as follow does.
func (m *spectatorModel) watch(id string, players play.Players) tea.Cmd {
	updates, stop, err := m.p.Hub.Watch(id)
	if err != nil {
		m.status = err.Error()
		return nil
	}
	m.players = players
	stops := []func(){stop}
	cmds := []tea.Cmd{livecmd.Recv(updates), tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return clockTickMsg{} })}
	m.results = nil
	if m.analysable() {
		results, stopAnalysis := m.p.Analysis.Watch(id)
		stops = append(stops, stopAnalysis)
		m.results = results
		cmds = append(cmds, livecmd.Recv(results))
	}
	m.life.watch(stops...)
	m.gameID, m.updates, m.shown, m.analysed, m.status, m.first, m.endAt = id, updates, nil, nil, "", nil, time.Time{}
	return tea.Batch(cmds...)
}

func (m *spectatorModel) View() string {
	if v, ok := m.review.view(m.w, m.h); ok {
		return v
	}
	var status []string
	if m.status != "" {
		status = append(status, "")
		for _, l := range wrapped(termtext.SafeLine(m.status), m.w) {
			status = append(status, m.st.Err.Render(l))
		}
	}
	switch {
	case m.gameID == "":
		return fitScreen(append(m.listView(len(status)), status...), m.w, m.h, 30, 8, "list of games", m.quitSentence())
	case m.shown == nil && m.first != nil:
		u := m.first
		lines := []string{
			m.title(m.delay(*u)),
			termtext.SafeLine(u.Players.White) + " – " + termtext.SafeLine(u.Players.Black),
			"",
		}
		why := fmt.Sprintf("Rated games are shown %v behind, so that nobody can help a player; the game appears at %s.",
			m.delay(*u), m.firstDue.Format("15:04:05"))
		for _, l := range wrapped(why, m.w) {
			lines = append(lines, m.st.Muted.Render(l))
		}
		lines = append(lines, "")
		lines = append(lines, status...)
		for _, l := range wrapHelp([]string{"esc the list of games", m.quitHelp()}, m.w) {
			lines = append(lines, m.st.Muted.Render(l))
		}
		return fitScreen(lines, m.w, m.h, 30, 8, "screen", m.quitSentence())
	case m.shown == nil:
		return fitScreen(append([]string{m.st.Muted.Render("joining the game…")}, status...), m.w, m.h, 30, 8, "screen", m.quitSentence())
	}
	return fitScreen(m.gameView(status), m.w, m.h, gameMinWidth, gameMinRows, "game screen", m.quitSentence())
}

// title is the game screen's first line: the rematch moved to, if any,
// and how far behind the game is shown.
func (m *spectatorModel) title(behind time.Duration) string {
	title := "Squall · watching"
	if m.note != "" {
		title += " · " + m.note
	}
	if behind > 0 {
		title += fmt.Sprintf(" · %v behind", behind)
	}
	return m.st.Title.Render(title)
}

// listView is the games in progress, the chosen one kept in view in the
// rows left by reserved others.
func (m *spectatorModel) listView(reserved int) []string {
	lines := []string{m.st.Title.Render("Squall · games in progress"), ""}
	help := wrapHelp([]string{"enter watch", "↑/↓ choose", m.quitHelp()}, m.w)
	if len(m.games) == 0 {
		lines = append(lines, m.st.Muted.Render("no games in progress"))
	}
	rows := len(m.games)
	if m.h > 0 {
		rows = max(m.h-len(lines)-1-len(help)-reserved, 1)
	}
	top := listWindow(m.sel, len(m.games), rows)
	for i := top; i < len(m.games) && i < top+rows; i++ {
		g := m.games[i]
		row := liveRow(g)
		if b := m.boards[g.ID]; b != "" {
			row += "  " + b
		}
		if i == m.sel {
			row = m.st.Selected.Render(row)
		}
		lines = append(lines, row)
	}
	lines = append(lines, "")
	for _, l := range help {
		lines = append(lines, m.st.Muted.Render(l))
	}
	return lines
}

// gameView is the followed game in m.h rows: the board with the clocks
// and the analysis beside it, the moves under it (the newest in view, in
// the rows left), the result, the chat and the keys. Where rows are short
// the chat gives way; the moves keep at least a row.
func (m *spectatorModel) gameView(status []string) []string {
	behind := m.delay(*m.shown)
	out, _ := gameRows(m.st, m.shown, behind, false, chess.NullMove, m.w, m.panel(), &m.moves, lagLines(m.p.Presence, m.shown.Players, "", 0))
	out[0] = m.title(behind)
	var end []string
	if m.shown.Over() {
		end = append(end, m.shown.End.Result.String()+m.st.Muted.Render(" · r review"))
		end = append(end, pgnLines(m.st, m.sshCmd, m.shown, m.w)...)
	}
	var tail []string
	if m.input.Focused() {
		tail = append(tail, m.input.View())
	}
	for _, l := range wrapHelp([]string{"c chat", "esc the list of games", m.quitHelp()}, m.w) {
		tail = append(tail, m.st.Muted.Render(l))
	}
	tail = append(tail, status...)
	left := m.h - len(out) - 1 - len(end) - len(tail) // 1: a row of moves
	if m.h <= 0 {
		left = 1 << 20
	}
	chat := last(chatView(m.st, m.chat, m.w), left)
	left -= len(chat)
	if left > 0 {
		out = append(out, "")
		left--
	}
	out = append(out, moveRows(m.st, m.shown, &m.moves, m.w, 1+max(left, 0))...)
	out = append(out, end...)
	out = append(out, chat...)
	return append(out, tail...)
}

// panel is the analysis of the shown position, drawn as the board and the
// rooms draw theirs.
func (m *spectatorModel) panel() []string {
	if m.p.Analysis == nil || m.shown == nil || m.shown.Over() || !m.known {
		return nil
	}
	if !m.analysable() {
		return []string{m.st.Muted.Render("no analysis of your own game while it is played")}
	}
	pos := m.shown.Replayed.Position
	v := analysisview.View{Engine: "Squall", State: "analysing", Position: pos}
	if a := m.analysed; a != nil {
		if a.Done {
			v.State = "analysed"
		}
		for _, in := range a.Lines {
			if v.Stats == nil {
				v.Stats = &analysisview.Stats{Depth: in.Depth, SelDepth: in.SelDepth, Nodes: in.Nodes, NPS: in.NPS, Time: in.Time}
			}
			v.Lines = append(v.Lines, &analysisview.Line{Score: in.Score, SAN: movelist.Line(pos, trimPV(in))})
		}
	}
	return v.Render(m.st.Analysis(), max(m.w-gameBoard.Width()-2, gameRightMin))
}

// trimPV is a line's first moves, enough for the panel.
func trimPV(in engine.Info) []chess.Move { return in.PV[:min(len(in.PV), 8)] }
