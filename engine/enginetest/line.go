package enginetest

import (
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Line is the report an Engine makes for line k (0 for the best) at depth
// when the line starts with move m in p, so that a test can predict every
// number it shows: the PV is m and the first legal reply; the score 10·depth
// − 20·k centipawns; the selective depth depth+3; 12345·depth nodes at a
// million a second, 100 ms a depth; the hash 1.7 % full.
func Line(p *chess.Position, m chess.Move, depth, k int) engine.Info {
	pv := []chess.Move{m}
	q := p.Clone()
	var u chess.Undo
	q.MakeMove(m, &u)
	var replies chess.MoveList
	q.GenerateLegal(&replies)
	if replies.N > 0 {
		pv = append(pv, replies.Moves[0])
	}
	return engine.Info{Depth: depth, SelDepth: depth + 3, MultiPV: k + 1,
		Score: engine.Score{CP: 10*depth - 20*k}, Nodes: uint64(depth) * 12345,
		NPS: 1_000_000, HashFull: 17, Time: time.Duration(depth) * 100 * time.Millisecond, PV: pv}
}

// ScoresByPly returns a Score for an Engine that scores every line of the
// position after n moves of a game scores[n] (the zero Score, 0.00, where
// scores has none), at every depth.
func ScoresByPly(scores map[int]engine.Score) func(g engine.Game, depth, k int) engine.Score {
	return func(g engine.Game, _, _ int) engine.Score { return scores[len(g.Moves)] }
}

// MovesByPly returns a Best for an Engine that plays moves[n] (SAN or UCI)
// in the position after n moves of a game, and the first legal move where
// moves has none.
func MovesByPly(moves map[int]string) func(g engine.Game, p *chess.Position) (chess.Move, error) {
	return func(g engine.Game, p *chess.Position) (chess.Move, error) {
		s, ok := moves[len(g.Moves)]
		if !ok {
			return chess.NullMove, nil
		}
		return p.ParseMove(s)
	}
}

// Game is the game of the given moves from the standard start position.
// Each string holds one or more moves, SAN or UCI, separated by spaces;
// a move that is not legal fails tb.
func Game(tb testing.TB, moves ...string) engine.Game {
	tb.Helper()
	return play(tb, chess.NewPosition(), moves)
}

// GameFrom is Game from the position fen.
func GameFrom(tb testing.TB, fen string, moves ...string) engine.Game {
	tb.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		tb.Fatalf("enginetest: %v", err)
	}
	return play(tb, p, moves)
}

// Position is the position after the given moves from the standard start
// position, read as Game reads them.
func Position(tb testing.TB, moves ...string) *chess.Position {
	tb.Helper()
	p, err := Game(tb, moves...).Position()
	if err != nil {
		tb.Fatalf("enginetest: %v", err)
	}
	return p
}

// play is the game of moves from start.
func play(tb testing.TB, start *chess.Position, moves []string) engine.Game {
	tb.Helper()
	g := engine.Game{Start: start.Clone()}
	var u chess.Undo
	for i, s := range strings.Fields(strings.Join(moves, " ")) {
		m, err := start.ParseMove(s)
		if err != nil {
			tb.Fatalf("enginetest: move %d of %q: %v", i+1, strings.Join(moves, " "), err)
		}
		g.Moves = append(g.Moves, m)
		start.MakeMove(m, &u)
	}
	return g
}
