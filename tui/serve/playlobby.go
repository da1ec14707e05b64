package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/termtext"
)

// toLobby shows the lobby, or the player's game if one is in progress (a
// player who comes back finds it as it was).
func (m *playModel) toLobby() tea.Cmd {
	if id, ok := m.p.Hub.GameOf(m.handle); ok {
		return m.toBoard(id)
	}
	if m.arena != "" && m.screen == atBoard {
		return m.toArena() // from an arena's game: back to the arena
	}
	m.screen = inLobby
	m.input.Reset()
	m.input.Placeholder = seekPlaceholder
	m.input.Prompt = "time control: "
	m.input.Blur()
	m.chooseSpeed = true                // the leaderboard's, by boardSpeed
	m.challenges, m.vanished = nil, nil // those before the game are no news
	return tea.Batch(m.refresh(), m.lobbyInfo(), readFollowing(m.p.Store, m.handle), m.retitle(lobbyTitle), tea.Tick(time.Second, func(time.Time) tea.Msg { return lobbyTickMsg{} }))
}

// seekPlaceholder is the seek prompt's example.
const seekPlaceholder = "3+2 (white|black) (casual) (±200), or challenge bob 3+2"

// lobbyInfo reads the leaderboard of the chosen speed (boardSpeed's
// while chooseSpeed), the player's ratings at each speed (which seeks'
// ranges admit them) and recent games.
func (m *playModel) lobbyInfo() tea.Cmd {
	st, handle, speed, choose, filter := m.p.Store, m.handle, m.speed, m.chooseSpeed, m.filter
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		if choose {
			var err error
			if speed, err = boardSpeed(ctx, st, filter); err != nil {
				return lobbyInfoMsg{err: err}
			}
		}
		board, err := st.Leaderboard(ctx, speed.String(), 5)
		if err != nil {
			return lobbyInfoMsg{err: err}
		}
		ratings := map[string]rating.Rating{}
		for sp := clock.Bullet; sp <= clock.Classical; sp++ {
			r, err := st.Rating(ctx, handle, sp.String())
			if err != nil {
				return lobbyInfoMsg{err: err}
			}
			ratings[sp.String()] = r
		}
		played, err := st.PlayedBy(ctx, handle)
		var recent []string
		for _, g := range played[:min(len(played), 5)] {
			recent = append(recent, playedLine(g))
		}
		return lobbyInfoMsg{speed: speed, chosen: choose, board: board, ratings: ratings, recent: recent, err: err}
	}
}

// refresh reads the lobby's seeks, and moves to the board when a seek of
// the player's was accepted.
func (m *playModel) refresh() tea.Cmd {
	m.lookPaused()
	if id, ok := m.p.Hub.GameOf(m.handle); ok {
		return tea.Batch(m.ring(), m.toBoard(id)) // a seek accepted
	}
	all := m.p.Lobby.Seeks(m.handle)
	m.seeks, m.hidden = lobbySeeks(all, m.handle, m.filter, m.ratings)
	m.noteDeclined()
	m.club.look(m.p, m.handle)
	m.live = m.p.Hub.Games()
	m.sel = min(m.sel, max(len(m.seeks)-1, 0))
	return m.bell.challenged(all, m.handle)
}

// noteDeclined says which of the player's challenges went with no game
// begun (their addressee declined it: a challenge is withdrawn only by its
// challenger, who is here). A challenge gone is kept one more look
// (vanished): one accepted is taken a moment before its game is listed.
func (m *playModel) noteDeclined() {
	now := map[string]lobby.Seek{}
	for _, s := range m.seeks {
		if s.Handle == m.handle && s.To != "" {
			now[s.ID] = s
		}
	}
	for _, s := range m.vanished {
		m.status, m.isErr = termtext.SafeLine(s.To)+" declined your challenge ("+s.TC.String()+")", false
	}
	m.vanished = m.vanished[:0]
	for id, s := range m.challenges {
		if _, ok := now[id]; !ok {
			m.vanished = append(m.vanished, s)
		}
	}
	m.challenges = now
}

