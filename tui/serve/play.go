package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/reviewview"
	"github.com/squall-chess/squall/tui/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// Play connects the SSH server to games between people (`ssh -t host
// play`): the store of accounts, the lobby and the hub. Nil in Config: the
// server has rooms only.
type Play struct {
	Store *store.Store
	Lobby *lobby.Lobby
	Hub   *play.Hub
	// Pool analyses the games spectators watch (`ssh -t host watch`);
	// nil: spectators see no analysis.
	Pool *analysis.Pool
	// Delay is how far behind the game spectators see it (a broadcast
	// delay, so that no one relays the analysis to a player in time).
	Delay time.Duration
	// Chats are the games' chats (nil: no chat).
	Chats *chat.Rooms
	// Seats let a player sit against Squall from the lobby (nil: not
	// offered).
	Seats *Seats
	// Presence knows who is connected, for claims against a player who
	// left (nil: no claims).
	Presence *Presence
	// NewEngine opens the engine of a finished game's review (nil: no
	// review); the session closes it when the review ends.
	NewEngine func() (engine.Analyzer, error)
	// Reviews bounds the reviews running at once: each holds a slot of
	// the channel while open (nil: no review).
	Reviews chan struct{}
}

// reviewLimits are a reviewed position's search: short, as the board's
// review view has it, since a reviewer waits for the whole game.
var reviewLimits = engine.Limits{MoveTime: 200 * time.Millisecond}

// chatRows is how many chat lines a game screen shows.
const chatRows = 5

// chatView draws a game's last chat lines, each made safe for the
// terminal (the chat refuses control bytes, and the sanitiser is the
// last word anyway).
func chatView(st styles, lines []chat.Line, width int) []string {
	var out []string
	for _, l := range lines {
		who := termtext.SafeLine(l.Handle)
		if l.Spectator {
			who += " (watching)"
		}
		out = append(out, termtext.Cut(st.dim.Render(who+": ")+termtext.SafeLine(l.Text), max(width, 20)))
	}
	return out
}

// actionTimeout bounds one store write behind a player's action.
const actionTimeout = 10 * time.Second

// playScreen is what a player's session shows.
type playScreen uint8

const (
	askHandle playScreen = iota
	inLobby
	atBoard
)

// Messages of the play session.
type (
	lobbyTickMsg struct{}
	clockTickMsg struct{}
	// accountMsg is the account found or made for the session's key.
	accountMsg struct {
		handle string
		found  bool
		err    error
	}
	// doneMsg is the end of an action run as a command (a store write);
	// note is said on success.
	doneMsg struct {
		note string
		err  error
	}
	// lobbyInfoMsg is the lobby's slower news: the leaderboard and the
	// player's recent games.
	lobbyInfoMsg struct {
		board  []store.Standing
		recent []string
		err    error
	}
	gameUpdateMsg struct {
		from <-chan play.Update
		u    play.Update
		ok   bool
	}
)

// playModel is one player's session: choosing a handle at the first
// connection, the lobby, and the board of their game. Everything that
// writes to the store runs as a command, never in Update.
type playModel struct {
	p      *Play
	st     styles
	w, h   int
	key    string // the SSH key's fingerprint: the account
	handle string
	screen playScreen

	input  textinput.Model
	status string
	isErr  bool

	seeks []lobby.Seek
	sel   int
	// prompt is what the lobby's input line is for: "seek" or "squall".
	prompt string
	board  []store.Standing
	recent []string
	speed  game.Speed // the leaderboard's

	gameID  string
	updates <-chan play.Update
	watch   *gameWatch
	upd     *play.Update
	updAt   time.Time // when upd arrived: the running clock counts from it
	chat    []chat.Line

	// review is the finished game's review view while open (its search
	// and engine end with it: gameWatch.review).
	review view.View
}

func newPlayModel(p *Play, r *lipgloss.Renderer, key gossh.PublicKey, w, h int) (*playModel, error) {
	if key == nil {
		return nil, errors.New("playing needs an SSH key (guests may watch rooms)")
	}
	in := textinput.New()
	in.CharLimit = 4 + chat.MaxLen // "say " and a chat line
	in.Focus()
	th, _ := themes.ByName(themes.Default)
	if colourless(r) {
		th = themes.Monochrome()
	}
	return &playModel{p: p, st: newStyles(r, th, boardview.Glyphs), w: w, h: h, key: gossh.FingerprintSHA256(key), input: in, watch: &gameWatch{lobby: p.Lobby, presence: p.Presence}}, nil
}

