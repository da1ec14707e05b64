package serve

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestTitleSaysYourMove (issue 37, focus): the terminal's title says when
// it is the player's move, whose game it is and, at the end, the result;
// it is written only when it changes.
func TestTitleSaysYourMove(t *testing.T) {
	_, p := startPlayServer(t)
	ann, bob := startGame(t, p) // after 1. e4 e5: White to move
	if ann.title != "▶ your move · vs bob · Squall" || bob.title != "vs ann · Squall" {
		t.Errorf("after 1. e4 e5: ann's title %q, bob's %q", ann.title, bob.title)
	}
	enter(ann, "Nf3", bob)
	if ann.title != "vs bob · Squall" || bob.title != "▶ your move · vs ann · Squall" {
		t.Errorf("after 2. Nf3: ann's title %q, bob's %q", ann.title, bob.title)
	}
	if cmd := bob.retitle(bob.title); cmd != nil {
		t.Error("the same title written again")
	}
	if cmd := bob.retitle("x"); cmd == nil || cmd() != tea.SetWindowTitle("x")() {
		t.Error("a new title not written")
	}
	enter(ann, "resign", bob)
	if ann.title != "Black wins by resignation · vs bob · Squall" {
		t.Errorf("after ann resigned: %q", ann.title)
	}
}
