package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

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
		out = append(out, termtext.Cut(st.Muted.Render(who+": ")+termtext.SafeLine(l.Text), max(width, 20)))
	}
	return out
}

// clubNote is the newest game a followed player began, as the game
// screen says it: v watches it once the game is over.
func (m *playModel) clubNote() string {
	g, ok := m.club.newest()
	if !ok {
		return ""
	}
	if m.upd != nil && m.upd.Over() {
		return m.club.line(g) + " · v watches"
	}
	return m.club.line(g) + " · v watches it after your game"
}

// toBoard follows game id.
func (m *playModel) toBoard(id string) tea.Cmd {
	updates, stop, err := m.p.Hub.Watch(id)
	if err != nil {
		m.say(err)
		return nil
	}
	m.life.watch(stop)
	m.screen, m.gameID, m.updates, m.upd = atBoard, id, updates, nil
	m.newGameBell()
	m.status = ""
	m.input.Reset()
	m.input.Placeholder = "a move (e4, Nf3), draw, takeback, resign, say TEXT · F1 help"
	m.input.Prompt = "move> "
	m.input.Focus()
	cmds := []tea.Cmd{livecmd.Recv(updates), tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return clockTickMsg{} })}
	if !m.club.read {
		cmds = append(cmds, readFollowing(m.p.Store, m.handle)) // a session that opened on its game
	}
	return tea.Batch(cmds...)
}

func (m *playModel) boardKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	over := m.upd != nil && m.upd.Over()
	empty := m.input.Value() == ""
	switch {
	case over && empty && k.String() == "r":
		return m, m.openReview()
	case over && empty && k.String() == "m" && m.upd.Arena != "":
		m.say(errors.New("no rematch in an arena: it pairs you again as soon as a wave comes"))
		return m, nil
	case over && empty && k.String() == "m":
		return m, m.rematch()
	case over && empty && k.String() == "v":
		return m, m.club.watch(m.home, m.sshCmd, func(s string) { m.status, m.isErr = s, false })
	case over && empty && (k.Type == tea.KeyEnter || k.Type == tea.KeyEsc):
		m.life.watch()
		m.gameID, m.updates, m.chat, m.help, m.rematching, m.rematches = "", nil, nil, false, false, nil
		return m, m.toLobby()
	case empty && k.String() == "q":
		if over {
			return m, tea.Quit
		}
		m.leaving = m.upd != nil
		return m, nil
	case k.Type == tea.KeyF1 || (empty && k.String() == "?"):
		m.help = !m.help
		return m, nil
	case k.Type == tea.KeyEsc && empty && !over && m.premove() != "":
		hub, id, handle := m.p.Hub, m.gameID, m.handle
		return m, action(func(ctx context.Context) (string, error) {
			_, err := hub.CancelPremove(ctx, id, handle)
			return "premove cancelled", err
		})
	case k.Type == tea.KeyEsc:
		m.input.Reset()
		m.help = false
		return m, nil
	case k.Type == tea.KeyTab:
		m.complete()
		return m, nil
	case k.Type != tea.KeyEnter:
		return m, m.typeKey(k)
	}
	text := strings.TrimSpace(m.input.Value())
	m.input.Reset()
	hub, id, handle := m.p.Hub, m.gameID, m.handle
	if said, ok := strings.CutPrefix(text, "say "); ok || text == "mute" || text == "unmute" {
		if m.p.Chats == nil {
			m.say(errors.New("this server has no chat"))
			return m, nil
		}
		// Kept in the store before they are acknowledged: commands, as the
		// moves are (the chat shows the line at the next tick).
		room := m.p.Chats.Room(id)
		if on := text == "mute"; on || text == "unmute" {
			return m, action(func(context.Context) (string, error) { return "spectators " + text + "d", room.Mute(on) })
		}
		return m, action(func(context.Context) (string, error) { return "", room.Post(handle, false, said, time.Now()) })
	}
	if over {
		return m, nil
	}
	var do func(ctx context.Context) (*play.Ended, error)
	var note string
	opp := ""
	if m.upd != nil {
		opp, _ = m.opponent()
		opp = termtext.SafeLine(opp)
	}
	switch text {
	case "":
		return m, nil
	case "bell":
		m.toggleBell()
		return m, nil
	case "resign":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Resign(ctx, id, handle) }
	case "draw":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.OfferDraw(ctx, id, handle) }
		note = "draw offered to " + opp
	case "abort":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Abort(ctx, id, handle) }
	case "berserk":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Berserk(ctx, id, handle) }
		note = "berserk: half your time, no increment, a point more for a win of 7 moves or more"
	case "decline":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Decline(ctx, id, handle) }
		note = "declined"
	case "takeback":
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Takeback(ctx, id, handle) }
		note = "takeback asked of " + opp
	case "claim", "claimdraw":
		since, ok := m.opponentGone()
		if !ok {
			m.say(errors.New("your opponent is here"))
			return m, nil
		}
		draw := text == "claimdraw"
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Claim(ctx, id, handle, since, draw) }
	default:
		// A move on the player's turn, a premove on the opponent's: the
		// host tells which as the move arrives (the screen's turn may be
		// a moment old).
		// A queued premove is said under the board while it stands.
		do = func(ctx context.Context) (*play.Ended, error) { return hub.Premove(ctx, id, handle, text) }
	}
	if m.upd != nil {
		// Offering back accepts, and asking back agrees: the game's next
		// update says so, not "offered".
		theirs := m.upd.Game.Offers
		if opp := m.mySide().Other(); text == "draw" && theirs.Draw[opp] || text == "takeback" && theirs.Takeback[opp] {
			note = ""
		}
	}
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		_, err := do(ctx) // the end, if it came, arrives as the game's last update
		return doneMsg{note: note, err: err}
	}
}

