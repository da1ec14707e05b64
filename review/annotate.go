package review

import (
	"fmt"
	"slices"

	"github.com/squall-chess/squall/engine/chess"

	"github.com/squall-chess/squall/pgn"
)

// Annotate writes the review into g's main line, which must be the line
// that was reviewed: each move gets an [%eval] of the position after it
// (White's view, with the search depth), and each judged move its NAG
// ($6 ?!, $2 ?, $4 ??, replacing any move assessment $1–$6 it had) and a
// comment such as "Mistake. Best was 14. Nf3 Nc6 15. d4.".
func (r *Report) Annotate(g *pgn.Game) error {
	line := g.Mainline()
	if len(line) != len(r.Moves) {
		return fmt.Errorf("review: game has %d moves in its main line, the review %d", len(line), len(r.Moves))
	}
	for i, n := range line {
		mv := &r.Moves[i]
		if n.Move != mv.Move {
			return fmt.Errorf("review: move %d is %s in the game but %s in the review", i+1, n.SAN, mv.SAN)
		}
		if e, ok := PGNEval(r.Positions[i+1]); ok {
			if n.Commands == nil {
				n.Commands = &pgn.Commands{}
			}
			n.Commands.Eval = e
		}
		if mv.Judgment == Good {
			continue
		}
		n.NAGs = slices.DeleteFunc(n.NAGs, func(nag uint8) bool { return nag >= 1 && nag <= 6 })
		n.NAGs = append(n.NAGs, mv.Judgment.NAG())
		n.After = append(n.After, mv.Comment())
	}
	return nil
}

// PGNEval converts an evaluation to a PGN [%eval] command; a finished game
// has none.
func PGNEval(pe PositionEval) (pgn.Eval, bool) {
	e := pe.Eval
	switch {
	case e.Over:
		return pgn.Eval{}, false
	case e.Mate != 0:
		return pgn.Eval{Kind: pgn.Mate, Value: e.Mate, Depth: pe.Depth}, true
	}
	return pgn.Eval{Kind: pgn.Centipawns, Value: e.CP, Depth: pe.Depth}, true
}

// GameLine returns what Analyze needs from a PGN game: its start position
// and the moves of its main line.
func GameLine(g *pgn.Game) (*chess.Position, []chess.Move, error) {
	start, err := g.StartPosition()
	if err != nil {
		return nil, nil, fmt.Errorf("review: %w", err)
	}
	var moves []chess.Move
	for _, n := range g.Mainline() {
		moves = append(moves, n.Move)
	}
	return start, moves, nil
}
