package serve

import (
	"github.com/squall-chess/squall/engine"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func testRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(&strings.Builder{})
	r.SetColorProfile(termenv.Ascii)
	return r
}

// waitSnap feeds the model room snapshots until one has analysis lines.
func waitSnap(t *testing.T, m *sessionModel) {
	t.Helper()
	deadline := time.After(2 * time.Second)
	for {
		select {
		case s := <-m.updates:
			m.Update(snapshotMsg{m.updates, s})
			if len(s.Lines) > 0 {
				return
			}
		case <-deadline:
			t.Fatal("no analysis reached the session")
		}
	}
}

func TestSessionResizeChangesLayout(t *testing.T) {
	h := NewHub(nil, 1)
	defer h.Close("")
	if _, err := h.Create("r"); err != nil {
		t.Fatal(err)
	}
	m, err := newSessionModel(h, testRenderer(), Viewer, []string{"room", "r"}, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(snapshotMsg{m.updates, <-m.updates})
	small := m.View()
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	large := m.View()
	if strings.Count(large, "\n") <= strings.Count(small, "\n")+7 {
		t.Errorf("large window did not get a taller board:\nsmall:\n%s\nlarge:\n%s", small, large)
	}
	if !strings.Contains(small, "8 ") || !strings.Contains(small, " a ") {
		t.Errorf("board lacks coordinates:\n%s", small)
	}
}

func TestSessionViewerSettingsArePrivate(t *testing.T) {
	fe := &fakeEngine{tick: 5 * time.Millisecond}
	h := NewHub(func() (engine.Analyzer, error) { return fe, nil }, 1)
	defer h.Close("")
	r, _ := h.Create("r")
	r.StartAnalysis()
	a, _ := newSessionModel(h, testRenderer(), Viewer, []string{"room", "r"}, 100, 30)
	b, _ := newSessionModel(h, testRenderer(), Viewer, []string{"room", "r"}, 100, 30)
	waitSnap(t, a)
	waitSnap(t, b)
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	if !a.flip || b.flip {
		t.Fatal("flipping one viewer's board affected the other")
	}
	if !strings.Contains(a.View(), "depth") {
		t.Errorf("no depth line in the panel:\n%s", a.View())
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	if strings.Contains(a.View(), "depth") {
		t.Error("panel still shown after p")
	}
}
