package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
)

// The profile screen: a player's ratings, results and rating history
// (profileHead, as `ssh host profile HANDLE` prints them), then their
// games newest first — the history — each openable in the review. It is
// opened from home (the session's own profile, or / for anyone's), from
// the leaderboard (enter on a row) and from the lobby (i on a seek):
// opened from another screen it goes back there (profileDoneMsg).

type (
	// profileMsg is a profile read from the store.
	profileMsg struct {
		handle string // as asked for
		viewer string // the session's key's handle ("": none)
		prof   play.Profile
		online bool
		err    error
	}
	// archivedMsg is a game of the history read from the archive, for
	// its review.
	archivedMsg struct {
		ended  *play.Ended
		played store.Played // the history's row it was opened from
		err    error
	}
	// profileDoneMsg: a profile opened from another screen was left.
	profileDoneMsg struct{}
)

// profileModel is the profile screen.
type profileModel struct {
	quitKey
	p       *server.Games
	st      styles
	w, h    int
	account string // the session's SSH key's fingerprint: its own profile
	handle  string // the profile asked for ("" until the key's is known)
	viewer  string // the key's account's handle, once known ("": none)
	prof    *play.Profile
	online  bool
	err     error
	sel     int // the chosen game of the history
	input   textinput.Model
	// life ends an open review with the session: the screen's own, or
	// the one of the screen it was opened from.
	life   *lifetime
	review reviewPane
	sshCmd string
	// within: opened from another screen, to which q goes back.
	within bool
}

// newProfileModel is handle's profile ("": the one of the key's account,
// fingerprint key). life is the session's (nil: the screen's own, ended
// by release).
func newProfileModel(p *server.Games, r *lipgloss.Renderer, life *lifetime, key, handle, sshCmd string, w, h int) *profileModel {
	in := textinput.New()
	in.Prompt = "player: "
	in.CharLimit = account.MaxHandle
	if life == nil {
		life = &lifetime{}
	}
	return &profileModel{p: p, st: sessionStyles(r), w: w, h: h, account: key, handle: handle, input: in, life: life, sshCmd: sshCmd}
}

// release ends the screen's review; the server calls it when the SSH
// session ends.
func (m *profileModel) release() { m.life.end() }

func (m *profileModel) Init() tea.Cmd {
	switch {
	case m.handle != "":
		return m.load()
	case m.account != "":
		return lookUpAccount(m.p.Store, m.account)
	}
	return m.input.Focus()
}

// load reads the profile asked for, and the handle of the session's key
// (whose own games are reviewed from its side), as a command (store
// reads).
func (m *profileModel) load() tea.Cmd {
	p, handle, key, viewer := m.p, m.handle, m.account, m.viewer
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		if viewer == "" && key != "" {
			a, found, err := p.Store.Account(ctx, key)
			if err != nil {
				return profileMsg{handle: handle, err: err}
			}
			if found {
				viewer = a.Handle
			}
		}
		prof, err := play.PlayerProfile(ctx, p.Store, handle)
		online := err == nil && p.Presence != nil && p.Presence.Online(prof.Handle)
		return profileMsg{handle: handle, viewer: viewer, prof: prof, online: online, err: err}
	}
}

// leave is q's: back to the screen the profile was opened from, or quit.
func (m *profileModel) leave() tea.Cmd {
	if m.within {
		return func() tea.Msg { return profileDoneMsg{} }
	}
	return tea.Quit
}

// profileMsgs are the screen's own messages, told from those of a review
// open over it.
var profileMsgs = screenMsgsOf(profileMsg{}, archivedMsg{}, accountMsg{}, sshd.ClosingMsg(""))

func (m *profileModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
	}
	if cmd, taken := m.review.update(msg, profileMsgs); taken {
		return m, cmd
	}
	switch msg := msg.(type) {
	case accountMsg:
		if msg.found {
			m.handle, m.viewer = msg.handle, msg.handle
			return m, m.load()
		}
		m.err = msg.err
		return m, m.input.Focus()
	case profileMsg:
		if msg.handle != m.handle {
			return m, nil // a profile left behind
		}
		m.err = msg.err
		if msg.viewer != "" {
			m.viewer = msg.viewer
		}
		if msg.err == nil {
			m.prof, m.online, m.sel = &msg.prof, msg.online, 0
		}
	case archivedMsg:
		if msg.err != nil {
			m.err = msg.err
			return m, nil
		}
		player, from := reviewSide(msg.played, m.viewer)
		cmd, err := m.review.open(m.p, m.st, msg.ended, player, from, m.life, pgnCommand(m.sshCmd, msg.ended.ID), m.w, m.h)
		m.err = err
		return m, cmd
	case sshd.ClosingMsg:
		//lint:ignore ST1005 shown as a sentence on the screen, as the other screens' shutdown line
		m.err = fmt.Errorf("Server shutting down: %s", string(msg))
		return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *profileModel) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if k.String() == "ctrl+c" {
		return m, tea.Quit
	}
	if m.input.Focused() {
		switch k.Type {
		case tea.KeyEsc:
			m.input.Blur()
			m.input.Reset()
			if m.handle == "" {
				return m, m.leave()
			}
			return m, nil
		case tea.KeyEnter:
			if m.input.Value() == "" {
				return m, nil
			}
			m.handle, m.prof, m.err = m.input.Value(), nil, nil
			m.input.Blur()
			m.input.Reset()
			return m, m.load()
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(k)
		return m, cmd
	}
	games := 0
	if m.prof != nil {
		games = len(m.prof.Games)
	}
	switch k.String() {
	case "q", "esc":
		return m, m.leave()
	case "up", "k":
		m.sel = max(m.sel-1, 0)
	case "down", "j":
		m.sel = max(min(m.sel+1, games-1), 0)
	case "/":
		return m, m.input.Focus()
	case "r":
		if m.handle != "" {
			return m, m.load()
		}
	case "enter":
		if m.sel < games {
			return m, m.open(m.prof.Games[m.sel])
		}
	}
	return m, nil
}