// Init looks up the session's account.
func (m *playModel) Init() tea.Cmd {
	st, key := m.p.Store, m.key
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		a, found, err := st.Account(ctx, key)
		return accountMsg{handle: a.Handle, found: found, err: err}
	}
}

// release ends the session's watch of its game; the server calls it when
// the SSH session ends, however the program ended.
func (m *playModel) release() { m.watch.release() }

// gameWatch is the session's watch of a game: the one piece of the play
// session another goroutine (the server's, at the session's end) touches.
type gameWatch struct {
	mu       sync.Mutex
	stop     func()
	closed   bool
	lobby    *lobby.Lobby
	presence *Presence
	handle   string // whose seeks go, and who leaves, when the session does
	review   func() // ends an open review (its search and engine)
}

// setReview makes end the open review's end; nil: none open. After
// release, end runs at once.
func (w *gameWatch) setReview(end func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.review = end
	if w.closed && end != nil {
		end()
		w.review = nil
	}
}

// endReview ends the open review, if any, once.
func (w *gameWatch) endReview() {
	w.mu.Lock()
	end := w.review
	w.review = nil
	w.mu.Unlock()
	if end != nil {
		end()
	}
}

// player notes the session's handle: present now, and its seeks withdrawn
// and its presence ended by release.
func (w *gameWatch) player(handle string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.handle != "" {
		return
	}
	w.handle = handle
	if w.presence != nil {
		w.presence.Join(handle)
	}
}

// set makes stops the watch's end, ending the ones before; after release,
// it ends them at once.
func (w *gameWatch) set(stops ...func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil {
		w.stop()
	}
	all := func() {
		for _, f := range stops {
			f()
		}
	}
	w.stop = all
	if w.closed {
		all()
		w.stop = nil
	}
}

// release ends the watch (and an open review) for good, and withdraws the
// player's seeks.
func (w *gameWatch) release() {
	w.endReview()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.handle != "" && !w.closed {
		if w.lobby != nil {
			w.lobby.Leave(w.handle)
		}
		if w.presence != nil {
			w.presence.Leave(w.handle)
		}
	}
	w.closed = true
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
}

func (m *playModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.review != nil {
		switch msg := msg.(type) {
		case view.CloseMsg:
			m.closeReview()
			return m, nil
		case closingMsg:
			m.closeReview()
		case tea.KeyMsg:
			if msg.String() == "ctrl+c" {
				m.closeReview()
				return m, tea.Quit
			}
			var cmd tea.Cmd
			m.review, cmd = m.review.Update(msg)
			return m, cmd
		case tea.WindowSizeMsg:
			m.w, m.h = msg.Width, msg.Height
			var cmd tea.Cmd
			m.review, cmd = m.review.Update(msg)
			return m, cmd
		case clockTickMsg, lobbyTickMsg, gameUpdateMsg, doneMsg, lobbyInfoMsg, accountMsg:
			// the player's own messages: handled below
		default:
			var cmd tea.Cmd
			m.review, cmd = m.review.Update(msg)
			return m, cmd
		}
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case accountMsg:
		switch {
		case msg.err != nil:
			m.say(msg.err)
		case msg.found:
			m.handle = msg.handle
			m.watch.player(msg.handle)
			m.status = "welcome, " + msg.handle
			return m, m.toLobby()
		default:
			m.say(nil)
		}
	case doneMsg:
		if m.screen == atBoard && m.upd != nil && m.upd.Over {
			return m, nil // the result stays on the status line
		}
		m.say(msg.err)
		if msg.err == nil && msg.note != "" {
			m.status = msg.note
		}
		if m.screen == inLobby {
			return m, m.refresh()
		}
	case lobbyInfoMsg:
		if msg.err != nil {
			m.say(msg.err)
		}
		m.board, m.recent = msg.board, msg.recent
	case lobbyTickMsg:
		if m.screen == inLobby {
			return m, tea.Batch(m.refresh(), tea.Tick(time.Second, func(time.Time) tea.Msg { return lobbyTickMsg{} }))
		}
	case clockTickMsg:
		if m.screen == atBoard && m.p.Chats != nil {
			m.chat = m.p.Chats.Room(m.gameID).Lines(true, chatRows)
		}
		if m.screen == atBoard {
			return m, tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return clockTickMsg{} })
		}
	case gameUpdateMsg:
		if msg.from != m.updates {
			return m, nil // a game left behind
		}
		if !msg.ok {
			m.updates = nil
			return m, nil
		}
		u := msg.u
		m.upd, m.updAt = &u, time.Now()
		if u.Over {
			back := " · r review · enter: back to the lobby"
			m.status, m.isErr = u.Result.String()+back, false
			if e := u.Ended; e != nil && e.After[0].Rating != 0 {
				m.status = u.Result.String() + " · " + ratingNote(e) + back
			}
			return m, nil
		}
		return m, waitUpdate(m.updates)
	case closingMsg:
		m.release()
		m.status, m.isErr = "Server shutting down: "+string(msg), true
		return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
	case tea.KeyMsg:
		return m.key_(msg)
	}
	return m, nil
}

