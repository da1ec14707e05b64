package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// The tags dialog (T, issue 36): the game's tag pairs, the Seven Tag
// Roster first, each value edited in a text field; other tags added by
// name or deleted. What the board sets from the game itself (Result, and
// SetUp, FEN and Variant from the start position) is shown, not edited.
// Values come from files: they are drawn through termtext, and written
// back only when changed.

// tagMsg sets the tag name to value; del deletes it (a roster tag is
// reset to unknown, as pgn.Game.DeleteTag does).
type tagMsg struct {
	name, value string
	del         bool
}

// tagsDialog lists the tags; enter edits the one selected, + (or a) adds
// one, delete removes it.
type tagsDialog struct {
	st   *view.Styles
	tags []pgn.Tag
	sel  int
	// in is the field being edited: a tag's value (naming false) or a new
	// tag's name (naming true); nil while choosing.
	in     *textinput.Model
	naming bool
	name   string // the tag whose value is being edited
	shown  string // its value as the field opened with it
	err    string
}

// tagName is what PGN allows as a tag's name.
var tagName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// boardTag reports whether the board sets tag name from the game itself.
func boardTag(name string) bool {
	return name == "Result" || name == "SetUp" || name == "FEN" || name == "Variant"
}

func newTagsDialog(st *view.Styles, tags []pgn.Tag) *tagsDialog {
	return &tagsDialog{st: st, tags: slices.Clone(tags)}
}

// field opens the text field on value.
func (d *tagsDialog) field(value string) {
	st := d.st
	in := textinput.New()
	in.Prompt = "> "
	in.CharLimit = 255
	in.PromptStyle = st.Accent
	in.SetValue(value)
	in.Focus()
	d.in = &in
}

func (d *tagsDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	if d.in != nil {
		return d.editKey(k)
	}
	d.err = ""
	switch k.String() {
	case "esc", "q", "T":
		return true, nil, nil
	case "up", "k":
		d.sel = (d.sel + len(d.tags) - 1) % max(1, len(d.tags))
	case "down", "j", "tab":
		d.sel = (d.sel + 1) % max(1, len(d.tags))
	case "enter":
		if t, ok := d.editable(); ok {
			d.name, d.shown = t.Name, termtext.SafeLine(t.Value)
			d.field(d.shown)
		}
	case "+", "a":
		d.naming = true
		d.field("")
		d.in.Placeholder = "tag name, e.g. WhiteElo"
	case "delete", "backspace", "d":
		if t, ok := d.editable(); ok {
			return false, tagMsg{name: t.Name, del: true}, nil
		}
	}
	return false, nil, nil
}

// editable is the tag selected, if the user may change it (else the
// dialog says why).
func (d *tagsDialog) editable() (pgn.Tag, bool) {
	if len(d.tags) == 0 {
		return pgn.Tag{}, false
	}
	t := d.tags[d.sel]
	if boardTag(t.Name) {
		d.err = t.Name + " is set by the game itself"
		return t, false
	}
	return t, true
}

// editKey takes a key while a name or value is typed.
func (d *tagsDialog) editKey(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	switch k.String() {
	case "esc":
		d.in, d.naming, d.err = nil, false, ""
		return false, nil, nil
	case "enter":
		v := strings.TrimSpace(d.in.Value())
		if d.naming {
			switch {
			case !tagName.MatchString(v):
				d.err = "a tag's name is letters, digits and _, a letter first"
				return false, nil, nil
			case boardTag(v):
				d.err = v + " is set by the game itself"
				return false, nil, nil
			}
			d.naming, d.name, d.shown = false, v, ""
			for _, t := range d.tags {
				if t.Name == v {
					d.shown = termtext.SafeLine(t.Value)
				}
			}
			d.in.SetValue(d.shown)
			d.in.Placeholder = ""
			return false, nil, nil
		}
		d.in = nil
		if v == d.shown {
			return false, noteMsg(d.name + " unchanged"), nil
		}
		return false, tagMsg{name: d.name, value: v}, nil
	}
	in, cmd := d.in.Update(k)
	d.in = &in
	return false, nil, cmd
}

// update shows the tags as they now are, the selection on name.
func (d *tagsDialog) update(tags []pgn.Tag, name string) {
	d.tags = slices.Clone(tags)
	if i := slices.IndexFunc(d.tags, func(t pgn.Tag) bool { return t.Name == name }); i >= 0 {
		d.sel = i
	}
	d.sel = min(d.sel, max(0, len(d.tags)-1))
}

func (d *tagsDialog) view(st *view.Styles, width int) string {
	inner := max(10, width-4)
	var b strings.Builder
	b.WriteString(st.Title.Render("Tags") + "\n\n")
	nameW := 5
	for _, t := range d.tags {
		nameW = max(nameW, min(len(t.Name), 14))
	}
	for i, t := range d.tags {
		line := termtext.Cut(view.Pad(termtext.Cut(t.Name, nameW), nameW)+"  "+termtext.SafeLine(t.Value), inner)
		switch {
		case i == d.sel:
			line = st.Selected.Render(line)
		case boardTag(t.Name):
			line = st.Muted.Render(line)
		}
		b.WriteString(line + "\n")
	}
	if d.in != nil {
		d.in.Width = max(10, inner-3)
		label := "New tag's name"
		if !d.naming {
			label = termtext.SafeLine(d.name)
		}
		b.WriteString("\n" + st.Accent.Render(termtext.Cut(label, inner)) + "\n" + d.in.View() + "\n")
	}
	if d.err != "" {
		b.WriteString("\n" + st.Err.Render(strings.Join(view.WrapWords(d.err, inner), "\n")) + "\n")
	}
	help := "↑↓ tag · enter edit · + add · del delete · esc close"
	if d.in != nil {
		help = "enter set · esc cancel"
	}
	b.WriteString("\n" + st.Muted.Render(strings.Join(view.WrapWords(help, inner), "\n")))
	return st.Dialog.Render(b.String())
}

// openTags opens the tags dialog on the game: its tags as they will be
// saved (the roster filled in, Result and the start position's from the
// game).
func (m *Model) openTags() {
	m.dialog = newTagsDialog(m.st, m.savedTags())
}

// savedTags are the game's tags as a save writes them, the roster first
// (every game on the board has it: pgn.NewGame and the reader fill it).
func (m *Model) savedTags() []pgn.Tag { return m.tree.header().Tags }

// setTag makes the change the tags dialog asks for.
func (m *Model) setTag(msg tagMsg) {
	if msg.del {
		m.tree.DeleteTag(msg.name)
		m.setMessage(fmt.Sprintf("tag %s deleted", termtext.Cut(msg.name, 20)))
	} else {
		m.tree.SetTag(msg.name, msg.value)
		m.setMessage(fmt.Sprintf("tag %s set", termtext.Cut(msg.name, 20)))
	}
	m.annotated()
	if d, ok := m.dialog.(*tagsDialog); ok {
		d.update(m.savedTags(), msg.name)
	}
}
