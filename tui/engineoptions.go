package tui

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// The options dialog (o in the engine picker) is built from the running
// engine's own option list: a spin is a number typed or stepped with ←→
// within its range, a check toggled, a combo one of its choices, a
// string typed, a button pressed with space. Enter checks every changed
// value with spec.Check (the check spec.Apply makes): a refused one
// keeps the dialog open with the reason; else the values are set before
// the engine's next search (its analysis restarts with them) and
// remembered for the engine in the config ([options.NAME]).

// boardSetOptions are the options the board sets itself, left out of the
// dialog: the lines shown (MultiPV, + and -), the level's strength
// (UCI_LimitStrength, UCI_Elo, L) and the rules of the game shown
// (UCI_Chess960).
var boardSetOptions = []string{"MultiPV", "UCI_LimitStrength", "UCI_Elo", "UCI_Chess960"}

// optionRows is how many options the dialog shows at once.
const optionRows = 12

// engineOptionsMsg opens the options dialog of the board's engine, or of
// the one beside it.
type engineOptionsMsg struct{ beside bool }

// setOptionsMsg sets options on the board's engine or the one beside it;
// press says they are a button's press, set and not remembered.
type setOptionsMsg struct {
	beside bool
	opts   []spec.Option
	press  bool
}

// optionsDialog is the options dialog of one running engine.
type optionsDialog struct {
	engine   string // the engine's own name, outside text
	beside   bool
	declared []engine.Option // everything the engine declares, for the checks
	opts     []engine.Option // those shown
	values   []string
	changed  []bool
	sel, top int
	err      string // why enter was refused, made safe
}