// say shows err, or clears the status line for nil.
func (m *playModel) say(err error) {
	m.status, m.isErr = "", false
	if err != nil {
		m.status, m.isErr = err.Error(), true
	}
}

// toLobby shows the lobby, or the player's game if one is in progress (a
// player who comes back finds it as it was).
func (m *playModel) toLobby() tea.Cmd {
	if id, ok := m.p.Hub.GameOf(m.handle); ok {
		return m.toBoard(id)
	}
	m.screen = inLobby
	m.input.Reset()
	m.input.Placeholder = "3+2 (white|black), then enter"
	m.input.Prompt = "time control: "
	m.input.Blur()
	m.speed = game.Blitz
	return tea.Batch(m.refresh(), m.lobbyInfo(), tea.Tick(time.Second, func(time.Time) tea.Msg { return lobbyTickMsg{} }))
}

// lobbyInfo reads the leaderboard of the chosen speed and the player's
// recent games.
func (m *playModel) lobbyInfo() tea.Cmd {
	st, handle, speed := m.p.Store, m.handle, m.speed.String()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		board, err := st.Leaderboard(ctx, speed, 5)
		if err != nil {
			return lobbyInfoMsg{err: err}
		}
		recent, err := st.Recent(ctx, handle)
		return lobbyInfoMsg{board: board, recent: recent, err: err}
	}
}

// toBoard follows game id.
func (m *playModel) toBoard(id string) tea.Cmd {
	updates, stop, err := m.p.Hub.Watch(id)
	if err != nil {
		m.say(err)
		return nil
	}
	m.watch.set(stop)
	m.screen, m.gameID, m.updates, m.upd = atBoard, id, updates, nil
	m.status = ""
	m.input.Reset()
	m.input.Placeholder = "a move (e4, Nf3), resign, draw, takeback, abort, say TEXT, mute"
	m.input.Prompt = "move> "
	m.input.Focus()
	return tea.Batch(waitUpdate(updates), tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return clockTickMsg{} }))
}

// refresh reads the lobby's seeks, and moves to the board when a seek of
// the player's was accepted.
func (m *playModel) refresh() tea.Cmd {
	if id, ok := m.p.Hub.GameOf(m.handle); ok {
		return m.toBoard(id)
	}
	m.seeks = m.p.Lobby.Seeks(m.handle)
	m.sel = min(m.sel, max(len(m.seeks)-1, 0))
	return nil
}

func waitUpdate(ch <-chan play.Update) tea.Cmd {
	return func() tea.Msg {
		u, ok := <-ch
		return gameUpdateMsg{from: ch, u: u, ok: ok}
	}
}

// action runs do (a store write behind it) as a command.
func action(do func(ctx context.Context) (string, error)) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		note, err := do(ctx)
		return doneMsg{note: note, err: err}
	}
}

