package serve

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/livecmd"
)

// actionTimeout bounds one store write behind a player's action.
const actionTimeout = 10 * time.Second

// playScreen is what a player's session shows.
type playScreen uint8

const (
	askHandle playScreen = iota
	inLobby
	atBoard
	inArena
)

// Messages of the play session.
type (
	lobbyTickMsg struct{}
	clockTickMsg struct{}
	// accountMsg is the account found or made for the session's key;
	// chat: looked up for a spectator who asked to chat (lookUpForChat).
	accountMsg struct {
		handle string
		found  bool
		err    error
		chat   bool
	}
	// doneMsg is the end of an action run as a command (a store write);
	// note is said on success.
	doneMsg struct {
		note string
		err  error
	}
	// lobbyInfoMsg is the lobby's slower news: the leaderboard (of
	// speed; chosen: by boardSpeed) and the player's recent games.
	lobbyInfoMsg struct {
		speed   clock.Speed
		chosen  bool
		board   []store.Standing
		ratings map[string]rating.Rating // the player's, by speed
		recent  []string
		err     error
	}
	// gameUpdateMsg is the game's next state, or (OK false) the end of
	// its updates.
	gameUpdateMsg = livecmd.Received[play.Update]
)

// playModel is one player's session: choosing a handle at the first
// connection, the lobby, and the board of their game. Everything that
// writes to the store runs as a command, never in Update.
type playModel struct {
	quitKey
	p       *server.Games
	st      styles
	w, h    int
	account string // the SSH key's fingerprint, which names the account
	handle  string
	screen  playScreen

	input  textinput.Model
	status string
	isErr  bool

	seeks []lobby.Seek
	sel   int
	// filter is the speed of the seeks listed; hidden, how many of
	// others' open seeks it leaves out; ratings, the player's by speed
	// (which seeks' ranges admit them); challenges, the player's own
	// challenges last listed (one gone with no game was declined).
	filter     speedFilter
	hidden     int
	ratings    map[string]rating.Rating
	challenges map[string]lobby.Seek
	vanished   []lobby.Seek
	// prompt is what the lobby's input line is for: "seek" or "squall".
	prompt string
	live   []store.GameRecord // games in progress
	board  []store.Standing
	recent []string
	speed  clock.Speed // the leaderboard's
	// chooseSpeed: the leaderboard's speed is boardSpeed's to choose (as
	// the lobby opens and the filter changes) until l picks one.
	chooseSpeed bool

	gameID  string
	updates <-chan play.Update
	life    *lifetime
	upd     *play.Update
	moves   moveList // the game's, as the screen lists them
	chat    []chat.Line

	// review is the finished game's review while open.
	review reviewPane
	// prof is a player's profile open over the lobby (i).
	prof *profileModel
	// sshCmd is how the client connects ("ssh -p PORT HOST"): the end
	// screen shows the command that prints the game's PGN.
	sshCmd string
	// leaving: the player asked to leave a game in progress (ctrl+c, q),
	// and the screen asks whether they mean it. help: the game's keys and
	// commands are shown (F1, ?).
	leaving, help bool
	// rematching: the player asked for the finished game's rematch, or
	// accepted it, and the screen moves to the new game as it starts;
	// rematches are the requests of the game shown (rematch.go).
	rematching bool
	rematches  []lobby.Seek
	// bell is the session's bell and its setting (shared with the home
	// screen), lowAbove and lowRung the low-time bell's state in the game
	// shown (playbell.go).
	bell              *sessionBell
	lowAbove, lowRung bool
	// arena is the arena the player joined here ("" for none): after a
	// game they come back to it. arenas are the arenas listed, arenaSel
	// the one shown, arenaState its standings (playarena.go); openArenas:
	// the session opens on them (home's a).
	arena  string
	arenas []arena.Definition
	// pausedIn are the arenas under way the player is paused in, and
	// why, as last looked (lookPaused): the lobby and the game screen
	// say so in a line of their own (pausedLine).
	pausedIn   []play.Paused
	arenaSel   int
	arenaState *play.ArenaState
	openArenas bool
	// owner: the session's key is an owner's (sshd.Owner), who may make
	// arenas.
	owner bool
	// lag is the session's SSH round trip as last measured (sshd.LagMsg;
	// 0: not yet), shown under the player's clock (lag.go).
	lag time.Duration
	// initial is the challenge `ssh host challenge HANDLE CONTROL …`
	// asked for, made once the lobby opens; club, the notes of the games
	// the players the player follows begin (club.go).
	initial string
	club    clubNotes
	// clubTicks counts the game screen's clock ticks: the club's notes
	// are looked at every fifth (a second).
	clubTicks int
	// title is the terminal's title as last set (playtitle.go).
	title string
}

