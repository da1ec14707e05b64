package tui

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/view"
)

// dialog is a modal box drawn in place of the side panel: it takes every
// key until it closes. It knows nothing of the board: what a key asks of
// the board comes back as a message (answers.go), which the board acts on
// at once.
type dialog interface {
	// key handles a key press: close reports that the dialog is done,
	// answer (nil: none) is what it asks of the board, and cmd is a
	// command of the dialog's own (a text field's, tab's completion).
	key(k tea.KeyMsg) (close bool, answer tea.Msg, cmd tea.Cmd)
	view(st *view.Styles, width int) string
}

// promotionDialog asks which piece a pawn becomes.
type promotionDialog struct {
	moves [4]chess.Move // queen, rook, bishop, knight
	sel   int
}

var promotionPieces = []chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight}

// newPromotion finds the promotions from→to in pos; ok is false if there
// are none.
func newPromotion(pos *chess.Position, from, to chess.Square) (*promotionDialog, bool) {
	d := &promotionDialog{}
	var ml chess.MoveList
	pos.GenerateLegal(&ml)
	n := 0
	for _, mv := range ml.Slice() {
		if mv.From() == from && mv.To() == to && mv.Promotion() != chess.NoPieceType {
			for i, t := range promotionPieces {
				if mv.Promotion() == t {
					d.moves[i] = mv
					n++
				}
			}
		}
	}
	return d, n == 4
}

func (d *promotionDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	switch k.String() {
	case "esc":
		return true, noteMsg("promotion cancelled"), nil
	case "left", "h", "up", "k":
		d.sel = (d.sel + 3) % 4
	case "right", "l", "down", "j", "tab":
		d.sel = (d.sel + 1) % 4
	case "q", "Q":
		return true, playMoveMsg{d.moves[0]}, nil
	case "r", "R":
		return true, playMoveMsg{d.moves[1]}, nil
	case "b", "B":
		return true, playMoveMsg{d.moves[2]}, nil
	case "n", "N":
		return true, playMoveMsg{d.moves[3]}, nil
	case "enter", " ":
		return true, playMoveMsg{d.moves[d.sel]}, nil
	}
	return false, nil, nil
}

