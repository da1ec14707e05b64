package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/explore"
	"github.com/squall-chess/squall/pgn"
)

// counts are a move's games by result: White won, drawn, Black won,
// unfinished.
type counts [4]uint64

// bruteExplorer replays every game of data and counts, for each position
// reached on a main line (by RepetitionKey) and each move played from it,
// the games by result, a game counted once per position and move however
// often it came back: what the explorer's index must hold, worked out
// without it.
func bruteExplorer(t *testing.T, data []byte) map[uint64]map[chess.Move]counts {
	t.Helper()
	out := map[uint64]map[chess.Move]counts{}
	outcome := map[string]int{pgn.WhiteWins: 0, pgn.Draw: 1, pgn.BlackWins: 2, pgn.Unknown: 3}
	for g, err := range pgn.Games(bytes.NewReader(data)) {
		if err != nil {
			t.Fatal(err)
		}
		line, err := g.MainlinePositions()
		if err != nil {
			t.Fatal(err)
		}
		type seen struct {
			key uint64
			mv  chess.Move
		}
		once := map[seen]bool{}
		for p, mv := range line {
			if mv == chess.NullMove || once[seen{p.RepetitionKey(), mv}] {
				continue
			}
			once[seen{p.RepetitionKey(), mv}] = true
			if out[p.RepetitionKey()] == nil {
				out[p.RepetitionKey()] = map[chess.Move]counts{}
			}
			c := out[p.RepetitionKey()][mv]
			c[outcome[g.Result]]++
			out[p.RepetitionKey()][mv] = c
		}
	}
	return out
}

// TestExplorerPanel: with FILE.pgn.sqx beside the board's file, the panel
// shows for each position of a game the moves the file's games played
// there with their games and results, and they are the counts of a
// brute-force replay of every game; Z hides and shows it.
func TestExplorerPanel(t *testing.T) {
	data, err := os.ReadFile("../pgn/testdata/pgn-parser/twic-01-232games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "twic.pgn")
	os.WriteFile(path, data, 0o644)
	if _, err := explore.Build(path, explore.Options{}); err != nil {
		t.Fatal(err)
	}
	want := bruteExplorer(t, data)
	games, err := ReadPGN(bytes.NewReader(data), path)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Mode: Analysis})
	m = runAll(t, m, func() tea.Msg { return loadedMsg{path: path, games: []*Tree{games[11]}} }) // Carlsen–Aronian, a Petrov
	m = pressAll(t, m, "esc", "up")                                                              // board keys; the start
	checked, branching := 0, 0
	for ply := 0; ; ply++ {
		e := m.explorer
		if !e.has || e.err != nil || !e.visible() {
			t.Fatalf("ply %d: panel has %v, err %v, visible %v", ply, e.has, e.err, e.visible())
		}
		brute := want[m.pos.RepetitionKey()]
		if len(e.moves) != len(brute) {
			t.Fatalf("ply %d: %d moves in the panel, %d by brute force", ply, len(e.moves), len(brute))
		}
		screen := ansi.Strip(m.View())
		for i, mv := range e.moves {
			c := brute[mv.Move]
			if got := (counts{mv.White, mv.Draws, mv.Black, mv.Unfinished}); got != c {
				t.Errorf("ply %d, %s: panel %v, brute force %v", ply, mv.SAN, got, c)
			}
			if i < explorerRows && !strings.Contains(screen, fmt.Sprintf("%-7s%6d", mv.SAN, mv.Games())) {
				t.Errorf("ply %d: %s with %d games not on the screen:\n%s", ply, mv.SAN, mv.Games(), screen)
			}
		}
		checked++
		if len(e.moves) > 1 {
			branching++
		}
		if len(m.cur.Children) == 0 || ply == 20 {
			break
		}
		m = pressAll(t, m, "right")
	}
	t.Logf("%d positions checked, %d with more than one move", checked, branching)
	if branching < 5 {
		t.Errorf("only %d of %d positions had more than one move: the test proves little", branching, checked)
	}
	// Z hides the panel and shows it again.
	m = pressAll(t, m, "Z")
	if m.explorer.visible() || strings.Contains(ansi.Strip(m.View()), "explorer ·") {
		t.Errorf("Z left the panel shown")
	}
	m = pressAll(t, m, "Z")
	if !m.explorer.visible() || !strings.Contains(ansi.Strip(m.View()), "explorer ·") {
		t.Errorf("Z again did not show the panel:\n%s", ansi.Strip(m.View()))
	}
	m.Close()
}