func newPlayModel(p *server.Games, r *lipgloss.Renderer, key gossh.PublicKey, w, h int) (*playModel, error) {
	if key == nil {
		return nil, errors.New("playing needs an SSH key (guests may watch rooms)")
	}
	in := textinput.New()
	in.CharLimit = 4 + chat.MaxLen // "say " and a chat line
	in.Focus()
	return &playModel{p: p, st: sessionStyles(r), w: w, h: h, account: gossh.FingerprintSHA256(key), input: in, life: &lifetime{lobby: p.Lobby, presence: p.Presence}, bell: &sessionBell{}}, nil
}

// Init looks up the session's account.
func (m *playModel) Init() tea.Cmd { return lookUpAccount(m.p.Store, m.account) }

// lookUpAccount finds the account of an SSH key's fingerprint, as a
// command (a store read).
func lookUpAccount(st *store.Store, key string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		a, found, err := st.Account(ctx, key)
		return accountMsg{handle: a.Handle, found: found, err: err}
	}
}

// lookUpForChat is lookUpAccount for a spectator who asked to chat
// without a handle: one chosen since the session began, in a play session
// beside it, is found now (issue 33, G8: chat said "connect once with
// play" until the spectator reconnected).
func lookUpForChat(st *store.Store, key string) tea.Cmd {
	look := lookUpAccount(st, key)
	return func() tea.Msg {
		msg := look().(accountMsg)
		msg.chat = true
		return msg
	}
}

// playMsgs are the session's own messages, told from those of a review
// or a profile open over it.
var playMsgs = screenMsgsOf(clockTickMsg{}, lobbyTickMsg{}, gameUpdateMsg{}, doneMsg{}, lobbyInfoMsg{}, accountMsg{}, sshd.ClosingMsg(""), sshd.LagMsg(0), followingMsg{})

// release ends the session's lifetime (its watch of a game, its review,
// its seeks and presence); the server calls it when the SSH session ends,
// however the program ended.
func (m *playModel) release() { m.life.end() }

