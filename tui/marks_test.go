package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestMarkKeys: A e2e4 enter draws a green arrow after the shown move,
// on the board and in the PGN as lichess writes it ([%cal Ge2e4]); a
// colour letter and a square mark a square; the file saved has both;
// ctrl+z takes each off again. A mistyped mark keeps the prompt open with
// the reason; with the cursor shown the prompt starts at its square.
func TestMarkKeys(t *testing.T) {
	m := annotating(t, Options{})
	orig := movetextOf(t, m)
	m = send(m, press("right"), press("A"))
	d, ok := m.dialog.(*promptDialog)
	if !ok || d.title != "Arrow or square after 1. e4" {
		t.Fatalf("A opened %T %+v", m.dialog, m.dialog)
	}
	m = typeText(m, "e2e4")
	golden(t, "mark-prompt", m.View())
	m = send(m, press("enter"))
	if got := movetextOf(t, m); got != "1. e4 {[%cal Ge2e4]} 1... e5 (1... c5 2. Nf3 (2. Nc3 Nc6)) 2. Nf3 *" {
		t.Fatalf("after A e2e4: %s", got)
	}
	if m.message != "green arrow e2→e4 drawn · A again takes it off" {
		t.Errorf("message %q", m.message)
	}
	if v := ansi.Strip(m.View()); strings.Count(v, "↑") != 2 {
		t.Errorf("the arrow is not on the board (e3 and e4 show ↑):\n%s", v)
	}

	// Mistyped: the prompt stays, saying why; esc leaves the game as it was.
	m = send(m, press("A"))
	m = typeText(m, "e2e9")
	m = send(m, press("enter"))
	if d, ok := m.dialog.(*promptDialog); !ok || !strings.Contains(d.err, "type a square (d4) or two (e2e4)") {
		t.Fatalf("a bad mark: dialog %T %+v", m.dialog, m.dialog)
	}
	m = send(m, press("esc"))

	m = send(m, press("A"))
	m = typeText(m, "R d4")
	m = send(m, press("enter"))
	want := "1. e4 {[%csl Rd4] [%cal Ge2e4]} 1... e5 (1... c5 2. Nf3 (2. Nc3 Nc6)) 2. Nf3 *"
	if got := movetextOf(t, m); got != want {
		t.Fatalf("after A R d4: %s", got)
	}
	path := filepath.Join(t.TempDir(), "marked.pgn")
	m = saveThroughModel(t, m, path)
	saved, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(saved), "1. e4 {[%csl Rd4] [%cal Ge2e4]} 1... e5") {
		t.Fatalf("saved: %v\n%s", err, saved)
	}
	back, err := readTestPGN(t, path)
	if err != nil || len(back) != 1 || len(back[0].Root.Children[0].Marks()) != 2 {
		t.Fatalf("read back: %v %v", back, err)
	}

	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	if got := movetextOf(t, m); got != "1. e4 {[%cal Ge2e4]} 1... e5 (1... c5 2. Nf3 (2. Nc3 Nc6)) 2. Nf3 *" {
		t.Errorf("one undo: %s", got)
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	if got := movetextOf(t, m); got != orig {
		t.Errorf("two undos: %s, want %s", got, orig)
	}
	if v := ansi.Strip(m.View()); strings.Contains(v, "↑") {
		t.Errorf("the arrow is still drawn after ctrl+z:\n%s", v)
	}

	// The cursor's square is typed already (enter shows the cursor on e2).
	m = send(m, press("enter"), press("A"))
	if d, ok := m.dialog.(*promptDialog); !ok || d.in.Value() != "e2" {
		t.Fatalf("A with the cursor shown: %T %+v", m.dialog, m.dialog)
	}
}

// TestTypedMark: what the prompt takes, and what it refuses.
func TestTypedMark(t *testing.T) {
	for typed, want := range map[string]string{
		"e2e4": "Ge2e4", "E2-E4": "Ge2e4", "d4": "Gd4", "R d4": "Rd4", "d4 r": "Rd4",
		"ye2e4": "Ye2e4", "e2e4B": "Be2e4", "bb4": "Bb4", "b4b": "Bb4", "g1g": "Gg1",
		"b2b4": "Gb2b4", "bb2b4": "Bb2b4", "b2b4b": "Bb2b4", "g1f3": "Gg1f3",
	} {
		k, err := typedMark(typed)
		got := string(k.Colour) + k.From.String()
		if k.Arrow() {
			got += k.To.String()
		}
		if err != nil || got != want {
			t.Errorf("typedMark(%q) = %s, %v; want %s", typed, got, err, want)
		}
	}
	for _, bad := range []string{"", "e9", "x d4", "e2e", "e2e4e6", "Gd4d", "rr"} {
		if k, err := typedMark(bad); err == nil {
			t.Errorf("typedMark(%q) = %v", bad, k)
		}
	}
	if _, err := typedMark("e4e4"); err == nil || !strings.Contains(err.Error(), "two different squares") {
		t.Errorf("an arrow to its own square: %v", err)
	}
}

// TestFileEval: a game's [%eval] of the shown move fills the eval bar and
// is said in the panel while no engine runs, from White's view (or the
// mover's, v); a move without one shows none.
func TestFileEval(t *testing.T) {
	trees, err := ReadPGN(strings.NewReader("1. e4 { [%eval 0.35,18] } 1... e5 { [%eval -1.5] } 2. Nf3 *\n"), "e.pgn")
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Games: trees})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("right"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "file eval +0.35 · White's view") {
		t.Errorf("after 1. e4:\n%s", v)
	}
	m = send(m, tea.WindowSizeMsg{Width: 140, Height: 30}) // room for the depth too
	if v := ansi.Strip(m.View()); !strings.Contains(v, "file eval +0.35 · White's view · depth 18") {
		t.Errorf("after 1. e4, 140 wide:\n%s", v)
	}
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if c := m.whiteChances(); c <= 0 {
		t.Errorf("eval bar after 1. e4 at %.3f, want White ahead", c)
	}
	m = send(m, press("right"))
	if c := m.whiteChances(); c >= 0 {
		t.Errorf("eval bar after 1… e5 at %.3f, want Black ahead", c)
	}
	m = send(m, press("v"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "file eval -1.50 · mover's view") {
		t.Errorf("after 1… e5 from the mover's view (White):\n%s", v)
	}
	m = send(m, press("right"))
	if v := ansi.Strip(m.View()); strings.Contains(v, "file eval") || m.whiteChances() != 0 {
		t.Errorf("a move without [%%eval] shows one:\n%s", v)
	}
}
