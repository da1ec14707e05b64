package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// longPGN is a 60-ply game (Kasparov–Topalov, Wijk aan Zee 1999, to
// 30... Qc4) with a comment and a variation.
const longPGN = `[Event "Hoogovens"]
[White "Kasparov"]
[Black "Topalov"]

1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 7. Nge2 Nbd7
8. Bh6 Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 12. Kb1 a6 13. Nc1 O-O-O
14. Nb3 exd4 15. Rxd4 c5 16. Rd1 Nb6 17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5
20. Qf4+ Ka7 21. Rhe1 d4 22. Nd5 Nbxd5 23. exd5 Qd6 24. Rxd4 $3 {The rook
is given up.} (24. Bf1 Kb8) 24... cxd4 25. Re7+ Kb6 26. Qxd4+ Kxa5 27. b4+
Ka4 28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 Qc4 *
`

// TestMoveListGoldens is issue 34's acceptance 4 on the board: a 60-ply
// game at 80, 100 and 160 columns, the newest move shown (tui/movelist,
// the one move list of every screen).
func TestMoveListGoldens(t *testing.T) {
	trees, err := ReadPGN(strings.NewReader(longPGN), "long.pgn")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {100, 30}, {160, 50}} {
		m := newTestModel(t, Options{Mode: Analysis, Games: trees})
		m = send(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]}, tea.KeyMsg{Type: tea.KeyEnd})
		v := m.View()
		golden(t, fmt.Sprintf("movelist-%d", size[0]), v)
		if plain := ansi.Strip(v); !strings.Contains(plain, "30. Rxb7") || !strings.Contains(plain, "Qc4◂") {
			t.Errorf("%d×%d: the newest move, 30... Qc4, is not shown:\n%s", size[0], size[1], plain)
		}
	}
}
