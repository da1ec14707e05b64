package search

import (
	"context"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// run searches g with lim on s and returns the result and every Info
// reported (the callback runs on the calling goroutine's main thread, so no
// locking is needed).
func run(t testing.TB, s *Searcher, g engine.Game, lim engine.Limits) (engine.Result, []engine.Info) {
	t.Helper()
	var infos []engine.Info
	res, err := s.Search(context.Background(), g, lim, func(in engine.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatal(err)
	}
	return res, infos
}

// rootOf replays g.
func rootOf(t testing.TB, g engine.Game) *chess.Position {
	t.Helper()
	p, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// playLine plays line from a copy of root, failing the test at the first
// illegal move, and returns the final position.
func playLine(t testing.TB, root *chess.Position, line []chess.Move, what string) *chess.Position {
	t.Helper()
	p := root.Clone()
	var u chess.Undo
	for i, m := range line {
		if !p.IsLegal(m) {
			t.Fatalf("%s: move %d (%v) of %v is illegal in %s (root %s)", what, i+1, m, line, p.FEN(), root.FEN())
		}
		p.MakeMove(m, &u)
	}
	return p
}

// checkResult verifies that a result's best and ponder moves and every
// reported PV are legal from the root.
func checkResult(t testing.TB, root *chess.Position, res engine.Result, infos []engine.Info) {
	t.Helper()
	if !root.IsLegal(res.BestMove) {
		t.Fatalf("bestmove %v illegal in %s", res.BestMove, root.FEN())
	}
	if res.PonderMove != chess.NullMove {
		playLine(t, root, []chess.Move{res.BestMove, res.PonderMove}, "bestmove+ponder")
	}
	for _, in := range infos {
		if in.CurrMove != chess.NullMove || in.String != "" {
			continue
		}
		if len(in.PV) == 0 {
			t.Fatalf("depth %d multipv %d: empty PV", in.Depth, in.MultiPV)
		}
		playLine(t, root, in.PV, "info pv")
	}
	if len(res.Last.PV) > 0 && res.Last.PV[0] != res.BestMove {
		t.Fatalf("bestmove %v is not the first move of the last PV %v", res.BestMove, res.Last.PV)
	}
}

// scoreOrder maps a score to an int that orders scores (mates beyond any
// centipawn score, shorter mates better).
func scoreOrder(s engine.Score) int {
	switch {
	case s.Mate > 0:
		return 1_000_000 - s.Mate
	case s.Mate < 0:
		return -1_000_000 - s.Mate
	}
	return s.CP
}
