package serve

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/termtext"
)

// The game screen's keys beside the move line (issue 33, G4): leaving a
// game in progress asks first (ctrl+c, or q on an empty line: the
// opponent may claim a game its player left), F1 or ? shows the
// commands, tab completes one, esc clears the line (on an empty line it
// cancels the player's premove, issue 37), and the help line always
// names them.

// commands are the words the move line takes besides moves, for tab.
var commands = []string{"resign", "draw", "decline", "takeback", "abort", "berserk", "claim", "claimdraw", "say ", "mute", "unmute", "bell"}

// inGame reports whether the screen shows the player's game in progress.
func (m *playModel) inGame() bool {
	return m.screen == atBoard && m.upd != nil && !m.upd.Over()
}

// mySide is the player's colour in the game shown.
func (m *playModel) mySide() chess.Color {
	if m.upd != nil && m.upd.Players.Black == m.handle {
		return chess.Black
	}
	return chess.White
}

// leaveQuestion asks whether the player means to leave the game in
// progress, saying what follows.
func (m *playModel) leaveQuestion() string {
	opp, _ := m.opponent()
	if strings.HasPrefix(opp, account.Reserved) {
		return "leave the game? your clock runs on while you are away — y/n"
	}
	grace := game.Grace(m.upd.Game.TimeControl)
	return fmt.Sprintf("leave the game? %s can claim it after %.0f s — y/n", termtext.SafeLine(opp), grace.Seconds())
}

// leaveKey answers the leave question: y (or ctrl+c again) leaves, any
// other key stays.
func (m *playModel) leaveKey(k tea.KeyMsg) tea.Cmd {
	m.leaving = false
	switch k.String() {
	case "y", "Y", "ctrl+c":
		return tea.Quit
	}
	return nil
}

// boardHelp is the game screen's last line: the answers the leave
// question takes while it is asked, else the keys.
func (m *playModel) boardHelp() string {
	switch {
	case m.upd.Over():
		watch := ""
		if _, ok := m.club.newest(); ok {
			watch = "v watch followed · "
		}
		if m.arena != "" {
			return m.st.Muted.Render(termtext.Cut("r review · "+watch+"your next game opens as the arena pairs you · enter or esc: back to the arena · "+m.quitHelp(), max(m.w, 20)))
		}
		return m.st.Muted.Render(termtext.Cut("r review · m rematch · "+watch+"enter or esc: back to the lobby · "+m.quitHelp(), max(m.w, 20)))
	case m.leaving:
		return m.st.Err.Render(termtext.Cut(m.leaveQuestion(), max(m.w, 20)))
	}
	esc := "esc clear"
	if m.premove() != "" && m.input.Value() == "" {
		esc = "esc cancel premove"
	}
	return m.st.Muted.Render(termtext.Cut("enter play · tab complete · F1 help · "+esc+" · q or ctrl+c leave", max(m.w, 20)))
}

// helpLines are the commands the move line takes (F1).
func (m *playModel) helpLines() []string {
	lines := []string{
		"e4, Nf3, exd5, O-O, e7e8q   a move (SAN or UCI)",
		"a move on your opponent's turn is a premove: esc cancels it",
		"draw       offer a draw, or accept the one offered",
		"takeback   ask to take back your last move, or agree to it",
		"decline    turn down a draw offer or a takeback",
		"resign · abort (before both sides have moved)",
		"claim · claimdraw   when your opponent has left",
		"say TEXT   chat · mute, unmute   the spectators' chat",
		"bell       the terminal bell off or on (your opponent's move, low time, a challenge)",
		"v          after the game: watch the game a player you follow began (noted under the board)",
		"q (empty line) or ctrl+c   leave the game (asks first)",
	}
	if m.upd != nil && m.upd.Arena != "" {
		lines = append(lines[:len(lines)-1:len(lines)-1], "berserk    before your first move: half your time, no increment, +1 for a win of 7 moves or more", lines[len(lines)-1])
	}
	for i, l := range lines {
		lines[i] = m.st.Muted.Render(termtext.Cut(l, max(m.w, 20)))
	}
	return lines
}

// complete completes the command begun on the move line: the one it can
// be, or the part all it can be share, with those named.
func (m *playModel) complete() {
	typed := m.input.Value()
	if typed == "" {
		return
	}
	var fits []string
	for _, c := range commands {
		if strings.HasPrefix(c, typed) {
			fits = append(fits, c)
		}
	}
	if len(fits) == 0 {
		return
	}
	common := fits[0]
	for _, c := range fits[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	m.input.SetValue(common)
	m.input.CursorEnd()
	if len(fits) > 1 {
		m.status, m.isErr = strings.Join(fits, " · "), false
	}
}

// premove is the player's premove queued in the game shown ("" for none).
func (m *playModel) premove() string {
	if !m.inGame() {
		return ""
	}
	return m.upd.Game.Premoves.Queued[m.mySide()]
}

// premoveShown is the queued premove as a move of the player's on the
// board as it stands (the turn passed to them), for its squares; NullMove
// when it names none there yet (a capture of a piece still to come): the
// note under the board says it all the same.
func (m *playModel) premoveShown() chess.Move {
	text := m.premove()
	if text == "" {
		return chess.NullMove
	}
	pos := m.upd.Replayed.Position.Clone()
	var u chess.Undo
	pos.MakeNullMove(&u)
	mv, err := pos.ParseTyped(text)
	if err != nil {
		return chess.NullMove
	}
	return mv
}
