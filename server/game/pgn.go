package game

import (
	"strings"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// PGN is the game as the archive keeps it: the players' names, the date it
// began, the time control, the result with its standard termination, each
// move with the mover's clock after it ([%clk], as lichess exports), and
// how the game ended in words as the last move's comment ("White wins by
// resignation."): the Termination tag has only the standard's values. An
// arena's berserk is its side's berserk tag (berserkTag), so that the
// archive alone says what an arena scores (Berserks reads it).
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
		p.SetTag("Termination", g.result.Termination.PGN())
	}
	for side, b := range g.berserk {
		if b {
			p.SetTag(berserkTag(chess.Color(side)), "true")
		}
	}
	n := p.Root
	for i, m := range g.moves {
		n = n.AddChild(m, g.sans[i])
		if g.clock.Enabled() {
			n.SetClock(g.left[i])
		}
	}
	if g.over && g.result.Decided() {
		n.After = append(n.After, sentence(g.result.String()))
	}
	return p
}

// sentence is s begun with a capital and ended with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// berserkTag is the tag saying that side berserked, as lichess exports
// it: [WhiteBerserk "true"], [BlackBerserk "true"], absent for a side
// that did not.
func berserkTag(side chess.Color) string { return side.Name() + "Berserk" }

// Berserks reads which sides berserked from an archived game's tags
// (PGN writes them), by colour.
func Berserks(p *pgn.Game) [2]bool {
	var out [2]bool
	for side := range out {
		out[side] = p.Tag(berserkTag(chess.Color(side))) == "true"
	}
	return out
}
