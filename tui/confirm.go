package tui

import (
	"cmp"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// choiceDialog asks a question with a few answers, one key each: replace a
// file (y/n), quit with unsaved work (save/discard/cancel), resign (y/n).
// It is the one way the board asks before doing something that cannot be
// undone, so that one stray key never ends a game or loses work.
type choiceDialog struct {
	title, question string
	choices         []choice
	// cancel is the answer to esc (nil: none); esc always closes the
	// dialog.
	cancel tea.Msg
	// quit marks the question asked before quitting: ctrl+c again quits.
	quit bool
	// escLabel says what esc does ("" : cancel).
	escLabel string
}

// choice is one answer: the key that gives it, the word shown, and what
// it asks of the board (nil: nothing).
type choice struct {
	key    string
	label  string
	answer tea.Msg
}

func (d *choiceDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	ks := k.String()
	if ks == "esc" {
		return true, d.cancel, nil
	}
	for _, c := range d.choices {
		if ks == c.key || strings.EqualFold(ks, c.key) {
			return true, c.answer, nil
		}
	}
	return false, nil, nil
}

func (d *choiceDialog) view(st *view.Styles, width int) string {
	inner := max(10, width-4) // the dialog's border and padding
	var keys []string
	for _, c := range d.choices {
		keys = append(keys, c.key+" "+c.label)
	}
	info := len(d.choices) == 1 && d.choices[0].key == "enter" // a notice: esc is ok too
	if !info && (len(d.choices) == 0 || d.choices[len(d.choices)-1].label != "cancel") {
		keys = append(keys, "esc "+cmp.Or(d.escLabel, "cancel"))
	}
	q := strings.Join(view.Wrap(d.question, inner), "\n")
	help := strings.Join(view.WrapWords(strings.Join(keys, " · "), inner), "\n")
	title := termtext.Cut(d.title, inner)
	return st.Dialog.Render(st.Title.Render(title) + "\n\n" + st.Text.Render(q) + "\n\n" + st.Muted.Render(help))
}

// confirm is a yes/no choiceDialog: y answers yes, n and esc nothing.
func confirm(title, question, yesLabel string, yes tea.Msg) *choiceDialog {
	return &choiceDialog{title: title, question: question, choices: []choice{
		{key: "y", label: yesLabel, answer: yes},
		{key: "n", label: "cancel"},
	}}
}
