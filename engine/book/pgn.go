package book

import (
	"errors"
	"fmt"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// ErrChess960 reports a Chess960 game, which a Polyglot book cannot hold:
// the format's castling keys and king-takes-rook moves assume the standard
// start.
var ErrChess960 = errors.New("book: a Chess960 game (Polyglot books hold standard chess only)")

// FromPGN turns a PGN game's main line into builder input. The line stops
// at a null move ("--"), which no book can hold; an unfinished game ("*")
// comes back with Decided false, so the builder skips it.
func FromPGN(g *pgn.Game) (Game, error) {
	if g.Chess960() {
		return Game{}, ErrChess960
	}
	start, err := g.StartPosition()
	if err != nil {
		return Game{}, fmt.Errorf("book: start position: %w", err)
	}
	out := Game{Start: start, Decided: true}
	switch g.Result {
	case pgn.WhiteWins:
		out.Result = Win
	case pgn.BlackWins:
		out.Result = Loss
	case pgn.Draw:
		out.Result = Draw
	default:
		out.Decided = false
	}
	for _, n := range g.Mainline() {
		if n.Move == chess.NullMove {
			break
		}
		out.Moves = append(out.Moves, n.Move)
	}
	return out, nil
}
