package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// The engine picker (U) lists the built-in engine and every engine the
// config names ([engines]): enter makes the chosen one the board's engine
// (it plays, hints and analyses from then on), b sets it analysing beside
// the board's (b on the one beside takes it away), o opens the options of
// a running one. The choices are written to the config (engine, beside).

// useEngineMsg asks the board to start the engine name as its own, or
// beside it; an empty name with beside takes the engine beside away.
type useEngineMsg struct {
	name   string
	beside bool
	// configured says the config asks for it (the board opening): there
	// is nothing new to write.
	configured bool
}

// engineOpenedMsg is an engine started for the board (Options.OpenEngine):
// a, or the error that stopped it.
type engineOpenedMsg struct {
	useEngineMsg
	a   engine.Analyzer
	err error
}

// enginePicker is the engine picker's dialog.
type enginePicker struct {
	names         []string // the built-in, the configured, and any running one not configured
	first, beside string   // the running engines' names ("" beside: none)
	sel           int
}

// newEnginePicker lists the engines of s, the running ones marked, the
// board's engine selected.
func newEnginePicker(s Settings, first, beside string) *enginePicker {
	d := &enginePicker{names: s.EngineNames(), first: first, beside: beside}
	for _, n := range []string{first, beside} {
		if n != "" && !containsName(d.names, n) {
			d.names = append(d.names, n) // a command line given to --engine
		}
	}
	for i, n := range d.names {
		if n == first {
			d.sel = i
		}
	}
	return d
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

func (d *enginePicker) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	name := d.names[d.sel]
	switch k.String() {
	case "esc", "q", "U":
		return true, nil, nil
	case "up", "k":
		d.sel = (d.sel + len(d.names) - 1) % len(d.names)
	case "down", "j", "tab":
		d.sel = (d.sel + 1) % len(d.names)
	case "enter":
		if name == d.first {
			return true, noteMsg("already analysing with " + termtext.SafeLine(name)), nil
		}
		return true, useEngineMsg{name: name}, nil
	case "b":
		if name == d.beside {
			return true, useEngineMsg{beside: true}, nil
		}
		return true, useEngineMsg{name: name, beside: true}, nil
	case "o":
		switch name {
		case d.first:
			return true, engineOptionsMsg{}, nil
		case d.beside:
			return true, engineOptionsMsg{beside: true}, nil
		}
		// Options come from the engine's own list: it must run first.
		return false, noteMsg("o shows a running engine's options: enter or b starts " + termtext.SafeLine(name)), nil
	}
	return false, nil, nil
}

func (d *enginePicker) view(st *view.Styles, width int) string {
	inner := max(16, width-4)
	var b strings.Builder
	b.WriteString(st.Title.Render("Engines") + "\n\n")
	for i, n := range d.names {
		var roles []string
		if n == d.first {
			roles = append(roles, "analyses · plays")
		}
		if n == d.beside {
			roles = append(roles, "beside")
		}
		role := strings.Join(roles, " · ")
		label := termtext.Cut(termtext.SafeLine(n), max(6, inner-len([]rune(role))-4))
		line := "  " + label
		if i == d.sel {
			line = st.Selected.Render("▸ " + label)
		}
		if role != "" {
			line += "  " + st.Muted.Render(role)
		}
		b.WriteString(line + "\n")
	}
	keys := "↑↓ choose · enter use it · b beside (again: none) · o its options · esc"
	b.WriteString("\n" + st.Muted.Render(strings.Join(view.WrapWords(keys, inner), "\n")))
	return st.Dialog.Render(b.String())
}

// openEngines opens the engine picker.
func (m *Model) openEngines() {
	beside := ""
	if m.search.beside != nil {
		beside = m.search.beside.name
	}
	m.dialog = newEnginePicker(m.opt.Settings, m.search.name, beside)
}

// useEngine starts the engine a config name names, as the board's or
// beside it (off Update: an engine may take seconds to start), or takes
// the engine beside away.
func (m *Model) useEngine(msg useEngineMsg) tea.Cmd {
	if msg.beside && msg.name == "" {
		if m.search.beside == nil {
			return nil
		}
		old := *m.search.beside
		old.stop()
		m.search.beside = nil
		m.besidePanel = newAnalysisPanel()
		m.opt.Settings.Beside = ""
		m.setMessage("no engine beside" + savedNote(m.opt.ConfigPath))
		return tea.Batch(old.closeCmd(), m.saveSettings())
	}
	if m.opt.OpenEngine == nil {
		m.setError(fmt.Errorf("this board offers no other engine"))
		return nil
	}
	sp, err := m.opt.Settings.EngineSpec(msg.name)
	if err != nil {
		m.setError(fmt.Errorf("engine %s: %w", termtext.SafeLine(msg.name), err))
		return nil
	}
	m.setMessage("starting " + termtext.SafeLine(msg.name) + "…")
	open := m.opt.OpenEngine
	return func() tea.Msg {
		a, err := open(context.Background(), sp)
		return engineOpenedMsg{useEngineMsg: msg, a: a, err: err}
	}
}

// engineOpened puts an engine just started in its place: the board's own
// (the one it had is closed, a game goes on with the new one) or beside
// it; the choice is written to the config.
func (m *Model) engineOpened(msg engineOpenedMsg) tea.Cmd {
	if msg.err != nil {
		m.setError(msg.err) // it names the engine
		return nil
	}
	if m.quitting {
		return func() tea.Msg { _ = msg.a.Close(); return nil }
	}
	name := termtext.SafeLine(msg.a.Name())
	saved := savedNote(m.opt.ConfigPath)
	if msg.configured {
		saved = ""
	}
	var old boardEngine
	if msg.beside {
		var prev *boardEngine
		if m.search.beside != nil {
			prev = m.search.beside
			prev.stop()
			old = *prev
		}
		e := newBoardEngine(msg.a, msg.name, old.runner)
		e.owned = true
		m.search.beside = &e
		m.besidePanel = newAnalysisPanel()
		m.besidePanel.engineName, m.besidePanel.sideView, m.besidePanel.viewSaid = msg.a.Name(), m.panel.sideView, true
		m.opt.Settings.Beside = msg.name
		m.setMessage(name + " analyses beside " + termtext.SafeLine(m.panel.engineName) + saved)
	} else {
		m.search.boardEngine.stop()
		m.search.held = 0
		old = m.search.boardEngine
		e := newBoardEngine(msg.a, msg.name, old.runner)
		e.owned, e.newGame = true, true
		m.search.boardEngine = e
		m.eng = msg.a
		m.panel.reset()
		m.panel.engineName = msg.a.Name()
		m.opt.Settings.Engine = msg.name
		m.setMessage("engine: " + name + saved)
	}
	save := m.saveSettings()
	if msg.configured {
		save = nil
	}
	return tea.Batch(old.closeCmd(), save, m.sync())
}

// startBeside starts the engine the config sets beside the board's, when
// the board opens.
func (m *Model) startBeside() tea.Cmd {
	name := m.opt.Settings.Beside
	if name == "" || m.opt.OpenEngine == nil || m.eng == nil {
		return nil
	}
	return m.useEngine(useEngineMsg{name: name, beside: true, configured: true})
}