func (m *playModel) key_(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if k.String() == "ctrl+c" {
		return m, tea.Quit
	}
	switch m.screen {
	case askHandle:
		if k.Type == tea.KeyEnter {
			handle, st, key := strings.TrimSpace(m.input.Value()), m.p.Store, m.key
			m.input.Reset()
			return m, func() tea.Msg {
				ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
				defer cancel()
				a, err := st.CreateAccount(ctx, key, handle, time.Now())
				return accountMsg{handle: a.Handle, found: err == nil, err: err}
			}
		}
	case inLobby:
		return m.lobbyKey(k)
	case atBoard:
		return m.boardKey(k)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return m, cmd
}

func (m *playModel) lobbyKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.input.Focused() {
		switch k.Type {
		case tea.KeyEsc:
			m.input.Blur()
			m.input.Reset()
			return m, nil
		case tea.KeyEnter:
			switch m.prompt {
			case "squall":
				return m, m.sitSquall(m.input.Value())
			case "challenge":
				return m, m.challenge(m.input.Value())
			}
			return m, m.seek(m.input.Value(), "")
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(k)
		return m, cmd
	}
	switch k.String() {
	case "q":
		return m, tea.Quit
	case "n":
		m.prompt, m.input.Prompt, m.input.Placeholder = "seek", "time control: ", "3+2 (white|black), then enter"
		m.input.Focus()
	case "l":
		m.speed = (m.speed + 1) % (game.Classical + 1)
		return m, m.lobbyInfo()
	case "c":
		m.prompt, m.input.Prompt, m.input.Placeholder = "challenge", "challenge: ", "a handle and a time control, e.g. bob 3+2 (white|black)"
		m.input.Focus()
	case "s":
		if m.p.Seats == nil {
			m.say(errors.New("this server offers no games against Squall"))
			break
		}
		m.prompt, m.input.Prompt, m.input.Placeholder = "squall", "against Squall: ", fmt.Sprintf("level 1-%d and time control, e.g. 4 5+3 (white|black)", len(level.All))
		m.input.Focus()
	case "up", "k":
		m.sel = max(m.sel-1, 0)
	case "down", "j":
		m.sel = min(m.sel+1, max(len(m.seeks)-1, 0))
	case "enter":
		if m.sel < len(m.seeks) {
			s, lb, handle := m.seeks[m.sel], m.p.Lobby, m.handle
			if s.Handle == handle {
				return m, action(func(context.Context) (string, error) { return "seek withdrawn", lb.Withdraw(handle, s.ID) })
			}
			return m, action(func(ctx context.Context) (string, error) {
				_, _, err := lb.Accept(ctx, handle, s.ID)
				return "", err
			})
		}
	}
	return m, nil
}

// sitSquall starts a casual game against Squall from the prompt: "LEVEL
// MINUTES+SECONDS [white|black]", the colour the player's.
func (m *playModel) sitSquall(text string) tea.Cmd {
	f := strings.Fields(text)
	var lv int
	if len(f) < 2 || len(f) > 3 {
		m.say(errors.New("type a level and a time control, e.g. 4 5+3, and optionally white or black"))
		return nil
	}
	if _, err := fmt.Sscanf(f[0], "%d", &lv); err != nil || lv < 1 || lv > len(level.All) {
		m.say(fmt.Errorf("the level is 1 to %d", len(level.All)))
		return nil
	}
	tc, err := game.ParseTimeControl(f[1])
	if err != nil {
		m.say(err)
		return nil
	}
	white := time.Now().UnixNano()%2 == 0
	if len(f) == 3 {
		switch f[2] {
		case "white", "black":
			white = f[2] == "white"
		default:
			m.say(errors.New("the colour is white or black"))
			return nil
		}
	}
	m.input.Reset()
	m.input.Blur()
	hub, seats, handle, squall := m.p.Hub, m.p.Seats, m.handle, squallHandle(lv)
	return action(func(ctx context.Context) (string, error) {
		w, b := handle, squall
		if !white {
			w, b = squall, handle
		}
		id, err := hub.Start(ctx, w, b, tc, false)
		if err != nil {
			return "", err
		}
		if err := seats.Sit(id, squall, lv); err != nil {
			hub.Abort(ctx, id, handle)
			return "", err
		}
		return "", nil
	})
}

// challenge challenges a handle from the prompt: "HANDLE MINUTES+SECONDS
// [white|black]"; only they see it and may accept it.
func (m *playModel) challenge(text string) tea.Cmd {
	to, rest, ok := strings.Cut(strings.TrimSpace(text), " ")
	if !ok || to == "" {
		m.say(errors.New("type a handle and a time control, e.g. bob 3+2"))
		return nil
	}
	return m.seek(rest, to)
}

// seek opens a rated seek from the prompt: "MINUTES+SECONDS [white|black]",
// or a challenge to the handle to.
func (m *playModel) seek(text, to string) tea.Cmd {
	f := strings.Fields(text)
	if len(f) == 0 || len(f) > 2 {
		m.say(errors.New("type a time control, e.g. 3+2, and optionally white or black"))
		return nil
	}
	tc, err := game.ParseTimeControl(f[0])
	if err != nil {
		m.say(err)
		return nil
	}
	c := lobby.Random
	if len(f) == 2 {
		switch f[1] {
		case "white":
			c = lobby.White
		case "black":
			c = lobby.Black
		default:
			m.say(errors.New("the colour is white or black"))
			return nil
		}
	}
	m.input.Reset()
	m.input.Blur()
	lb, handle := m.p.Lobby, m.handle
	return action(func(context.Context) (string, error) {
		_, err := lb.Seek(handle, tc, c, true, to)
		if to != "" {
			return "challenge sent to " + to + ": " + tc.String(), err
		}
		return "seek open: " + tc.String(), err
	})
}

func (m *playModel) boardKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	over := m.upd != nil && m.upd.Over
	if over && k.String() == "r" && m.input.Value() == "" {
		return m, m.openReview()
	}
	if over && k.Type == tea.KeyEnter && m.input.Value() == "" {
		m.watch.set()
		m.gameID, m.updates, m.chat = "", nil, nil
		return m, m.toLobby()
	}
	if k.Type != tea.KeyEnter {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(k)
		return m, cmd
	}
	text := strings.TrimSpace(m.input.Value())
	m.input.Reset()
	hub, id, handle := m.p.Hub, m.gameID, m.handle
	if said, ok := strings.CutPrefix(text, "say "); ok || text == "mute" || text == "unmute" {
		if m.p.Chats == nil {
			m.say(errors.New("this server has no chat"))
			return m, nil
		}
		room := m.p.Chats.Room(id)
		switch text {
		case "mute", "unmute":
			room.Mute(text == "mute")
			m.status, m.isErr = "spectators "+text+"d", false
		default:
			m.say(room.Post(handle, false, said, time.Now()))
		}
		m.chat = room.Lines(true, chatRows)
		return m, nil
	}
	if over {
		return m, nil
	}
	var do func(ctx context.Context) (*play.Ended, error)
	switch text {
	case "":
		return m, nil
	case "resign":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Resign(ctx, id, handle) }
	case "draw":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.OfferDraw(ctx, id, handle) }
	case "abort":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Abort(ctx, id, handle) }
	case "decline":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.DeclineDraw(ctx, id, handle) }
	case "takeback":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Takeback(ctx, id, handle) }
	case "claim", "claimdraw":
		since, ok := m.opponentGone()
		if !ok {
			m.say(errors.New("your opponent is here"))
			return m, nil
		}
		draw := text == "claimdraw"
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Claim(ctx, id, handle, since, draw) }
	default:
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Move(ctx, id, handle, text) }
	}
	return m, action(func(ctx context.Context) (string, error) {
		_, err := do(ctx) // the end, if it came, arrives as the game's last update
		return "", err
	})
}

