package serve

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// TestTypeIntoSaysCut: a paste longer than the line takes is cut to its
// limit, and the note says so; ctrl+v reads no clipboard.
func TestTypeIntoSaysCut(t *testing.T) {
	in := textinput.New()
	in.CharLimit = 10
	in.Focus()
	if _, note := typeInto(&in, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("hello")}); note != "" {
		t.Errorf("a short paste says %q", note)
	}
	_, note := typeInto(&in, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("x", 1<<20)), Paste: true})
	if in.Value() != "helloxxxxx" || !strings.Contains(note, "cut to 10 characters") {
		t.Errorf("after a 1 MB paste the line is %q, the note %q", in.Value(), note)
	}
	if cmd, _ := typeInto(&in, tea.KeyMsg{Type: tea.KeyCtrlV}); cmd != nil {
		t.Error("ctrl+v asks for the server's clipboard")
	}
}
