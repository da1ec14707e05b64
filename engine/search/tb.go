package search

import "github.com/squall-chess/squall/engine/tablebase"

// tbProbe is what a search needs to probe Syzygy tables inside its tree.
// The zero value probes nothing.
type tbProbe struct {
	tb     *tablebase.Tablebase
	pieces int  // the tables' largest piece count; 0 without tables
	depth  int  // least remaining depth to probe at pieces pieces
	rule50 bool // cursed wins and blessed losses are draws
}

// probeTB looks the thread's position up in the WDL tables and returns its
// score and what that score bounds: exact for a draw, a lower bound for a
// win (the search may still find a mate), an upper bound for a loss. ok is
// false when the position is not probed or not in the tables.
//
// Only positions just after a capture or pawn move are probed (Stockfish's
// condition): WDL ignores the 50-move counter, so its answer is only exact
// for the 50-move rule when the counter is 0, and such positions are where
// the tree first enters a smaller table. Positions with as many pieces as
// the largest tables are probed only with depth left, as they are many and
// their files the largest.
//
// The tables are safe for concurrent use, and ProbeWDL changes the
// thread's own position only (restoring it) and allocates nothing, so Lazy
// SMP threads probe without any per-thread state beyond their position.
func (t *thread) probeTB(depth, ply int) (score, bound int, ok bool) {
	tb := &t.s.tb
	p := t.p
	if tb.pieces == 0 || p.HalfmoveClock() != 0 || p.Castling() != 0 {
		return 0, 0, false
	}
	n := p.Occupied().Count()
	if n > tb.pieces || (n == tb.pieces && depth < tb.depth) {
		return 0, 0, false
	}
	if p.InCheck() && !p.HasLegalMoves() {
		return 0, 0, false // mated: the search scores the mate exactly
	}
	wdl, ok := tb.tb.ProbeWDL(p)
	if !ok {
		return 0, 0, false
	}
	t.tbHits++
	score, bound = tbScore(wdl, ply, tb.rule50)
	return score, bound, true
}

// tbScore converts a WDL value found at ply to a search score and what it
// bounds. With the 50-move rule a cursed win (blessed loss) is a draw, but
// scores a little above (below) a plain one: the opponent may yet go wrong.
// Without it, cursed wins and blessed losses are wins and losses.
func tbScore(wdl, ply int, rule50 bool) (score, bound int) {
	draw := b2i(rule50) // |wdl| up to this is a draw
	switch {
	case wdl > draw:
		return tbWin - ply, boundLower
	case wdl < -draw:
		return -tbWin + ply, boundUpper
	}
	return drawScore + 2*wdl, boundExact
}