// ratingNote says how a rated game changed both ratings.
func ratingNote(e *play.Ended) string {
	return fmt.Sprintf("ratings: White %.0f → %.0f, Black %.0f → %.0f",
		e.Before[0].Rating, e.After[0].Rating, e.Before[1].Rating, e.After[1].Rating)
}

func (m *playModel) View() string {
	if m.review != nil {
		return m.review.View(m.w, m.h)
	}
	var lines []string
	switch m.screen {
	case askHandle:
		lines = []string{m.st.title.Render("Squall · play"), "",
			"Welcome. Choose the handle others will know you by:",
			"2 to 20 letters, digits, _ and -, beginning with a letter.", "", m.input.View()}
	case inLobby:
		lines = m.lobbyView()
	case atBoard:
		lines = m.boardView()
	}
	if m.status != "" {
		s := m.st.dim
		if m.isErr {
			s = m.st.warn
		}
		lines = append(lines, "", s.Render(termtext.SafeLine(m.status)))
	}
	return strings.Join(lines, "\n")
}

func (m *playModel) lobbyView() []string {
	out := []string{m.st.title.Render("Squall · lobby") + m.st.dim.Render("  "+m.handle), ""}
	if len(m.seeks) == 0 {
		out = append(out, m.st.dim.Render("no open seeks: press n to open one"))
	}
	for i, s := range m.seeks {
		kind := "casual"
		if s.Rated {
			kind = "rated"
		}
		row := fmt.Sprintf("%-20s %6s  %-6s %s", termtext.SafeLine(s.Handle), s.TC, kind, s.Color)
		switch {
		case s.Handle == m.handle && s.To != "":
			row += "  (your challenge to " + termtext.SafeLine(s.To) + ")"
		case s.Handle == m.handle:
			row += "  (yours)"
		case s.To != "":
			row += "  (a challenge to you)"
		}
		if i == m.sel {
			row = m.st.selected.Render(row)
		}
		out = append(out, row)
	}
	out = append(out, "", m.st.title.Render("Leaderboard · "+m.speed.String())+m.st.dim.Render("  (l: another speed)"))
	if len(m.board) == 0 {
		out = append(out, m.st.dim.Render("nobody ranked yet (a rating is ranked once its deviation is below 110)"))
	}
	for i, b := range m.board {
		out = append(out, fmt.Sprintf("%2d. %-20s %4.0f", i+1, termtext.SafeLine(b.Handle), b.Rating.Rating))
	}
	if len(m.recent) > 0 {
		out = append(out, "", m.st.title.Render("Your recent games"))
		for _, r := range m.recent[:min(len(m.recent), 5)] {
			out = append(out, termtext.SafeLine(r))
		}
	}
	out = append(out, "")
	if m.input.Focused() {
		out = append(out, m.input.View())
	}
	return append(out, m.st.dim.Render("n new rated seek · c challenge · s play Squall · enter accept (or withdraw yours) · ↑/↓ choose · q quit"))
}

