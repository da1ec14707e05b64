package serve

import (
	"context"
	"errors"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/termtext"
)

// The end screen's rematch (issue 37): m asks the opponent for the return
// game — colours swapped, the same control, rated as it was — through
// the lobby's challenges (lobby.Rematch), or accepts the opponent's, and
// both screens move to the new game as it starts.

// rematch asks for the return game of the finished game shown, or
// accepts the opponent's request; the screen then waits for the game
// (rematchTick).
func (m *playModel) rematch() tea.Cmd {
	opp, _ := m.opponent()
	if strings.HasPrefix(opp, account.Reserved) {
		m.say(errors.New("play Squall again from the lobby (s)"))
		return nil
	}
	if m.p.Lobby == nil {
		m.say(errors.New("this server has no lobby"))
		return nil
	}
	m.rematching = true
	lb, handle, rec := m.p.Lobby, m.handle, m.upd.GameRecord
	return action(func(ctx context.Context) (string, error) {
		_, err := lb.Rematch(ctx, handle, rec) // the request is said under the board (rematchNotes)
		return "", err
	})
}

// rematchTick reads the rematch requests of the finished game shown and,
// once the player asked or accepted one, moves to the new game when it
// starts (the opponent's screen moves as theirs does); in an arena, to
// the next game it pairs the player in, as lichess does.
func (m *playModel) rematchTick() tea.Cmd {
	m.rematches = m.rematches[:0]
	if m.p.Lobby != nil {
		for _, s := range m.p.Lobby.Seeks(m.handle) {
			if s.Rematch == m.gameID {
				m.rematches = append(m.rematches, s)
			}
		}
	}
	if !m.rematching && m.arena == "" {
		return nil
	}
	id, ok := m.p.Hub.GameOf(m.handle)
	if !ok || id == m.gameID {
		return nil
	}
	m.rematching, m.rematches, m.chat, m.help = false, nil, nil, false
	m.review.close()
	return tea.Batch(m.ring(), m.toBoard(id)) // their answer came
}

// rematchNotes say the rematch requests of the finished game shown.
func (m *playModel) rematchNotes() []string {
	var out []string
	for _, s := range m.rematches {
		text := "you asked " + termtext.SafeLine(s.To) + " for a rematch: waiting for the answer"
		if s.Handle != m.handle {
			text = termtext.SafeLine(s.Handle) + " asks for a rematch (" + rematchTerms(s) + "): m to accept"
		}
		out = append(out, m.st.Title.Render(termtext.Cut(text, max(m.w, 20))))
	}
	return out
}

// rematchTerms are a rematch request's terms as its addressee plays them.
func rematchTerms(s lobby.Seek) string {
	kind := "casual"
	if s.Rated {
		kind = "rated"
	}
	colour := "white"
	if s.Color == lobby.White {
		colour = "black"
	}
	return s.TC.String() + " " + kind + ", you " + colour
}
