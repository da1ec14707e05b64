package tablebase

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// Sample draws random positions with the material of a table name such as
// "KRvKP" (the first side's pieces, then the second's; which colour gets
// which side and who moves are random) and returns the first n that keep
// accepts, given each position's WDL value for the side to move. It gives
// up after tries draws. probes counts the WDL probes made, for measuring
// probe speed.
//
// Only positions worth playing out are drawn: legal, not already over, and
// with no capture for the side to move. A position with a capture is
// usually decided by that one obvious move (a hanging queen, a pawn taken
// with a book draw), which says nothing about how an engine plays the
// ending.
func (tb *Tablebase) Sample(rng *rand.Rand, material string, n, tries int, keep func(p *chess.Position, wdl int) bool) (found []*chess.Position, probes int, err error) {
	sides := strings.Split(material, "v")
	if len(sides) != 2 || !strings.HasPrefix(sides[0], "K") || !strings.HasPrefix(sides[1], "K") {
		return nil, 0, fmt.Errorf("tablebase: material %q: want a table name such as KRvKP", material)
	}
	for _, s := range sides {
		if strings.Count(s, "K") != 1 || strings.Trim(s, "KQRBNP") != "" {
			return nil, 0, fmt.Errorf("tablebase: material %q: bad side %q (letters KQRBNP, one K)", material, s)
		}
	}
	if len(sides[0])+len(sides[1]) > tb.MaxPieces() {
		return nil, 0, fmt.Errorf("tablebase: material %q: the tables found hold at most %d pieces", material, tb.MaxPieces())
	}
	var ml chess.MoveList
	for try := 0; try < tries && len(found) < n; try++ {
		p, err := randomSetup(rng, sides).Position()
		if err != nil {
			continue // the side not to move is in check, or kings touch
		}
		if p.Outcome() != chess.Ongoing {
			continue
		}
		p.GenerateCaptures(&ml)
		if ml.N > 0 {
			continue
		}
		wdl, ok := tb.ProbeWDL(p)
		probes++
		if !ok {
			return found, probes, fmt.Errorf("tablebase: no %s table (or it is unreadable)", material)
		}
		if keep(p, wdl) {
			found = append(found, p)
		}
	}
	return found, probes, nil
}

// randomSetup places the pieces of sides on distinct random squares (pawns
// on ranks 2-7), with a random colour for the first side and a random side
// to move; the setup may be illegal (chess.Setup.Position judges it).
func randomSetup(rng *rand.Rand, sides []string) chess.Setup {
	set := chess.EmptySetup()
	board := &set.Board
	first := chess.Color(rng.IntN(2)) // the first side's colour
	for i, s := range sides {
		c := first
		if i == 1 {
			c = first.Other()
		}
		for _, r := range s {
			pt := chess.PieceType(strings.IndexRune(" PNBRQK", r))
			sq := rng.IntN(64)
			for board[sq] != chess.NoPiece || (pt == chess.Pawn && (sq < 8 || sq >= 56)) {
				sq = rng.IntN(64)
			}
			board[sq] = chess.MakePiece(c, pt)
		}
	}
	if rng.IntN(2) == 1 {
		set.Side = chess.Black
	}
	return set
}
