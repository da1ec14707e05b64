package serve

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/tui/view"
)

// TestReviewPane: the one review over the game, spectator and profile
// screens — the screen's own messages (by type, a generic alias's
// instance told from another's) stay the screen's, the rest go to the
// review; its close hands its engine's slot back; none open takes
// nothing.
func TestReviewPane(t *testing.T) {
	_, p := startPlayServer(t)
	var r reviewPane
	mine := screenMsgsOf(clockTickMsg{}, gameUpdateMsg{}, sshd.ClosingMsg(""))
	if _, taken := r.update(tea.KeyMsg{Type: tea.KeyDown}, mine); taken || r.isOpen() {
		t.Fatal("a pane with no review took a key")
	}
	life := &lifetime{}
	e := &play.Ended{ID: "g", PGN: pgnOf(t, []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"})}
	if _, err := r.open(p, sessionStyles(testRenderer()), e, nil, chess.Black, life, "ssh host pgn g", 100, 30); err != nil {
		t.Fatal(err)
	}
	if len(p.Reviews) != 1 {
		t.Fatalf("%d review slots taken, want 1", len(p.Reviews))
	}
	for _, msg := range []tea.Msg{clockTickMsg{}, gameUpdateMsg{}, sshd.ClosingMsg("x")} {
		if _, taken := r.update(msg, mine); taken {
			t.Errorf("the review took the screen's %T", msg)
		}
	}
	for _, msg := range []tea.Msg{tea.KeyMsg{Type: tea.KeyDown}, tea.WindowSizeMsg{Width: 100, Height: 30}, analysisMsg{}} {
		if _, taken := r.update(msg, mine); !taken {
			t.Errorf("the screen kept the review's %T", msg)
		}
	}
	if _, ok := r.view(100, 30); !ok {
		t.Error("an open review is not drawn")
	}
	if _, taken := r.update(view.CloseMsg{}, mine); !taken || r.isOpen() || len(p.Reviews) != 0 {
		t.Errorf("closed: taken %v, open %v, slots %d", taken, r.isOpen(), len(p.Reviews))
	}
	if _, ok := r.view(100, 30); ok {
		t.Error("a closed review is drawn")
	}
}
