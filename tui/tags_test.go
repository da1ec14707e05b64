package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestTagsDialog: T lists the game's tags, the roster first; enter edits
// a value, + adds a tag by name, delete removes one (a roster tag goes
// back to "?"); Result and the start position's tags are the game's own;
// every change is in the PGN saved, and a file's escape sequence is shown
// as a mark, not sent to the terminal.
func TestTagsDialog(t *testing.T) {
	trees, err := ReadPGN(strings.NewReader("[Event \"Casual\"]\n[White \"A\x1b[31mred\"]\n[Black \"B\"]\n[Round \"3\"]\n[Annotator \"x\"]\n\n1. e4 e5 *\n"), "a.pgn")
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Games: trees})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("T"))
	d, ok := m.dialog.(*tagsDialog)
	if !ok {
		t.Fatalf("T opened %T", m.dialog)
	}
	var names []string
	for _, tg := range d.tags {
		names = append(names, tg.Name)
	}
	if got := strings.Join(names, " "); got != "Event Site Date Round White Black Result Annotator" {
		t.Errorf("tags %s", got)
	}
	shown := m.View()
	if strings.Contains(shown, "\x1b[31mred") {
		t.Error("a tag's escape sequence reached the terminal")
	}

	pick := func(name string) {
		t.Helper()
		d := m.dialog.(*tagsDialog)
		for d.tags[d.sel].Name != name {
			m = send(m, press("down"))
		}
	}
	// White: edited.
	pick("White")
	m = send(m, press("enter"), press("ctrl+u"))
	m = typeText(m, "Carlsen, Magnus")
	m = send(m, press("enter"))
	// A new tag.
	m = send(m, press("+"))
	m = typeText(m, "WhiteElo")
	m = send(m, press("enter"))
	m = typeText(m, "2830")
	m = send(m, press("enter"))
	// Round deleted (reset), Annotator deleted.
	pick("Round")
	m = send(m, press("delete"))
	pick("Annotator")
	m = send(m, press("delete"))
	// Result is the game's.
	pick("Result")
	m = send(m, press("enter"))
	if says := ansi.Strip(m.dialog.view(m.st, 200)); !strings.Contains(says, "Result is set by the game itself") {
		t.Errorf("Result edited:\n%s", says)
	}
	// A bad name is refused.
	m = send(m, press("+"))
	m = typeText(m, "9 lives")
	m = send(m, press("enter"))
	if says := ansi.Strip(m.dialog.view(m.st, 200)); !strings.Contains(says, "a tag's name is letters") {
		t.Errorf("bad name taken:\n%s", says)
	}
	m = send(m, press("esc"), press("esc"))
	if m.dialog != nil {
		t.Fatalf("esc esc left %T open", m.dialog)
	}
	pgnText := m.tree.Export().String()
	for _, want := range []string{`[White "Carlsen, Magnus"]`, `[Round "?"]`, `[WhiteElo "2830"]`, `[Event "Casual"]`} {
		if !strings.Contains(pgnText, want) {
			t.Errorf("saved PGN lacks %s:\n%s", want, pgnText)
		}
	}
	if strings.Contains(pgnText, "Annotator") {
		t.Errorf("Annotator not deleted:\n%s", pgnText)
	}
	if !m.unsaved() {
		t.Error("tag changes are not unsaved work")
	}
}
