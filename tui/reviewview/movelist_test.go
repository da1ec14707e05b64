package reviewview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/tui/internal/tuitest"
)

// TestMoveListGoldens is issue 34's acceptance 4 on the review: a 60-ply
// game (Kasparov–Topalov, Wijk aan Zee 1999, to 30... Qc4) at 80, 100 and
// 160 columns, the last move shown and in view (tui/movelist, the one
// move list of every screen).
func TestMoveListGoldens(t *testing.T) {
	sans := strings.Fields(`e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7
		a3 e5 O-O-O Qe7 Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7
		Rhe1 d4 Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 Rxb7 Qc4`)
	env := testEnv(&enginetest.Engine{})
	env.PGN = gameOf(t, sans...)
	v := New(env, Options{Limits: engine.Limits{Depth: 1}}).(*reviewView)
	defer v.Close()
	analyse(t, v)
	v.Update(tuitest.Press("end"))
	for _, size := range [][2]int{{80, 24}, {100, 30}, {160, 50}} {
		out := v.View(size[0], size[1])
		tuitest.Golden(t, goldenDir, fmt.Sprintf("movelist-%d", size[0]), out)
		if plain := ansi.Strip(out); !strings.Contains(plain, "30. Rxb7") || !strings.Contains(plain, "Qc4◂") {
			t.Errorf("%d×%d: the last move, 30... Qc4, is not shown:\n%s", size[0], size[1], plain)
		}
	}
}
