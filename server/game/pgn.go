package game

import (
	"time"

	"github.com/squall-chess/squall/pgn"
)

// PGN is the game as the archive keeps it: the players' names, the date it
// began, the time control, the result with its termination, and each move
// with the mover's clock after it ([%clk], as lichess exports).
func (g *Game) PGN(event, site, white, black string) *pgn.Game {
	p := pgn.NewGame()
	p.SetTag("Event", event)
	p.SetTag("Site", site)
	p.SetTag("Date", g.started.UTC().Format("2006.01.02"))
	p.SetTag("White", white)
	p.SetTag("Black", black)
	p.SetTag("Result", g.result.PGN())
	p.SetTag("UTCTime", g.started.UTC().Format(time.TimeOnly))
	p.SetTag("TimeControl", g.tc.PGNTag())
	if g.over {
		p.SetTag("Termination", string(g.result.Termination))
	}
	n := p.Root
	for i, m := range g.moves {
		n = n.AddChild(m, g.sans[i])
		if g.clock.Enabled() {
			n.Commands = &pgn.Commands{Clock: g.left[i], HasClock: true}
		}
	}
	return p
}