func (m *playModel) boardView() []string {
	if m.upd == nil {
		return []string{m.st.dim.Render("joining the game…")}
	}
	out := gameRows(m.st, m.upd, m.updAt, m.upd.Players.Black == m.handle, m.w, nil)
	out[0] = m.st.title.Render("Squall · game") + m.st.dim.Render("  "+m.upd.State.TimeControl.String()+" · "+m.handle)
	out = append(out, m.notes()...)
	out = append(out, chatView(m.st, m.chat, m.w)...)
	return append(out, m.input.View())
}

// openReview opens the finished game in review (?!, ?, ?? and the eval
// graph, as the board's review view draws it) with an engine of its own.
func (m *playModel) openReview() tea.Cmd {
	e := m.upd.Ended
	if e == nil || e.PGN == nil || m.p.NewEngine == nil || m.p.Reviews == nil {
		m.say(errors.New("no review of this game here"))
		return nil
	}
	select {
	case m.p.Reviews <- struct{}{}:
	default:
		m.say(errors.New("every review engine is busy: try again in a minute"))
		return nil
	}
	a, err := m.p.NewEngine()
	if err != nil {
		<-m.p.Reviews
		m.say(err)
		return nil
	}
	slots := m.p.Reviews
	runner := live.New(a)
	m.review = reviewview.New(view.Env{Renderer: m.st.r, Theme: m.st.theme, Runner: runner, PGN: e.PGN}, reviewview.Options{Limits: reviewLimits})
	m.watch.setReview(func() {
		runner.Close() // the review's search returns
		a.Close()
		<-slots
	})
	return tea.Batch(m.review.Init(), func() tea.Msg { return tea.WindowSizeMsg{Width: m.w, Height: m.h} })
}

// closeReview stops the review's search and closes its engine.
func (m *playModel) closeReview() {
	m.watch.endReview()
	m.review = nil
}