// ratingNote says how a rated game changed both ratings.
func ratingNote(e *play.Ended) string {
	return fmt.Sprintf("ratings: White %.0f → %.0f, Black %.0f → %.0f",
		e.Before[0].Rating, e.After[0].Rating, e.Before[1].Rating, e.After[1].Rating)
}

// boardView is the game screen in m.h rows: the board with the clocks
// and the moves, then what is said (offers, chat, the F1 help, the
// status), the input line and the keys. Where rows are short the chat,
// then the help, give way; the moves keep at least a row.
func (m *playModel) boardView() []string {
	if m.upd == nil {
		return []string{m.st.Muted.Render("joining the game…")}
	}
	out, moved := gameRows(m.st, m.upd, 0, m.upd.Players.Black == m.handle, m.premoveShown(), m.w, nil, &m.moves, m.lagLines())
	where := ""
	if m.upd.ArenaName != "" {
		where = " · " + termtext.SafeLine(arena.Title(m.upd.ArenaName))
	}
	out[0] = m.st.Title.Render("Squall · game") + m.st.Muted.Render("  "+m.upd.Game.TimeControl.String()+where+" · "+m.handle)
	var status []string
	if m.status != "" {
		s := m.st.Muted
		if m.isErr {
			s = m.st.Err
		}
		for _, l := range wrapped(termtext.SafeLine(m.status), m.w) {
			status = append(status, s.Render(l))
		}
	}
	// A game a followed player began: a quiet line of its own, never over
	// the board or the clocks (it takes a row of the moves'), watched with
	// v after the game.
	if note := m.clubNote(); note != "" {
		status = append(status, m.st.Muted.Render(termtext.Cut(note, max(m.w, 20))))
	}
	// Paused in an arena while playing here: a quiet line of its own, as
	// long as it lasts.
	if l := m.pausedLine(); l != "" {
		status = append(status, m.st.Muted.Render(termtext.Cut(l, max(m.w, 20))))
	}
	// A line of its own: after the result and both ratings it was cut off
	// at 110 columns.
	end := append(append(status, pgnLines(m.st, m.sshCmd, m.upd, m.w)...), m.boardHelp())
	notes := m.notes()
	left := m.h - len(out) - len(notes) - 1 - len(end) // 1: the input line
	if m.h <= 0 {
		left = 1 << 20 // the size is not known yet
	}
	under := 0
	if !moved {
		under = 1
		left--
	}
	var help []string
	if m.help {
		help = take(m.helpLines(), left)
		left -= len(help)
	}
	chat := last(chatView(m.st, m.chat, m.w), left)
	left -= len(chat)
	if !moved {
		if left > 1 {
			out = append(out, "") // a blank row under the board, where there is room
			left--
		}
		out = append(out, moveRows(m.st, m.upd, &m.moves, m.w, under+max(left, 0))...)
	}
	out = append(out, notes...)
	out = append(out, chat...)
	out = append(out, help...)
	out = append(out, m.input.View())
	return append(out, end...)
}

