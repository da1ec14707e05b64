package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// TestGameRecordsClock: a game with a clock carries [%clk] after every
// move (the mover's time left: the first two moves are free, then the
// increment is added), and its players' types.
func TestGameRecordsClock(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans, Clock: 3 * time.Minute, Increment: 2 * time.Second})
	for _, mv := range []string{"e4", "e5", "Nf3"} {
		m, _ = typeMove(m, mv)
	}
	text := m.tree.Export().String()
	for _, want := range []string{`[TimeControl "180+2"]`, `[WhiteType "human"]`, `[BlackType "human"]`,
		"1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:03:00]} 2. Nf3 {[%clk 0:03:02]}"} {
		if !strings.Contains(text, want) {
			t.Errorf("saved game lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "EngineLevel") {
		t.Errorf("an engine level in a game between people:\n%s", text)
	}
}

// TestGameRecordsLevel: a game against the engine names the engine's
// level and its Elo on its side, and changes them with the level (L).
func TestGameRecordsLevel(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Millisecond, MaxDepth: 2}
	m := New(testRenderer(termenv.TrueColor), eng, Options{Mode: VsEngine, Human: chess.Black, Level: 4, Now: func() time.Time { return fixedNow }})
	defer m.Close()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	g := m.tree
	if g.Tag("WhiteType") != "program" || g.Tag("BlackType") != "human" || g.Tag("WhiteElo") != "1700" || g.Tag("BlackElo") != "" || g.Tag("EngineLevel") != "4 · Elo 1700" {
		t.Errorf("tags %v", g.Tags)
	}
	m.setLevel(7, true) // full strength: no Elo
	if g.Tag("WhiteElo") != "" || g.Tag("EngineLevel") != Levels[7].Name {
		t.Errorf("after L 8: tags %v", g.Tags)
	}
}
