package serve

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server/play"
)

// The player's bell (issue 37): the client's terminal bell — the BEL
// byte, written between the screen's frames by the SSH server, never
// drawn (sshd.Handler's bell) — on the opponent's move, when the player's
// clock runs low, and when a seek of theirs is accepted. It is a setting
// of the session, as the rooms' flip and panel are: on by default, `bell`
// on the move line or b in the lobby turns it off and on.

// ring is a command that rings the client's terminal, if the player has
// the bell on (the write may wait on a slow client: not in Update).
func (m *playModel) ring() tea.Cmd {
	if m.bell == nil || m.bellOff {
		return nil
	}
	bell := m.bell
	return func() tea.Msg { bell(); return nil }
}

// toggleBell turns the bell off or on, saying which.
func (m *playModel) toggleBell() {
	m.bellOff = !m.bellOff
	m.status, m.isErr = "bell on", false
	if m.bellOff {
		m.status = "bell off"
	}
}

// lowTime is when a player's clock is low: under 10 s, or under a fifth
// of the control's initial time where that is more (36 s at 3+0).
func lowTime(tc clock.TimeControl) time.Duration { return max(10*time.Second, tc.Initial()/5) }

// moveBell rings when update u brings a move of the opponent's (the
// screen's update before it prev, of the same game): a premove of the
// player's played with it does not hide it.
func (m *playModel) moveBell(prev *play.Update, u play.Update) tea.Cmd {
	if prev == nil || prev.ID != u.ID {
		return nil
	}
	_, opp := m.opponent()
	start := u.Replayed.Game.Start.SideToMove()
	for ply := len(prev.Game.Moves); ply < len(u.Game.Moves); ply++ {
		mover := start
		if ply%2 == 1 {
			mover = start.Other()
		}
		if mover == opp {
			return m.ring()
		}
	}
	return nil
}

// lowTimeBell rings once a game, the first time the player's own running
// clock reads under lowTime after it read above it (a clock that starts
// low, 0+1's 3 s, does not ring at once).
func (m *playModel) lowTimeBell(now time.Time) tea.Cmd {
	if !m.inGame() || m.lowRung {
		return nil
	}
	me := m.mySide()
	left := m.upd.Clocks(now)[me]
	low := lowTime(m.upd.Game.TimeControl)
	running := m.upd.Replayed.Position.SideToMove() == me && len(m.upd.Game.Moves) >= clock.FirstTimedPly
	switch {
	case left >= low:
		m.lowAbove = true
	case running && m.lowAbove && left > 0:
		m.lowRung = true
		return m.ring()
	}
	return nil
}

// newGameBell resets the bell's news for the game the screen now shows.
func (m *playModel) newGameBell() { m.lowAbove, m.lowRung = false, false }
