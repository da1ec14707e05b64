package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/tui/view"
)

// clockDialog changes the time control of the game in progress (C): both
// sides get the new base time, from now on with the new increment, as an
// arbiter resets a clock; "none" takes the clocks away. The game's
// TimeControl tag follows.
type clockDialog struct {
	sel int // index into timeControls
}

// newClockDialog opens on the control the game has now (c's).
func newClockDialog(c *clock.Clock) *clockDialog {
	return &clockDialog{sel: timeControlIndex(c.Base(), c.Increment())}
}

func (d *clockDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	switch k.String() {
	case "esc", "q":
		return true, nil, nil
	case "up", "k", "left", "h":
		d.sel = (d.sel + len(timeControls) - 1) % len(timeControls)
	case "down", "j", "right", "l", " ":
		d.sel = (d.sel + 1) % len(timeControls)
	case "enter":
		return true, clockMsg{timeControls[d.sel].name}, nil
	}
	return false, nil, nil
}

func (d *clockDialog) view(st *view.Styles, width int) string {
	var b strings.Builder
	b.WriteString(st.Title.Render("Clock for the rest of the game") + "\n\n")
	for i, tc := range timeControls {
		line := fmt.Sprintf("  %s", tc.name)
		if i == d.sel {
			line = st.Selected.Render("▸ " + tc.name)
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n" + st.Muted.Render("↑↓ choose · enter set · esc cancel"))
	return st.Dialog.Render(b.String())
}

// setClock gives both sides the time control named name (one of
// timeControls) from now on.
func (m *Model) setClock(name string) tea.Cmd {
	if m.over || m.mode == Analysis {
		m.setError(fmt.Errorf("no game in progress: the clock is set in the New game dialog (n)"))
		return nil
	}
	for _, tc := range timeControls {
		if tc.name != name {
			continue
		}
		now := m.opt.Now()
		m.clock = clock.New(tc.base, tc.inc)
		if tc.base > 0 {
			m.tree.SetTag("TimeControl", m.clock.TimeControl().PGNTag())
			m.clock.Resume(m.pos.SideToMove(), m.cur.Ply(), now)
			m.setMessage("clock " + m.clock.TimeControl().String() + " for both sides from now")
		} else {
			m.tree.DeleteTag("TimeControl")
			m.setMessage("no clock for the rest of the game")
		}
		if !m.ticking {
			return m.startTicking()
		}
		return nil
	}
	return nil
}
