package tui

import (
	"strconv"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// What a game Squall plays records besides its moves (issue 36): the
// clock after every move ([%clk]), who played (WhiteType and BlackType,
// "human" or "program", as the PGN standard names them), and the engine's
// level and Elo (EngineLevel, and WhiteElo or BlackElo where the level
// limits its strength), kept up to date when the level changes mid-game.
// TimeControl is set with the other tags (tagGame).

// recordClock writes the mover's time left after n's move, in a game
// with a clock.
func (m *Model) recordClock(n *pgn.Node, mover chess.Color, now time.Time) {
	if m.clock.Enabled() {
		n.SetClock(m.clock.Remaining(mover, now))
	}
}

// tagPlayers sets the players' types and the engine's level on the game
// being played.
func (m *Model) tagPlayers() {
	t := m.tree
	for _, c := range []chess.Color{chess.White, chess.Black} {
		name := "White"
		if c == chess.Black {
			name = "Black"
		}
		engine := m.mode == Watch || (m.mode == VsEngine && c != m.human)
		switch {
		case m.mode == Analysis:
			continue
		case !engine:
			t.SetTag(name+"Type", "human")
			continue
		}
		t.SetTag(name+"Type", "program")
		if elo := Levels[m.level].Elo; elo > 0 {
			t.SetTag(name+"Elo", strconv.Itoa(elo))
		} else {
			t.DeleteTag(name + "Elo") // full strength: no Elo to give
		}
	}
	if m.mode == VsEngine || m.mode == Watch {
		t.SetTag("EngineLevel", Levels[m.level].Name)
	}
}