func (m *playModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
	}
	if cmd, taken := m.review.update(msg, playMsgs); taken {
		return m, cmd
	}
	if cmd, taken := m.updateProfile(msg); taken {
		return m, cmd
	}
	switch msg := msg.(type) {
	case accountMsg:
		switch {
		case msg.err != nil:
			m.say(msg.err)
		case msg.found:
			m.handle = msg.handle
			m.life.player(msg.handle)
			m.status = "welcome, " + msg.handle
			if m.openArenas {
				return m, m.toArena()
			}
			cmd := m.toLobby()
			if m.initial != "" && m.screen == inLobby {
				cmd = tea.Batch(cmd, m.challenge(m.initial))
			}
			m.initial = ""
			return m, cmd
		default:
			m.say(nil)
		}
	case doneMsg:
		if m.screen == atBoard && m.upd != nil && m.upd.Over() {
			if msg.err != nil {
				m.say(msg.err) // a rematch refused
			}
			return m, nil // else the result stays on the status line
		}
		m.say(msg.err)
		if msg.err == nil && msg.note != "" {
			m.status = msg.note
		}
		if m.screen == inLobby {
			return m, m.refresh()
		}
	case followingMsg:
		if msg.err == nil {
			m.club.setFollowing(msg.list)
		}
	case lobbyInfoMsg:
		if msg.err != nil {
			m.say(msg.err)
		}
		if msg.chosen && m.chooseSpeed {
			m.speed = msg.speed
		}
		if msg.err == nil && msg.speed == m.speed {
			m.board = msg.board
		}
		m.recent = msg.recent
		if msg.ratings != nil {
			m.ratings = msg.ratings
		}
	case lobbyTickMsg:
		if m.screen == inArena {
			return m, tea.Batch(m.arenaRefresh(), tea.Tick(time.Second, func(time.Time) tea.Msg { return lobbyTickMsg{} }))
		}
		if m.screen == inLobby {
			return m, tea.Batch(m.refresh(), tea.Tick(time.Second, func(time.Time) tea.Msg { return lobbyTickMsg{} }))
		}
	case clockTickMsg:
		if m.screen == atBoard && m.p.Chats != nil {
			m.chat = m.p.Chats.Room(m.gameID).Lines(true, chatRows)
		}
		if m.clubTicks++; m.screen == atBoard && m.clubTicks%5 == 0 {
			m.club.look(m.p, m.handle) // once a second, as the lobby looks
			m.lookPaused()
		}
		if m.screen == atBoard && m.upd != nil && m.upd.Over() {
			if cmd := m.rematchTick(); cmd != nil {
				return m, cmd // the new game's screen ticks on its own
			}
		}
		if m.screen == atBoard {
			return m, tea.Batch(m.lowTimeBell(time.Now()), tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return clockTickMsg{} }))
		}
	case gameUpdateMsg:
		if msg.From != m.updates {
			return m, nil // a game left behind
		}
		if !msg.OK {
			m.updates = nil
			return m, nil
		}
		u := msg.Value
		if u.Arena != "" && m.arena == "" && m.p.Arenas != nil {
			// The game of an arena the player joined in another session
			// (their server went, and they came back here): they are in
			// it here too — back to it after the game, paused as they leave.
			m.arena = u.Arena
			m.life.inArena(m.p.Arenas, u.Arena)
		}
		bell := tea.Batch(m.moveBell(m.upd, u), m.retitle(gameTitle(u, m.handle)))
		m.upd = &u
		if u.Over() {
			m.leaving = false // nothing to leave now: the question goes
			m.status, m.isErr = u.End.Result.String(), false
			if e := u.Ended; e != nil && e.After[0].Rating != 0 {
				m.status = u.End.Result.String() + " · " + ratingNote(e)
			}
			return m, bell
		}
		return m, tea.Batch(bell, livecmd.Recv(m.updates))
	case sshd.LagMsg:
		m.lag = time.Duration(msg)
		if m.handle != "" && m.p.Presence != nil {
			m.p.Presence.SetLag(m.handle, m.lag) // for the opponent's screen, on any server
		}
	case sshd.ClosingMsg:
		m.release()
		m.review.close()
		m.status, m.isErr = "Server shutting down: "+string(msg), true
		return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
	case tea.KeyMsg:
		return m.key(msg)
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

// action runs do (a store write behind it) as a command.
func action(do func(ctx context.Context) (string, error)) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		note, err := do(ctx)
		return doneMsg{note: note, err: err}
	}
}

func (m *playModel) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.leaving {
		return m, m.leaveKey(k)
	}
	if k.String() == "ctrl+c" {
		if m.inGame() {
			m.leaving = true // a game in progress is not left by accident
			return m, nil
		}
		return m, tea.Quit
	}
	switch m.screen {
	case askHandle:
		if k.Type == tea.KeyEnter {
			handle, st, key := strings.TrimSpace(m.input.Value()), m.p.Store, m.account
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
	case inArena:
		return m.arenaKey(k)
	}
	return m, m.typeKey(k)
}

func (m *playModel) View() string {
	if v, ok := m.review.view(m.w, m.h); ok {
		return v
	}
	if m.prof != nil && m.screen == inLobby {
		return m.prof.View()
	}
	if m.screen == atBoard {
		return fitScreen(m.boardView(), m.w, m.h, gameMinWidth, gameMinRows, "game screen", "q leaves")
	}
	var status []string
	if m.status != "" {
		s := m.st.Muted
		if m.isErr {
			s = m.st.Err
		}
		status = append(status, "")
		for _, l := range wrapped(termtext.SafeLine(m.status), m.w) {
			status = append(status, s.Render(l))
		}
	}
	var lines []string
	switch m.screen {
	case askHandle:
		lines = []string{m.st.Title.Render("Squall · play"), ""}
		lines = append(lines, wrapped("Welcome. Choose the handle others will know you by:", m.w)...)
		lines = append(lines, wrapped("2 to 20 letters, digits, _ and -, beginning with a letter.", m.w)...)
		lines = append(lines, "", m.input.View())
	case inLobby:
		lines = m.lobbyView(len(status))
	case inArena:
		lines = m.arenaView(len(status))
	}
	return fitScreen(append(lines, status...), m.w, m.h, 30, 8, "play screen", "ctrl+c quits")
}