func (m *playModel) lobbyKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.input.Focused() {
		switch k.Type {
		case tea.KeyEsc:
			m.input.Blur()
			m.input.Reset()
			return m, nil
		case tea.KeyEnter:
			m.say(nil)
			var cmd tea.Cmd
			switch m.prompt {
			case "squall":
				cmd = m.sitSquall(m.input.Value())
			case "challenge":
				cmd = m.challenge(m.input.Value())
			default:
				if rest, ok := strings.CutPrefix(strings.TrimSpace(m.input.Value()), "challenge "); ok {
					cmd = m.challenge(rest) // the seek line takes a challenge too
				} else {
					cmd = m.seek(m.input.Value(), "")
				}
			}
			if m.isErr {
				// Refused: the prompt stays open, empty, so that what is
				// typed next is read alone.
				m.input.Reset()
			}
			return m, cmd
		}
		return m, m.typeKey(k)
	}
	switch k.String() {
	case "q":
		return m, tea.Quit
	case "n":
		m.prompt, m.input.Prompt, m.input.Placeholder = "seek", "time control: ", seekPlaceholder
		m.input.Focus()
	case "f":
		m.filter = m.filter.next()
		m.sel, m.chooseSpeed = 0, true // the leaderboard follows
		return m, tea.Batch(m.refresh(), m.lobbyInfo())
	case "d":
		if m.sel < len(m.seeks) && m.seeks[m.sel].To == m.handle {
			s, lb, handle := m.seeks[m.sel], m.p.Lobby, m.handle
			return m, action(func(ctx context.Context) (string, error) {
				return "declined " + termtext.SafeLine(s.Handle) + "'s challenge", lb.Decline(ctx, handle, s.ID)
			})
		}
		m.say(errors.New("d declines a challenge to you: choose one with ↑/↓"))
	case "v":
		return m, m.club.watch(m.home, m.sshCmd, func(s string) { m.status, m.isErr = s, false })
	case "a":
		return m, m.toArena()
	case "b":
		m.toggleBell()
	case "l":
		m.speed, m.chooseSpeed = (m.speed+1)%(clock.Classical+1), false
		return m, m.lobbyInfo()
	case "c":
		m.prompt, m.input.Prompt, m.input.Placeholder = "challenge", "challenge: ", "a handle and a time control, e.g. bob 3+2 (white|black) (casual)"
		if m.sel < len(m.seeks) && m.seeks[m.sel].Handle != m.handle {
			m.input.SetValue(m.seeks[m.sel].Handle + " ") // the chosen seeker, to be challenged
			m.input.CursorEnd()
		}
		m.input.Focus()
	case "s":
		if m.p.Seats == nil {
			m.say(errors.New("this server offers no games against Squall"))
			break
		}
		m.prompt, m.input.Prompt, m.input.Placeholder = "squall", "against Squall: ", fmt.Sprintf("level 1-%d and time control, e.g. 4 5+3 (white|black)", len(level.All))
		m.input.Focus()
	case "i":
		if m.sel < len(m.seeks) {
			return m, m.openProfile(m.seeks[m.sel].Handle)
		}
		return m, m.openProfile(m.handle)
	case "up", "k":
		m.sel = max(m.sel-1, 0)
	case "down", "j":
		m.sel = min(m.sel+1, max(len(m.seeks)-1, 0))
	case "enter":
		if m.sel < len(m.seeks) {
			s, lb, handle := m.seeks[m.sel], m.p.Lobby, m.handle
			if s.Handle == handle {
				delete(m.challenges, s.ID) // withdrawn, not declined
				return m, action(func(ctx context.Context) (string, error) { return "seek withdrawn", lb.Withdraw(ctx, handle, s.ID) })
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
	tc, c, err := controlAndColour(f[1:])
	if err != nil {
		m.say(err)
		return nil
	}
	m.input.Reset()
	m.input.Blur()
	seats, handle, white := m.p.Seats, m.handle, m.p.Lobby.PlaysWhite(c)
	return action(func(ctx context.Context) (string, error) {
		_, err := seats.StartAgainstSquall(ctx, handle, lv, tc, white)
		return "", err
	})
}

// controlAndColour reads "MINUTES+SECONDS [white|black]", the words of a
// prompt after its own (a level, a handle) and before casual: the time
// control, and the colour asked for (lobby.Random if none).
func controlAndColour(words []string) (clock.TimeControl, lobby.Color, error) {
	tc, err := clock.ParseTimeControl(words[0])
	if err != nil {
		return clock.TimeControl{}, lobby.Random, err
	}
	if len(words) < 2 {
		return tc, lobby.Random, nil
	}
	switch words[1] {
	case "white":
		return tc, lobby.White, nil
	case "black":
		return tc, lobby.Black, nil
	}
	return clock.TimeControl{}, lobby.Random, errors.New("the colour is white or black")
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

// seek opens a seek from the prompt: "MINUTES+SECONDS [white|black]
// [casual] [±N]", or a challenge to the handle to. A seek is rated unless
// it says casual; a control too fast to rate (clock.CheckRated) may be
// played casual. ±N (or +-N) offers it only to players rated within N
// points of the seeker at its speed (lobby.Seek.Range).
func (m *playModel) seek(text, to string) tea.Cmd {
	f, rated, rng, err := seekWords(strings.Fields(text))
	if err != nil {
		m.say(err)
		return nil
	}
	tc, c, err := controlAndColour(f)
	if err != nil {
		m.say(err)
		return nil
	}
	m.input.Reset()
	m.input.Blur()
	lb, handle := m.p.Lobby, m.handle
	return action(func(ctx context.Context) (string, error) {
		s, err := lb.Seek(ctx, lobby.Seek{Handle: handle, TC: tc, Color: c, Rated: rated, To: to, Range: rng})
		if errors.Is(err, clock.ErrTooFastToRate) {
			err = fmt.Errorf("%w; type it again with casual after it to play it unrated", err)
		}
		kind := "rated"
		if !rated {
			kind = "casual"
		}
		if to != "" {
			return "challenge sent to " + termtext.SafeLine(s.To) + ": " + tc.String() + " " + kind, err
		}
		if s.Range > 0 {
			kind += " " + s.RangeText()
		}
		return "seek open: " + tc.String() + " " + kind, err
	})
}

// lobbyView is the lobby in m.h rows less reserved (the status under
// it): the seeks (the chosen one kept in view), then as many of the games
// in progress, the leaderboard and the player's recent games as fit, the
// input line and the keys.
func (m *playModel) lobbyView(reserved int) []string {
	out := []string{m.st.Title.Render("Squall · lobby") + m.st.Muted.Render("  "+m.handle), ""}
	if notes := m.club.lines(); len(notes) > 0 {
		for _, l := range notes {
			out = append(out, m.st.Title.Render(termtext.Cut(l, max(m.w, 30))))
		}
		out = append(out, "")
	}
	if l := m.pausedLine(); l != "" {
		out = append(out, m.st.Muted.Render(termtext.Cut(l, max(m.w, 30))), "")
	}
	var tail []string
	tail = append(tail, "")
	if m.input.Focused() {
		tail = append(tail, m.input.View())
	}
	for _, l := range wrapHelp([]string{"n new seek", "c challenge", "s play Squall", "enter accept (or withdraw yours)", "d decline", "f speed", "i profile", "v watch followed", "a arenas", "↑/↓ choose", "b bell", m.quitHelp()}, m.w) {
		tail = append(tail, m.st.Muted.Render(l))
	}
	left := m.h - len(out) - len(tail) - reserved
	if m.h <= 0 {
		left = 1 << 20 // the size is not known yet
	}
	head := m.st.Title.Render("Seeks · "+m.filter.String()) + m.st.Muted.Render("  (f: another speed)")
	if m.hidden > 0 {
		head += m.st.Muted.Render(fmt.Sprintf(" · %d at other speeds", m.hidden))
	}
	out = append(out, head)
	left--
	if len(m.seeks) == 0 {
		out = append(out, m.st.Muted.Render("no open seeks: press n to open one"))
		left--
	}
	rows := min(len(m.seeks), max(left, 1))
	top := listWindow(m.sel, len(m.seeks), rows)
	for i := top; i < top+rows; i++ {
		row := seekRow(m.seeks[i], m.handle)
		if i == m.sel {
			row = m.st.Selected.Render(row)
		}
		out = append(out, row)
	}
	left -= rows
	// The other sections where rows are left, each with at least a row
	// under its title.
	section := func(title string, rows []string) {
		if left < 3 {
			return
		}
		out = append(out, "", title)
		out = append(out, take(rows, left-2)...)
		left -= 2 + min(len(rows), left-2)
	}
	if len(m.live) > 0 {
		var rows []string
		for _, g := range m.live[:min(len(m.live), 5)] {
			rows = append(rows, liveRow(g))
		}
		section(m.st.Title.Render(fmt.Sprintf("Games in progress · %d", len(m.live)))+m.st.Muted.Render("  (to follow one, connect with the command watch)"), rows)
	}
	var board []string
	if len(m.board) == 0 {
		board = append(board, m.st.Muted.Render("nobody rated yet"))
	}
	for i, b := range m.board {
		board = append(board, standingRow(i, b))
	}
	section(m.st.Title.Render("Leaderboard · "+m.speed.String())+m.st.Muted.Render("  (l: another speed)"), board)
	if len(m.recent) > 0 {
		var rows []string
		for _, r := range m.recent[:min(len(m.recent), 5)] {
			rows = append(rows, termtext.SafeLine(r))
		}
		section(m.st.Title.Render("Your recent games"), rows)
	}
	return append(out, tail...)
}

// colourFor says which colour reader plays if s is played: the seeker's
// choice turned round for anyone else (a challenge from alice as Black
// reads "you play White" to bob).
func colourFor(s lobby.Seek, reader string) string {
	if s.Color == lobby.Random {
		return "colours by lot"
	}
	white := s.Color == lobby.White
	if s.Handle != reader {
		white = !white
	}
	if white {
		return "you play White"
	}
	return "you play Black"
}

// wrapHelp sets a help line's items (each "key what") on as few lines of
// width cells as they fit, joined by " · "; an item wider than the screen
// is cut. Width 0 (not known yet) is one line.
func wrapHelp(items []string, width int) []string {
	const sep = " · "
	var lines []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case width > 0 && lipgloss.Width(line+sep+it) > width:
			lines = append(lines, line)
			line = it
		default:
			line += sep + it
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	if width > 0 {
		for i, l := range lines {
			lines[i] = termtext.Cut(l, width)
		}
	}
	return lines
}
