package tui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

// A second engine analyses beside the board's, as Nibbler and En
// Croissant show two: boardSearch.beside runs its searches on a Runner of
// its own, Model.besidePanel holds its lines, and the side panel draws
// the two panels side by side where the width allows, else one over the
// other. The board's engine alone plays, hints and fills the eval bar.

// besideMsg is a batch of the engine beside's search. Its own message,
// not a livecmd.Msg: generations are counted per Runner, so a batch of
// the Runner beside could carry the generation of the board's search or
// of a view's.
type besideMsg struct{ livecmd.Msg }

// waitBeside delivers the next batch of s, a search of the engine beside.
func waitBeside(s *live.Search) tea.Cmd {
	wait := livecmd.Wait(s)
	return func() tea.Msg { return besideMsg{wait().(livecmd.Msg)} }
}

// syncBeside makes the engine beside analyse the shown position while the
// board's engine analyses it, and stops it otherwise (a game's move, a
// hint, a view open, analysis off).
func (m *Model) syncBeside() tea.Cmd {
	e := m.search.beside
	if e == nil {
		return nil
	}
	if m.wantedSearch() != searchAnalysis {
		e.stop()
		return nil
	}
	if e.runs(searchAnalysis, m.cur, m.multiPV) {
		return nil
	}
	return waitBeside(e.start(m.searchFor(searchAnalysis)))
}

// handleBeside takes a batch of the engine beside's search into its panel;
// a batch of a search since replaced or stopped is dropped. An error ends
// its analysis with the reason said, as the board's engine's does.
func (m *Model) handleBeside(msg besideMsg) tea.Cmd {
	e := m.search.beside
	if e == nil || e.run == nil || msg.Gen != e.run.s.Gen {
		return nil
	}
	for _, i := range msg.Infos {
		m.besidePanel.add(m.pos, i)
	}
	if !msg.Done {
		return waitBeside(e.run.s)
	}
	e.run = nil
	if msg.Err != nil {
		m.setError(fmt.Errorf("engine beside: %w", msg.Err))
	}
	return nil
}

// besideGap is the blank columns between two panels side by side, and
// besideMin the narrowest each may be: narrower, they go one over the
// other.
const (
	besideGap = 2
	besideMin = 36
)

// analysisPanels draws the board's analysis in w columns with n lines per
// engine: its engine's panel, and the engine beside's next to it when
// each gets besideMin columns, under it otherwise.
func (m *Model) analysisPanels(w, n int) []string {
	on, thinking := m.analysisOn, m.search.thinking()
	first := m.panel.render(m.st, m.pos, w, n, on, thinking, m.fileEval())
	if m.search.beside == nil {
		return first
	}
	// The engine beside waits while the board's engine thinks of its
	// move, which has the machine to itself.
	v := m.besidePanel.view(m.pos, n, on && !thinking, false, nil)
	if on && thinking {
		v.State = "waits for the move"
	}
	if half := (w - besideGap) / 2; half >= besideMin {
		first = m.panel.render(m.st, m.pos, half, n, on, thinking, m.fileEval())
		second := v.Render(m.st.Analysis(), w-besideGap-half)
		out := make([]string, max(len(first), len(second)))
		for i := range out {
			l, r := "", ""
			if i < len(first) {
				l = first[i]
			}
			if i < len(second) {
				r = second[i]
			}
			out[i] = view.Pad(l, half+besideGap) + r
		}
		return out
	}
	second := v.Render(m.st.Analysis(), w)
	return append(first, second...)
}