// open reads game g of the history from the archive for its review, as
// a command.
func (m *profileModel) open(g store.Played) tea.Cmd {
	st := m.p.Store
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		e, err := play.ArchivedEnded(ctx, st, g.ID)
		return archivedMsg{ended: e, played: g, err: err}
	}
}

// reviewSide is the side viewer played in game g of a profile's history
// (nil for a game of others: "learn from your mistakes" steps to both
// sides'), and the side the review's board is drawn from: the viewer's in
// their own game, else the profile's player's.
func reviewSide(g store.Played, viewer string) (player *chess.Color, from chess.Color) {
	from = chess.Black
	if g.White {
		from = chess.White
	}
	switch account.Key(viewer) {
	case "":
	case account.Key(g.Handle):
		return &from, from
	case account.Key(g.Opponent):
		own := from.Other()
		return &own, own
	}
	return nil, from
}

// profileMinHeight is the fewest rows the profile is drawn in, as the
// other screens' (fewer games show, then fewer of the head's lines).
const profileMinHeight = 11

func (m *profileModel) View() string {
	if v, ok := m.review.view(m.w, m.h); ok {
		return v
	}
	out := []string{m.st.Title.Render("Squall · profile")}
	var tail []string
	if m.input.Focused() {
		tail = append(tail, m.input.View())
	}
	quit, quitSentence := m.quitHelp(), m.quitSentence()
	if m.within {
		quit, quitSentence = "q back", "q goes back"
	}
	keys := []string{"↑/↓ choose", "enter review", "/ another player", "r refresh", quit}
	if m.prof == nil || len(m.prof.Games) == 0 {
		keys = []string{"/ another player", quit}
	}
	tail = append(tail, "")
	for _, l := range wrapHelp(keys, m.w) {
		tail = append(tail, m.st.Muted.Render(l))
	}
	if m.err != nil {
		out = append(out, m.st.Err.Render(termtext.SafeLine(m.err.Error())))
	}
	switch {
	case m.prof != nil:
		head := profileHead(*m.prof, m.online)
		out = append(out, m.st.Text.Bold(true).Render(head[0]))
		out = append(out, head[1:]...)
		out = append(out, m.history(m.h-len(out)-len(tail))...)
	case m.handle != "" && m.err == nil:
		out = append(out, m.st.Muted.Render("reading "+termtext.SafeLine(m.handle)+"'s profile…"))
	case m.handle == "" && !m.input.Focused():
		out = append(out, m.st.Muted.Render("looking up your account…"))
	}
	return fitScreen(append(out, tail...), m.w, m.h, homeMinWidth, profileMinHeight, "profile", quitSentence)
}

// history is the player's games, newest first, in rows rows (all of them
// when the size is not known), the chosen one kept in view.
func (m *profileModel) history(rows int) []string {
	games := m.prof.Games
	if len(games) == 0 {
		return nil
	}
	out := []string{"", m.st.Title.Render("Games · newest first")}
	rows -= len(out)
	if m.h <= 0 {
		rows = len(games)
	}
	rows = max(min(rows, len(games)), 1)
	top := listWindow(m.sel, len(games), rows)
	for i := top; i < top+rows; i++ {
		row := playedLine(games[i])
		if i == m.sel {
			row = m.st.Selected.Render(row)
		}
		out = append(out, row)
	}
	return out
}

// openProfile opens handle's profile over the lobby (i); its q comes back.
func (m *playModel) openProfile(handle string) tea.Cmd {
	m.prof = newProfileModel(m.p, m.st.r, m.life, m.account, handle, m.sshCmd, m.w, m.h)
	m.prof.within = true
	return m.prof.Init()
}

// updateProfile gives msg to the profile open over the lobby, unless it
// is one of the session's own (playMsgs); taken is false when the session
// handles msg itself. The profile closes when the session leaves the
// lobby (a seek of the player's accepted), with its review.
func (m *playModel) updateProfile(msg tea.Msg) (cmd tea.Cmd, taken bool) {
	if m.prof == nil {
		return nil, false
	}
	if _, done := msg.(profileDoneMsg); done || m.screen != inLobby {
		m.prof.review.close()
		m.prof = nil
		return nil, done
	}
	if playMsgs.own(msg) {
		return nil, false
	}
	_, cmd = m.prof.Update(msg)
	return cmd, true
}
