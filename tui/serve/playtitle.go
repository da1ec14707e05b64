package serve

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/termtext"
)

// The player's focus (issue 37, "bell and focus"): a terminal cannot be
// raised by a server, but its title — the window's, or the tab's in a
// terminal with tabs — can be set, and is what a player looking at
// another window or tab sees. The play screen titles the terminal with
// whose move it is ("▶ your move · vs bob · Squall" on the player's turn),
// the result at the end, and "Squall · lobby" in the lobby: the terminal's
// counterpart of lichess's blinking tab. The title is the renderer's
// (OSC 2 through bubbletea, between two frames), written only when it
// changes.

// lobbyTitle is the terminal's title in the lobby.
const lobbyTitle = "Squall · lobby"

// gameTitle is the terminal's title for game u seen by handle.
func gameTitle(u play.Update, handle string) string {
	opp, mine := u.Players.Black, u.Players.White == handle
	if !mine {
		opp = u.Players.White
	}
	vs := "vs " + termtext.SafeLine(opp)
	switch {
	case u.Over():
		return u.End.Result.String() + " · " + vs + " · Squall"
	case (u.Replayed.Position.SideToMove() == chess.White) == mine:
		return "▶ your move · " + vs + " · Squall"
	}
	return vs + " · Squall"
}

// retitle sets the terminal's title to t if it says something else.
func (m *playModel) retitle(t string) tea.Cmd {
	if t == m.title {
		return nil
	}
	m.title = t
	return tea.SetWindowTitle(t)
}