// opponent is the player's opponent's handle and colour.
func (m *playModel) opponent() (string, chess.Color) {
	if m.upd.Players.White == m.handle {
		return m.upd.Players.Black, chess.Black
	}
	return m.upd.Players.White, chess.White
}

// opponentGone reports since when the opponent has been disconnected.
func (m *playModel) opponentGone() (time.Time, bool) {
	if m.p.Presence == nil || m.upd == nil {
		return time.Time{}, false
	}
	opp, _ := m.opponent()
	return m.p.Presence.Gone(opp)
}

// notes are what the opponent asks (a draw, a takeback) and whether they
// left, with what the player may type.
func (m *playModel) notes() []string {
	if m.upd.Over {
		return nil
	}
	opp, c := m.opponent()
	name := termtext.SafeLine(opp)
	var out []string
	if m.upd.DrawOffer[c] {
		out = append(out, m.st.title.Render(name+" offers a draw: type draw to accept, or decline"))
	}
	if m.upd.Takeback[c] {
		out = append(out, m.st.title.Render(name+" asks to take back a move: type takeback to agree (moving declines)"))
	}
	if since, gone := m.opponentGone(); gone {
		grace := game.Grace(m.upd.State.TimeControl)
		if wait := grace - time.Since(since); wait > 0 {
			out = append(out, m.st.warn.Render(fmt.Sprintf("%s left; you may claim the game in %v", name, wait.Round(time.Second))))
		} else {
			out = append(out, m.st.warn.Render(name+" left: type claim to win, claimdraw for a draw, or wait"))
		}
	}
	return out
}

// replayed is a game update's moves replayed: the game for a search, the
// position now, the moves in SAN and the last move.
type replayed struct {
	game engine.Game
	pos  *chess.Position
	sans []string
	last chess.Move
}

func replay(u *play.Update) replayed {
	r := replayed{game: engine.Game{Start: chess.NewPosition()}, pos: chess.NewPosition()}
	var undo chess.Undo
	for _, s := range u.State.Moves {
		mv, err := r.pos.ParseUCI(s)
		if err != nil {
			break
		}
		r.sans = append(r.sans, r.pos.SAN(mv))
		r.game.Moves = append(r.game.Moves, mv)
		r.pos.MakeMove(mv, &undo)
		r.last = mv
	}
	return r
}

// gameRows draws a game: a title row, the board (from Black's side when
// flipped) with both clocks beside it — the running one counted down from
// the update's time at — and the moves; panel, if any, goes beside the
// board under the clocks (the spectators' analysis).
func gameRows(st styles, u *play.Update, at time.Time, flipped bool, width int, panel []string) []string {
	r := replay(u)
	sc := boardview.NewScene(r.pos)
	sc.Last = r.last
	sc.Flipped = flipped
	board := strings.Split(st.board.Board(sc, boardview.Size{W: 3, H: 1}), "\n")
	left := u.State.Left
	if !u.Over && len(u.State.Moves) >= clock.FirstTimedPly {
		left[r.pos.SideToMove()] = max(left[r.pos.SideToMove()]-time.Since(at), 0)
	}
	side := func(c chess.Color, name string) string {
		s := fmt.Sprintf("%s %-16s %s", c.Name(), termtext.SafeLine(name), clock.Text(left[c]))
		if !u.Over && r.pos.SideToMove() == c {
			return st.title.Render("▶ " + s)
		}
		return "  " + s
	}
	// A player's own clock is nearer them, at the board's near side.
	right := []string{side(chess.Black, u.Players.Black), "", side(chess.White, u.Players.White), ""}
	if flipped {
		right[0], right[2] = right[2], right[0]
	}
	right = append(right, panel...)
	out := []string{"", ""}
	for i := 0; i < max(len(board), len(right)); i++ {
		l, rr := strings.Repeat(" ", boardview.Size{W: 3, H: 1}.Width()), ""
		if i < len(board) {
			l = board[i]
		}
		if i < len(right) {
			rr = right[i]
		}
		out = append(out, l+"  "+rr)
	}
	return append(out, "", termtext.Cut(movetext(r.sans), max(width, 20)), "")
}

// movetext numbers SAN moves from the initial position.
func movetext(sans []string) string {
	var b strings.Builder
	for i, s := range sans {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(s + " ")
	}
	return strings.TrimSpace(b.String())
}
