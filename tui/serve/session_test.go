package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/boardview"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
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
	deadline := time.After(patience)
	for {
		select {
		case s := <-m.updates:
			m.Update(snapshotMsg{From: m.updates, Value: s, OK: true})
			if len(s.Lines) > 0 {
				return
			}
		case <-deadline:
			t.Fatal("no analysis reached the session")
		}
	}
}

func TestSessionResizeChangesLayout(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	if _, err := h.Create("r"); err != nil {
		t.Fatal(err)
	}
	m, err := newSessionModel(h, testRenderer(), sshd.Viewer, []string{"room", "r"}, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(snapshotMsg{From: m.updates, Value: <-m.updates, OK: true})
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
	fe := &enginetest.Engine{Tick: 5 * time.Millisecond}
	h := room.NewRooms(func() (engine.Analyzer, error) { return fe, nil }, 1)
	defer h.Close("")
	r, _ := h.Create("r")
	r.StartAnalysis()
	a, _ := newSessionModel(h, testRenderer(), sshd.Viewer, []string{"room", "r"}, 100, 30)
	b, _ := newSessionModel(h, testRenderer(), sshd.Viewer, []string{"room", "r"}, 100, 30)
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

// boardLines returns the view's lines that start with a rank number.
func boardLines(view string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(view, "\n") {
		if len(l) > 2 && l[0] >= '1' && l[0] <= '8' && l[1] == ' ' {
			out[l[:1]] = l
		}
	}
	return out
}

func TestSessionMonochromeBoardReadsWithoutColour(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	r, _ := h.Create("r")
	if err := r.MoveText("e4"); err != nil {
		t.Fatal(err)
	}
	m, err := newSessionModel(h, testRenderer(), sshd.Viewer, []string{"room", "r"}, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(snapshotMsg{From: m.updates, Value: r.Snapshot(), OK: true})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")}) // board alone
	rows := boardLines(m.View())
	// Small squares are 3 cells wide; dark squares are dotted (a1 is dark).
	// The eval bar (no engine: even) is '|' for Black's half, '#' for White's.
	if want := "8  r .n. b .q. k .b. n .r. ||"; rows["8"] != want {
		t.Errorf("rank 8 = %q, want %q", rows["8"], want)
	}
	if want := "4    ...   ...{P}...   ... ##"; rows["4"] != want {
		t.Errorf("rank 4 = %q, want %q (the last move's squares in braces)", rows["4"], want)
	}
	if !strings.Contains(rows["2"], "{ }") {
		t.Errorf("rank 2 = %q: e2 not marked as the move's origin", rows["2"])
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	if !m.st.Theme.Monochrome {
		t.Error("a colourless terminal was given a colour theme")
	}
}

func TestSessionThemeIsPerViewer(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	r, _ := h.Create("r")
	colour := func() *lipgloss.Renderer {
		cr := lipgloss.NewRenderer(&strings.Builder{})
		cr.SetColorProfile(termenv.TrueColor)
		return cr
	}
	a, _ := newSessionModel(h, colour(), sshd.Viewer, []string{"room", "r"}, 80, 24)
	b, _ := newSessionModel(h, colour(), sshd.Viewer, []string{"room", "r"}, 80, 24)
	a.Update(snapshotMsg{From: a.updates, Value: r.Snapshot(), OK: true})
	b.Update(snapshotMsg{From: b.updates, Value: r.Snapshot(), OK: true})
	before := a.View()
	if a.st.Theme.Monochrome {
		t.Fatal("a true-colour terminal got the monochrome theme")
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	if a.st.Theme.Name == b.st.Theme.Name {
		t.Fatalf("theme did not change (%s)", a.st.Theme.Name)
	}
	if a.View() == before {
		t.Error("the board was not redrawn in the new theme")
	}
	if b.View() != before {
		t.Error("one viewer's theme changed another's board")
	}
}

// TestSessionPiecesToggle: g switches this viewer between glyphs and
// letters, and a theme change keeps the choice.
func TestSessionPiecesToggle(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	r, _ := h.Create("r")
	cr := lipgloss.NewRenderer(&strings.Builder{})
	cr.SetColorProfile(termenv.TrueColor)
	m, _ := newSessionModel(h, cr, sshd.Viewer, []string{"room", "r"}, 100, 30)
	m.Update(snapshotMsg{From: m.updates, Value: r.Snapshot(), OK: true})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "♚") || strings.Contains(v, " K ") {
		t.Fatalf("default pieces are not glyphs:\n%s", v)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	if v := ansi.Strip(m.View()); strings.Contains(v, "♚") || !strings.Contains(v, " K ") {
		t.Fatalf("letters not kept across a theme change:\n%s", v)
	}
}

// TestSessionOwnerEscReturnsToList is issue 18's B1: an owner pressing Esc
// in a room crashed the session (leave cleared the room, then the owner's
// key handling asked it whether it was read-only). Esc takes every role back
// to the room list, and the room goes on.
func TestSessionOwnerEscReturnsToList(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	if _, err := h.Create("main"); err != nil {
		t.Fatal(err)
	}
	for _, role := range []sshd.Role{sshd.Owner, sshd.Viewer} {
		m, err := newSessionModel(h, testRenderer(), role, []string{"room", "main"}, 100, 30)
		if err != nil {
			t.Fatal(err)
		}
		m.Update(snapshotMsg{From: m.updates, Value: <-m.updates, OK: true})
		m.Update(tea.KeyMsg{Type: tea.KeyEsc})
		if m.room != nil {
			t.Errorf("role %v: still in the room after Esc", role)
		}
		if v := m.View(); !strings.Contains(v, "main") {
			t.Errorf("role %v: room list after Esc lacks the room:\n%s", role, v)
		}
		if _, ok := h.Room("main"); !ok {
			t.Errorf("role %v: Esc removed the room", role)
		}
	}
}

// TestSessionMoveListShowsNewestMoves is issue 18's B10: the room's move
// list was one line cut at the panel's edge, so at 100 columns the moves
// after about the tenth ply never appeared on any screen. The list wraps,
// and when it needs more rows than are left, shows its end.
func TestSessionMoveListShowsNewestMoves(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	r, err := h.Create("r")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6")
	for _, mv := range line {
		if err := r.MoveText(mv); err != nil {
			t.Fatal(err)
		}
	}
	for _, size := range [][2]int{{100, 30}, {80, 24}, {160, 50}} {
		m, err := newSessionModel(h, testRenderer(), sshd.Viewer, []string{"room", "r"}, size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		m.Update(snapshotMsg{From: m.updates, Value: <-m.updates, OK: true})
		v := ansi.Strip(m.View())
		for _, want := range []string{"Nbd2", "Nxd6", "20."} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: the view lacks %q, one of the newest moves:\n%s", size[0], size[1], want, v)
			}
		}
		if n := strings.Count(v, "\n") + 1; n > size[1] {
			t.Errorf("%dx%d: the view has %d lines", size[0], size[1], n)
		}
	}
}

// TestSessionViewerBrowses: a viewer steps back through the game on its
// own screen (the room and the other viewers stay live), returns to live
// with End, and is told why the keys that would change the room do
// nothing; the owner's key line fits 100 columns.
func TestSessionViewerBrowses(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	r, _ := h.Create("r")
	for _, mv := range []string{"e4", "e5", "Nf3", "Nc6"} {
		if err := r.MoveText(mv); err != nil {
			t.Fatal(err)
		}
	}
	v, _ := newSessionModel(h, testRenderer(), sshd.Viewer, []string{"room", "r"}, 100, 30)
	other, _ := newSessionModel(h, testRenderer(), sshd.Viewer, []string{"room", "r"}, 100, 30)
	v.Update(snapshotMsg{From: v.updates, Value: <-v.updates, OK: true})
	other.Update(snapshotMsg{From: other.updates, Value: <-other.updates, OK: true})
	key := func(m *sessionModel, k string) {
		t.Helper()
		if k == "left" {
			m.Update(tea.KeyMsg{Type: tea.KeyLeft})
		} else if k == "end" {
			m.Update(tea.KeyMsg{Type: tea.KeyEnd})
		} else {
			m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
		}
	}
	key(v, "left")
	key(v, "left")
	if s := v.shown(); s.Ply != 2 || s.Position.FEN() != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" {
		t.Fatalf("after two steps back: ply %d, %s", s.Ply, s.Position.FEN())
	}
	if !strings.Contains(ansi.Strip(v.View()), "browsing ply 2 of 4") {
		t.Errorf("the browsing viewer is not told so:\n%s", ansi.Strip(v.View()))
	}
	if r.Snapshot().Ply != 4 || other.shown().Ply != 4 {
		t.Errorf("one viewer's browsing moved the room (%d) or another viewer (%d)", r.Snapshot().Ply, other.shown().Ply)
	}
	key(v, "end")
	if s := v.shown(); s.Ply != 4 {
		t.Errorf("End: ply %d, want live 4", s.Ply)
	}
	key(v, "m")
	if !strings.Contains(ansi.Strip(v.View()), "only the room's owners can move") {
		t.Errorf("m does nothing and says nothing:\n%s", ansi.Strip(v.View()))
	}
	o, _ := newSessionModel(h, testRenderer(), sshd.Owner, []string{"room", "r"}, 100, 30)
	o.Update(snapshotMsg{From: o.updates, Value: <-o.updates, OK: true})
	for _, l := range strings.Split(ansi.Strip(o.View()), "\n") {
		if w := ansi.StringWidth(l); w > 100 {
			t.Errorf("owner's line of %d columns at 100: %q", w, l)
		}
	}
}

// TestSessionSmallWindow: a 60×20 window (a tmux split) gets the compact
// room, board and panel within the window, as the local board does.
func TestSessionSmallWindow(t *testing.T) {
	h := room.NewRooms(nil, 1)
	defer h.Close("")
	h.Create("r")
	for _, role := range []sshd.Role{sshd.Owner, sshd.Viewer} {
		m, _ := newSessionModel(h, testRenderer(), role, []string{"room", "r"}, 60, 20)
		m.Update(snapshotMsg{From: m.updates, Value: <-m.updates, OK: true})
		v := ansi.Strip(m.View())
		lines := strings.Split(v, "\n")
		if len(lines) > 20 || !strings.Contains(v, "a  b  c") {
			t.Errorf("role %v: %d lines at 60×20:\n%s", role, len(lines), v)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 60 {
				t.Errorf("role %v: a line of %d columns at 60: %q", role, w, l)
			}
		}
	}
}

// TestRoomPanelShowsProgress: reports without a PV (nodes, time, the root
// move being searched) reach the room's panel between lines, and a line the
// room wrote in SAN is numbered as the move lists number it. (The room's
// side, keeping the progress apart from the lines, is server/room's
// TestRoomProgressBetweenLines.)
func TestRoomPanelShowsProgress(t *testing.T) {
	p := chess.NewPosition()
	e4, _ := p.ParseMove("e4")
	d4, _ := p.ParseMove("d4")
	s := &room.Snapshot{
		Room: "p", Start: p, Position: p, Analysing: true,
		Lines:       []engine.Info{{Depth: 20, MultiPV: 1, Nodes: 1000, Time: time.Second, PV: []chess.Move{e4}}},
		LinesSAN:    [][]string{{"e4"}},
		Progress:    engine.Info{Nodes: 5000, Time: 3 * time.Second, CurrMove: d4, CurrMoveNumber: 2},
		CurrMoveSAN: "d4",
	}
	m := &sessionModel{st: newStyles(testRenderer(), themes.Monochrome(), boardview.Letters), panel: true, w: 100, h: 30, snap: s}
	v := m.panelView(s, 80, 20)
	if !strings.Contains(v, "5000 nodes") || !strings.Contains(v, "3.0s  move 2 d4") {
		t.Errorf("panel does not show the progress:\n%s", v)
	}
	if !strings.Contains(v, "1. e4") {
		t.Errorf("panel does not number the line:\n%s", v)
	}
}
