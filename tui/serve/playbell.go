package serve

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
)

// The player's bell (issue 37): the client's terminal bell — the BEL
// byte, written between the screen's frames by the SSH server, never
// drawn (sshd.Handler's bell) — on the opponent's move, when the player's
// clock runs low, and when a seek of theirs is accepted. It is a setting
// of the session, as the rooms' flip and panel are: on by default, `bell`
// on the move line or b in the lobby turns it off and on. It also rings,
// at home and in the lobby, when a challenge to the player arrives.

// sessionBell is the player's bell in one SSH session, shared by its home
// screen and every play screen opened from it, so that the setting holds
// for the session and a challenge rings once wherever it is first seen.
type sessionBell struct {
	ring func() // rings the client's terminal (nil: none)
	off  bool   // the player's setting
	// challenges are the ids of the challenges to the player seen (one
	// waiting as the session begins is news too: it rings as it is seen).
	challenges map[string]bool
}

// cmd is a command that rings the client's terminal, if the bell is on
// (the write may wait on a slow client: not in Update).
func (b *sessionBell) cmd() tea.Cmd {
	if b == nil || b.ring == nil || b.off {
		return nil
	}
	ring := b.ring
	return func() tea.Msg { ring(); return nil }
}

// challenged rings once for each challenge to handle among seeks not seen
// before: called by each screen that tells the player of their
// challenges, as it looks at the lobby.
func (b *sessionBell) challenged(seeks []lobby.Seek, handle string) tea.Cmd {
	if b == nil || handle == "" {
		return nil
	}
	news := false
	now := map[string]bool{}
	for _, s := range seeks {
		if s.To == handle {
			now[s.ID] = true
			news = news || !b.challenges[s.ID]
		}
	}
	b.challenges = now
	if !news {
		return nil
	}
	return b.cmd()
}

// ring is a command that rings the client's terminal, if the player has
// the bell on.
func (m *playModel) ring() tea.Cmd { return m.bell.cmd() }

// toggleBell turns the bell off or on, saying which.
func (m *playModel) toggleBell() {
	m.bell.off = !m.bell.off
	m.status, m.isErr = "bell on", false
	if m.bell.off {
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