func (d *promotionDialog) view(st *view.Styles, width int) string {
	var b strings.Builder
	b.WriteString(st.Title.Render("Promote to") + "\n\n")
	names := []string{"Queen", "Rook", "Bishop", "Knight"}
	for i, n := range names {
		line := fmt.Sprintf(" %c  %s ", promotionPieces[i].Letter(), n)
		if i == d.sel {
			line = st.Selected.Render(line)
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n" + st.Muted.Render("q r b n · enter · esc"))
	return st.Dialog.Render(b.String())
}

// newGameDialog sets up a game: mode, colour, level, clock. It opens on
// the choices made last time (a 3+2 game is followed by another 3+2 unless
// the clock is changed) and shows only the fields the mode uses.
type newGameDialog struct {
	row int
	newGameChoices
	// given says the board was started on a position of its own (--fen,
	// --960): the usual start is that one.
	given bool
}

// newGameChoices are the new-game dialog's fields, kept by the board
// between games.
type newGameChoices struct {
	mode, color, level, tc int
	gameStart              // newgamestart.go
}

var timeControls = []struct {
	name      string
	base, inc time.Duration
}{
	{"none", 0, 0}, {"1+0", time.Minute, 0}, {"3+2", 3 * time.Minute, 2 * time.Second},
	{"5+0", 5 * time.Minute, 0}, {"10+5", 10 * time.Minute, 5 * time.Second},
	{"15+10", 15 * time.Minute, 10 * time.Second}, {"30+0", 30 * time.Minute, 0},
}

// timeControlIndex is the entry of timeControls for base+inc; 0 (none)
// for one not listed.
func timeControlIndex(base, inc time.Duration) int {
	for i, tc := range timeControls {
		if tc.base == base && tc.inc == inc {
			return i
		}
	}
	return 0
}

var colorChoices = []string{"White", "Black", "random"}

// dialogField is one row of the new-game dialog.
type dialogField struct {
	label string
	val   *int
	names []string
}

// fields are the rows that apply to the chosen mode: the colour only
// against the engine, the level only where an engine plays, the clock
// only where a game is played.
func (d *newGameDialog) fields() []dialogField {
	levels := make([]string, len(Levels))
	for i, l := range Levels {
		levels[i] = l.Name
	}
	tcs := make([]string, len(timeControls))
	for i, tc := range timeControls {
		tcs[i] = tc.name
	}
	f := []dialogField{{"Mode", &d.mode, modeNames}, d.startField()}
	switch Mode(d.mode) {
	case VsEngine:
		f = append(f, dialogField{"Play as", &d.color, colorChoices}, dialogField{"Level", &d.level, levels}, dialogField{"Clock", &d.tc, tcs})
	case Watch:
		f = append(f, dialogField{"Level", &d.level, levels}, dialogField{"Clock", &d.tc, tcs})
	case TwoHumans:
		f = append(f, dialogField{"Clock", &d.tc, tcs})
	}
	return f
}

func (d *newGameDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	f := d.fields()
	d.row = min(d.row, len(f)-1)
	cur := f[d.row]
	switch k.String() {
	case "esc", "q":
		return true, nil, nil
	case "up", "k", "shift+tab":
		d.row = (d.row + len(f) - 1) % len(f)
	case "down", "j", "tab":
		d.row = (d.row + 1) % len(f)
	case "left", "h":
		*cur.val = (*cur.val + len(cur.names) - 1) % len(cur.names)
	case "right", "l", " ":
		*cur.val = (*cur.val + 1) % len(cur.names)
	case "enter":
		return true, newGameMsg{d.newGameChoices}, nil
	default:
		if cur.val == &d.start {
			d.typeNumber(k)
		}
	}
	return false, nil, nil
}

// newGame starts a game with the new-game dialog's choices (a random
// colour drawn now), once unsaved analysis is dealt with.
func (m *Model) newGame(c newGameChoices) tea.Cmd {
	human := chess.White
	switch c.color {
	case 1:
		human = chess.Black
	case 2:
		if m.opt.Now().UnixNano()&1 == 1 {
			human = chess.Black
		}
	}
	tc := timeControls[c.tc]
	if mode := Mode(c.mode); mode == Analysis {
		tc = timeControls[0] // analysis has no clock
	}
	start, err := c.position()
	if err != nil {
		m.setError(err)
		return nil
	}
	return m.whenSaved("start a new game", startGameMsg{choices: c, human: human, base: tc.base, inc: tc.inc, start: start})
}

func (d *newGameDialog) view(st *view.Styles, width int) string {
	var b strings.Builder
	b.WriteString(st.Title.Render("New game") + "\n\n")
	f := d.fields()
	for i, r := range f {
		v := "‹ " + r.names[*r.val] + " ›"
		if i == min(d.row, len(f)-1) {
			v = st.Selected.Render(v)
		}
		b.WriteString(fmt.Sprintf("%-8s %s\n", r.label, v))
	}
	keys := "↑↓ field · ←→ change\nenter start · esc cancel"
	if cur := f[min(d.row, len(f)-1)]; cur.val == &d.start && d.start == startChess960 {
		keys = "type 0-959 · " + keys
	}
	b.WriteString("\n" + st.Muted.Render(keys))
	return st.Dialog.Render(b.String())
}

// levelDialog sets the engine's level (L). A level is chosen, never cycled
// by one stray key: in a game it applies from the engine's next move.
type levelDialog struct {
	sel    int
	inGame bool
}

func (d *levelDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	switch k.String() {
	case "esc", "q":
		return true, nil, nil
	case "up", "k", "left", "h":
		d.sel = (d.sel + len(Levels) - 1) % len(Levels)
	case "down", "j", "right", "l", " ":
		d.sel = (d.sel + 1) % len(Levels)
	case "enter":
		return true, levelMsg{level: d.sel, inGame: d.inGame}, nil
	}
	return false, nil, nil
}

// setLevel sets the engine's level (an index into Levels): in a game
// (inGame), from its next move.
func (m *Model) setLevel(level int, inGame bool) {
	if level == m.level {
		return
	}
	m.level = level
	m.lastNew.level = level
	when := "for the next game"
	if inGame {
		when = "from its next move"
		m.tagPlayers()
	}
	m.setMessage("engine level " + Levels[m.level].Name + " " + when)
}

func (d *levelDialog) view(st *view.Styles, width int) string {
	var b strings.Builder
	title := "Engine level"
	if d.inGame {
		title += ", from its next move"
	}
	b.WriteString(st.Title.Render(termtext.Cut(title, max(10, width-4))) + "\n\n")
	for i, l := range Levels {
		line := "  " + l.Name
		if i == d.sel {
			line = st.Selected.Render("▸ " + l.Name)
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n" + st.Muted.Render("↑↓ choose · enter set · esc cancel"))
	return st.Dialog.Render(b.String())
}

// newGameCmd ends the current game (autosaving it) and starts another,
// from start (nil: the board's usual start).
func (m *Model) newGameCmd(mode Mode, human chess.Color, level int, base, inc time.Duration, start *chess.Position) tea.Cmd {
	var save tea.Cmd
	if !m.over && m.mode != Analysis && m.cur.Ply() > 0 {
		save = m.autosave() // the unfinished game stays in the file with result *
	}
	m.search.stop()
	m.startGame(mode, human, level, base, inc, start)
	m.analysisOn = m.analysisOn || mode == Analysis
	m.setMessage("new game: " + mode.String())
	return tea.Sequence(save, tea.Batch(m.sync(), m.startTicking()))
}

// promptDialog asks for one line of text (a path, a FEN).
type promptDialog struct {
	title string
	in    textinput.Model
	// submit is the answer to the text entered; cancel, when set, the
	// answer to esc.
	submit func(s string) tea.Msg
	cancel tea.Msg
	// check, when set, is asked before submit: an error keeps the dialog
	// open with the text as typed and the error under it (a bad FEN used
	// to close the dialog and lose the text).
	check func(s string) error
	err   string
	// hint, when set, says under the field what to type.
	hint string
	// paths says the text is a file name: tab completes it (pathsMsg).
	paths   bool
	choices []string // the names tab found, when more than one
}

func newPrompt(st *view.Styles, title, value string, submit func(string) tea.Msg) *promptDialog {
	in := textinput.New()
	in.Prompt = "> "
	in.SetValue(value)
	in.CharLimit = 512
	in.Width = 40
	in.PromptStyle = st.Accent
	in.Focus()
	return &promptDialog{title: title, in: in, submit: submit}
}

func (d *promptDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	switch k.String() {
	case "esc":
		return true, d.cancel, nil
	case "enter":
		v := strings.TrimSpace(d.in.Value())
		if d.check != nil && v != "" {
			if err := d.check(v); err != nil {
				d.err = termtext.SafeLine(err.Error())
				return false, nil, nil
			}
		}
		return true, d.submit(v), nil
	case "tab":
		if d.paths {
			return false, nil, completePath(d.in.Value())
		}
	}
	d.err, d.choices = "", nil
	var cmd tea.Cmd
	d.in, cmd = d.in.Update(k)
	return false, nil, cmd
}

func (d *promptDialog) view(st *view.Styles, width int) string {
	inner := max(10, width-4)
	if w := max(10, width-9); w != d.in.Width {
		// The field scrolls to its cursor for its width: a text it
		// opened with (a long path) was drawn whole past the box.
		d.in.Width = w
		d.in.SetCursor(d.in.Position())
	}
	body := st.Title.Render(termtext.Cut(d.title, inner)) + "\n\n" + d.in.View()
	if d.hint != "" {
		body += "\n" + st.Muted.Render(strings.Join(view.WrapWords(d.hint, inner), "\n"))
	}
	if d.err != "" {
		body += "\n" + st.Err.Render(strings.Join(view.WrapWords(d.err, inner), "\n"))
	}
	if len(d.choices) > 0 {
		body += "\n" + st.Muted.Render(strings.Join(view.WrapWords(strings.Join(d.choices, "  "), inner), "\n"))
	}
	keys := "enter ok · esc cancel"
	if d.paths {
		keys = "tab complete · " + keys
	}
	return st.Dialog.Render(body + "\n\n" + st.Muted.Render(strings.Join(view.WrapWords(keys, inner), "\n")))
}

// pathsMsg is what tab found for a path typed in a prompt: the names in
// its directory that begin like it.
type pathsMsg struct {
	typed string
	names []string // base names, directories ending in "/"
}

// completePath lists, off the Update goroutine, the entries of typed's
// directory that begin with its last element.
func completePath(typed string) tea.Cmd {
	return func() tea.Msg {
		dir, base := filepath.Split(expandHome(typed))
		entries, err := os.ReadDir(cmp.Or(dir, "."))
		if err != nil {
			return pathsMsg{typed: typed}
		}
		var names []string
		for _, e := range entries {
			n := e.Name()
			if !strings.HasPrefix(n, base) || (strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".")) {
				continue
			}
			if e.IsDir() {
				n += "/"
			}
			names = append(names, n)
		}
		return pathsMsg{typed: typed, names: names}
	}
}

// completed takes tab's findings, if the text is still what was typed: one
// name completes it, several complete their common beginning and are
// listed under the field.
func (d *promptDialog) completed(msg pathsMsg) {
	if d.in.Value() != msg.typed {
		return
	}
	dir, _ := filepath.Split(msg.typed)
	switch len(msg.names) {
	case 0:
		d.err = "no file begins so"
		return
	case 1:
		d.choices = nil
	default:
		const most = 12
		d.choices = msg.names[:min(len(msg.names), most)]
		if len(msg.names) > most {
			d.choices = append(d.choices, fmt.Sprintf("+%d more", len(msg.names)-most))
		}
	}
	common := msg.names[0]
	for _, n := range msg.names[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	for i := range d.choices {
		d.choices[i] = termtext.SafeLine(d.choices[i])
	}
	d.in.SetValue(dir + common)
	d.in.CursorEnd()
}

// helpDialog is the full key help ("?"), drawn by the root over the whole
// body. Where it is taller than the screen, ↓/↑ (j/k, pgdn/pgup, space)
// scroll it; any other key closes it.
type helpDialog struct {
	top int // first line shown
	// lines is the help's length and page the lines a screen shows, as
	// the board last laid them out (Model.fitHelp).
	lines, page int
}

func (d *helpDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	page := max(1, d.page)
	last := max(0, d.lines-page)
	switch k.String() {
	case "down", "j":
		d.top = min(d.top+1, last)
	case "pgdown", " ":
		d.top = min(d.top+page, last)
	case "up", "k":
		d.top = max(d.top-1, 0)
	case "pgup":
		d.top = max(d.top-page, 0)
	default:
		return true, nil, nil
	}
	return last == 0, nil, nil // nothing to scroll: any key closes
}

// openHelp opens the full key help, laid out for the screen.
func (m *Model) openHelp() {
	d := &helpDialog{}
	m.dialog = d
	m.fitHelp()
}

// fitHelp tells the open help how long it is and how much of it a screen
// shows, which change with the screen's size.
func (m *Model) fitHelp() {
	if d, ok := m.dialog.(*helpDialog); ok {
		d.lines, d.page = len(m.helpLines()), m.height-bottomLines-1
	}
}

func (*helpDialog) view(st *view.Styles, width int) string { return "" } // drawn by the root

// cycleTheme switches to the next theme (built-in, then the user's).
func (m *Model) cycleTheme() {
	names := themes.Sorted(m.opt.Themes)
	m.themeIdx = (m.themeIdx + 1) % len(names)
	for i, n := range names {
		if n == m.st.Theme.Name {
			m.themeIdx = (i + 1) % len(names)
		}
	}
	t, _ := themes.ByName(names[m.themeIdx], m.opt.Themes...)
	m.st = view.NewStyles(m.r, t, m.opt.Letters)
	m.setMessage("theme: " + t.Name)
}

// saveSettings writes the preferences changed in the program back to the
// config file.
func (m *Model) saveSettings() tea.Cmd {
	if m.opt.ConfigPath == "" {
		return nil
	}
	s := m.opt.Settings
	if s.Theme == "" && s.Engine == "" { // none given (tests)
		defaults := DefaultSettings()
		defaults.Engines, defaults.Options, defaults.Beside = s.Engines, s.Options, s.Beside
		s = defaults
	}
	s.Theme = m.st.Theme.Name
	s.Score = "white"
	if m.panel.sideView {
		s.Score = "side"
	}
	m.opt.Settings = s
	path := m.opt.ConfigPath
	return func() tea.Msg {
		if err := SaveSettings(path, s); err != nil {
			return savedMsg{path: path, err: err}
		}
		return nil
	}
}