// newOptionsDialog lists a's options with the values they have: each
// declared default, over it the board's own settings (threads, hash) and
// the options remembered for the engine.
func newOptionsDialog(a engine.Analyzer, beside bool, known []spec.Option) *optionsDialog {
	d := &optionsDialog{engine: a.Name(), beside: beside, declared: a.Options()}
	for _, o := range d.declared {
		if o.Hidden || containsFold(boardSetOptions, o.Name) {
			continue
		}
		v := o.Default
		for _, k := range known {
			if strings.EqualFold(k.Name, o.Name) {
				v = k.Value
			}
		}
		if o.Type == "button" {
			v = ""
		}
		d.opts = append(d.opts, o)
		d.values = append(d.values, v)
	}
	d.changed = make([]bool, len(d.opts))
	return d
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func (d *optionsDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	if len(d.opts) == 0 {
		return true, nil, nil
	}
	o, ks := d.opts[d.sel], k.String()
	switch ks {
	case "esc":
		return true, noteMsg("options not changed"), nil
	case "up", "shift+tab":
		d.move(-1)
		return false, nil, nil
	case "down", "tab":
		d.move(1)
		return false, nil, nil
	case "pgup":
		d.move(-optionRows)
		return false, nil, nil
	case "pgdown":
		d.move(optionRows)
		return false, nil, nil
	case "enter":
		return d.submit()
	}
	d.err = ""
	switch o.Type {
	case "spin":
		switch {
		case ks == "left" || ks == "right":
			n, err := strconv.Atoi(d.values[d.sel])
			if err != nil {
				n = o.Min
			} else if ks == "left" {
				n = max(o.Min, n-1)
			} else {
				n = min(o.Max, n+1)
			}
			d.set(strconv.Itoa(n))
		case ks == "backspace":
			d.set(dropLast(d.values[d.sel]))
		case k.Type == tea.KeyRunes && strings.Trim(string(k.Runes), "-0123456789") == "":
			if !d.changed[d.sel] {
				d.values[d.sel] = "" // typing replaces the value shown
			}
			d.set(d.values[d.sel] + string(k.Runes))
		}
	case "check":
		if ks == " " || ks == "left" || ks == "right" {
			d.set(strconv.FormatBool(d.values[d.sel] != "true"))
		}
	case "combo":
		if n := len(o.Vars); n > 0 && (ks == "left" || ks == "right" || ks == " ") {
			i := 0
			for j, v := range o.Vars {
				if strings.EqualFold(v, d.values[d.sel]) {
					i = j
				}
			}
			if ks == "left" {
				i = (i + n - 1) % n
			} else {
				i = (i + 1) % n
			}
			d.set(o.Vars[i])
		}
	case "string":
		switch {
		case ks == "backspace":
			d.set(dropLast(d.values[d.sel]))
		case k.Type == tea.KeyRunes || k.Type == tea.KeySpace:
			d.set(d.values[d.sel] + string(k.Runes))
		}
	case "button":
		if ks == " " {
			return false, setOptionsMsg{beside: d.beside, opts: []spec.Option{{Name: o.Name}}, press: true}, nil
		}
	}
	return false, nil, nil
}

// move moves the selection by n rows, scrolling to keep it shown.
func (d *optionsDialog) move(n int) {
	d.sel = min(max(d.sel+n, 0), len(d.opts)-1)
	if n == 1 && d.sel == 0 || n == -1 && d.sel == len(d.opts)-1 {
		return
	}
	d.top = min(max(d.top, d.sel-optionRows+1), d.sel)
}

func (d *optionsDialog) set(v string) {
	d.values[d.sel], d.changed[d.sel] = v, true
}

func dropLast(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return string(r[:len(r)-1])
}

// submit checks the changed values (spec.Check): the first refused is
// selected with its reason; else the dialog closes and sets them.
func (d *optionsDialog) submit() (bool, tea.Msg, tea.Cmd) {
	var set []spec.Option
	for i, o := range d.opts {
		if !d.changed[i] || o.Type == "button" {
			continue
		}
		c, err := spec.Check(d.declared, spec.Option{Name: o.Name, Value: d.values[i]})
		if err != nil {
			d.sel, d.err = i, termtext.SafeLine(err.Error())
			d.top = min(max(d.top, d.sel-optionRows+1), d.sel)
			return false, nil, nil
		}
		set = append(set, c)
	}
	if len(set) == 0 {
		return true, noteMsg("options not changed"), nil
	}
	return true, setOptionsMsg{beside: d.beside, opts: set}, nil
}

func (d *optionsDialog) view(st *view.Styles, width int) string {
	inner := max(20, width-4)
	var b strings.Builder
	b.WriteString(st.Title.Render(termtext.Cut("Options · "+termtext.SafeLine(d.engine), inner)) + "\n\n")
	if len(d.opts) == 0 {
		b.WriteString("the engine declares no option to set here\n")
	}
	nameW := min(18, inner*2/5)
	for i := d.top; i < min(len(d.opts), d.top+optionRows); i++ {
		o := d.opts[i]
		name := termtext.Cut(termtext.SafeLine(o.Name), nameW)
		name += strings.Repeat(" ", nameW-len([]rune(name)))
		val := d.shown(i, inner-nameW-5) // room for the mark of a change
		line := "  " + name + " " + val
		if i == d.sel {
			line = st.Selected.Render("▸ "+name) + " " + val
		}
		if d.changed[i] {
			line += st.Accent.Render(" •")
		}
		b.WriteString(line + "\n")
	}
	if n := len(d.opts); n > optionRows {
		b.WriteString(st.Muted.Render(fmt.Sprintf("  %d–%d of %d", d.top+1, min(n, d.top+optionRows), n)) + "\n")
	}
	if d.err != "" {
		b.WriteString(st.Err.Render(strings.Join(view.WrapWords(d.err, inner), "\n")) + "\n")
	}
	keys := "↑↓ option · " + d.hint() + " · enter set · esc cancel"
	b.WriteString("\n" + st.Muted.Render(strings.Join(view.WrapWords(keys, inner), "\n")))
	return st.Dialog.Render(b.String())
}

// shown is option i's value as the dialog writes it, in w cells.
func (d *optionsDialog) shown(i, w int) string {
	o, v := d.opts[i], termtext.SafeLine(d.values[i])
	switch o.Type {
	case "spin":
		return termtext.Cut(fmt.Sprintf("%s  (%d–%d)", v, o.Min, o.Max), w)
	case "check":
		if v == "true" {
			return "[x]"
		}
		return "[ ]"
	case "combo":
		return termtext.Cut("‹ "+v+" ›", w)
	case "button":
		return "(button)"
	}
	if v == "" {
		return `""`
	}
	return termtext.Cut(v, w)
}

// hint says what the selected option's keys do.
func (d *optionsDialog) hint() string {
	if len(d.opts) == 0 {
		return ""
	}
	switch d.opts[d.sel].Type {
	case "spin":
		return "type or ←→"
	case "check":
		return "space toggles"
	case "combo":
		return "←→ choose"
	case "button":
		return "space presses"
	}
	return "type"
}

// openOptions opens the options dialog of the board's engine or the one
// beside it.
func (m *Model) openOptions(beside bool) {
	e := m.boardEngine(beside)
	if e == nil || e.analyzer() == nil {
		m.setError(fmt.Errorf("no engine runs there"))
		return
	}
	known := append(spec.Int("Threads", m.opt.Settings.Threads), spec.Int("Hash", m.opt.Settings.Hash)...)
	known = append(known, m.opt.Settings.Options[e.name]...)
	m.dialog = newOptionsDialog(e.analyzer(), beside, known)
}

// boardEngine is the board's engine, or the one beside it (nil: none).
func (m *Model) boardEngine(beside bool) *boardEngine {
	if beside {
		return m.search.beside
	}
	return &m.search.boardEngine
}

// setOptions sets options on an engine before its next search, which
// starts now if it was searching, and remembers them for it in the
// config (a button's press is not remembered).
func (m *Model) setOptions(msg setOptionsMsg) tea.Cmd {
	e := m.boardEngine(msg.beside)
	if e == nil || e.analyzer() == nil {
		return nil
	}
	e.options = append(e.options, msg.opts...)
	names := make([]string, len(msg.opts))
	for i, o := range msg.opts {
		names[i] = termtext.SafeLine(o.String())
	}
	what := termtext.SafeLine(e.analyzer().Name()) + ": " + strings.Join(names, ", ")
	var save tea.Cmd
	if msg.press {
		what = termtext.SafeLine(e.analyzer().Name()) + ": " + termtext.SafeLine(msg.opts[0].Name) + " pressed"
	} else {
		m.opt.Settings.Remember(e.name, msg.opts)
		what += savedNote(m.opt.ConfigPath)
		save = m.saveSettings()
	}
	m.setMessage(what)
	e.stop() // its next search sets them: started now if it searched
	if !msg.beside {
		m.search.held = 0
	}
	return tea.Batch(save, m.sync())
}