// openReview opens the finished game in review (?!, ?, ?? and the eval
// graph, as the board's review view draws it) with an engine of its own.
func (m *playModel) openReview() tea.Cmd {
	_, opp := m.opponent()
	own := opp.Other() // whose mistakes F steps to, and the side drawn
	cmd, err := m.review.open(m.p, m.st, m.upd.Ended, &own, own, m.life, pgnCommand(m.sshCmd, m.gameID), m.w, m.h)
	if err != nil {
		m.say(err)
		return nil
	}
	return cmd
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

// notes are the offers of both sides and their answers since the last
// move (issue 33, G3: the asker saw nothing, and neither player was told
// of a decline), and whether the opponent left, with what the player may
// type.
func (m *playModel) notes() []string {
	if m.upd.Over() {
		return m.rematchNotes()
	}
	opp, c := m.opponent()
	me := c.Other()
	name := termtext.SafeLine(opp)
	o := m.upd.Game.Offers
	var out []string
	for _, n := range []struct {
		on   bool
		text string
	}{
		{o.Draw[c], name + " offers a draw: type draw to accept, or decline"},
		{o.Takeback[c], name + " asks to take back a move: type takeback to agree, or decline (moving declines too)"},
		{o.Draw[me], "you offered a draw: waiting for " + name + "'s answer"},
		{o.Takeback[me], "you asked to take back your last move: waiting for " + name + "'s answer"},
		{o.DrawDeclined[me], name + " declined your draw offer: you may offer again after the next move"},
		{o.TakebackDeclined[me], name + " declined your takeback: you may ask again after the next move"},
		{o.DrawDeclined[c], "you declined " + name + "'s draw offer"},
		{o.TakebackDeclined[c], "you declined " + name + "'s takeback"},
		{o.TookBack[me], name + " agreed: your last move was taken back"},
		{o.TookBack[c], "you agreed: " + name + "'s last move was taken back"},
		{m.premove() != "", "premove " + termtext.SafeLine(m.premove()) + " queued: played as " + name + " moves · esc cancels"},
		{m.upd.Game.Premoves.Dropped[me] != "", "your premove " + termtext.SafeLine(m.upd.Game.Premoves.Dropped[me]) + " was not legal after " + name + "'s move: dropped"},
	} {
		if n.on {
			out = append(out, m.st.Title.Render(termtext.Cut(n.text, max(m.w, 20))))
		}
	}
	if since, gone := m.opponentGone(); gone {
		grace := game.Grace(m.upd.Game.TimeControl)
		if wait := grace - time.Since(since); wait > 0 {
			out = append(out, m.st.Err.Render(fmt.Sprintf("%s left; you may claim the game in %v", name, wait.Round(time.Second))))
		} else {
			out = append(out, m.st.Err.Render(name+" left: type claim to win, claimdraw for a draw, or wait"))
		}
	}
	return out
}

// Game screens' sizes: the board in its small squares, the column beside
// it (clocks, then the spectators' analysis or the moves) at least
// gameRightMin cells, and under it at least the help line, the input line
// and a row of moves.
const (
	gameRightMin = 22
	gameMinWidth = 26 + 2 + gameRightMin // boardview.Size{W: 3, H: 1}.Width() + 2 + …
	gameMinRows  = 2 + 9 + 3             // title and blank, the board, three rows under it
)

// gameBoard is the game screens' board size: the smallest squares.
var gameBoard = boardview.Size{W: 3, H: 1}

// gameRows draws game u: a title row, a blank, and the board (from
// Black's side when flipped, premove's squares marked as boardview marks
// a move not on the board yet) with both clocks beside it, and under the
// clocks panel, if any
// (the spectators' analysis), or else the moves from list, newest in
// view. moved tells whether the moves are there; if not, the caller puts
// them under the board (moveRows).
//
// lags are what is said under each side's clock (by colour; "" none): the
// players' lags (lagLines).
//
// The clocks read as they stood behind ago (the one way, the record's
// Clocks): a player's screen shows the game live (0), a spectator's a
// rated game behind it (play.SpectatorDelay). Behind, the clocks are
// those of the position shown, the side to move's running from the moment
// it is shown, as lichess's delayed broadcast has them; read at now, the
// running clock was short by the whole delay.
func gameRows(st styles, u *play.Update, behind time.Duration, flipped bool, premove chess.Move, width int, panel []string, list *moveList, lags [2]string) (rows []string, moved bool) {
	pos := u.Replayed.Position
	sc := boardview.NewScene(pos)
	sc.Last = u.Replayed.Last()
	sc.Flipped = flipped
	sc.Hint = premove
	board := strings.Split(st.Board.Board(sc, gameBoard), "\n")
	left := u.Clocks(time.Now().Add(-behind))
	rightW := max(width-gameBoard.Width()-2, gameRightMin)
	side := func(c chess.Color, name string) string {
		t := clock.Text(left[c])
		// The name gives way to the clock in a narrow column.
		nameW := min(16, max(rightW-2-len(c.Name())-2-len(t), 1))
		s := c.Name() + " " + view.Pad(termtext.Cut(termtext.SafeLine(name), nameW), nameW) + " " + t
		if !u.Over() && pos.SideToMove() == c {
			return st.Title.Render("▶ " + s)
		}
		return "  " + s
	}
	// A player's own clock is nearer them, at the board's near side; under
	// each clock its player's lag, and their berserk in an arena.
	under := func(c chess.Color) string {
		var notes []string
		if u.Game.Berserk[c] {
			notes = append(notes, "berserk")
		}
		if lags[c] != "" {
			notes = append(notes, lags[c])
		}
		if len(notes) == 0 {
			return ""
		}
		return st.Muted.Render("  " + strings.Join(notes, " · "))
	}
	right := []string{side(chess.Black, ratedName(u.Players.Black, u.Players.AtStart[chess.Black])), under(chess.Black),
		side(chess.White, ratedName(u.Players.White, u.Players.AtStart[chess.White])), under(chess.White)}
	if flipped { // each name with the line under it
		right[0], right[1], right[2], right[3] = right[2], right[3], right[0], right[1]
	}
	if panel == nil && width-gameBoard.Width()-2 >= gameRightMin {
		right = append(right, moveRows(st, u, list, rightW, len(board)-len(right))...)
		moved = true
	}
	right = append(right, panel...)
	out := []string{"", ""}
	for i := 0; i < max(len(board), len(right)); i++ {
		l, rr := strings.Repeat(" ", gameBoard.Width()), ""
		if i < len(board) {
			l = board[i]
		}
		if i < len(right) {
			rr = termtext.Cut(right[i], rightW)
		}
		out = append(out, l+"  "+rr)
	}
	return out, moved
}

// moveRows is the game's moves in at most height rows of width cells,
// the newest in view (issue 33, G1: the screens showed the first moves in
// one line cut at the screen's edge, and never the latest).
func moveRows(st styles, u *play.Update, list *moveList, width, height int) []string {
	return list.rows(st, u.Replayed.SANs, 0, -1, "no moves yet", width, max(height, 1))
}
