package search

import (
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// planHorizon is the number of moves the clock is shared over when the
// GUI does not say how many are left (movestogo). It was 40 until
// 2026-11-26, with no new iteration started after 60 % of the (stability-
// scaled) soft budget: Squall ended its games at 10+0.1 with a large part
// of its clock unused. Fewer than the moves a game usually has left,
// because the increment and the moves that end early (one reply, a settled
// best move, a mate found) give time back. Measured in docs/ELO.md: 25
// moves and 80 % +38 ± 27 Elo over 40 and 60 %, then 20 and all of it
// +12 ± 32 over that.
const planHorizon = 20

// budget is the time plan for one search: after the soft limit no new
// iteration starts (scaled by how unsettled the search is); at the hard
// limit the search stops mid-iteration.
type budget struct {
	soft, hard time.Duration
	timed      bool
}

// planTime turns the clock into a budget. Move Overhead (the time lost
// between engine and clock: process pipes, network, GUI) is kept in reserve
// so the engine never loses on time.
func planTime(lim engine.Limits, side chess.Color, overhead time.Duration) budget {
	if lim.MoveTime > 0 {
		t := max(lim.MoveTime-overhead, time.Millisecond)
		return budget{soft: t, hard: t, timed: true}
	}
	left, inc := lim.WTime, lim.WInc
	if side == chess.Black {
		left, inc = lim.BTime, lim.BInc
	}
	if left <= 0 && inc <= 0 {
		return budget{}
	}
	avail := max(left-overhead, time.Millisecond)
	mtg := planHorizon
	if lim.MovesToGo > 0 {
		mtg = min(lim.MovesToGo, planHorizon)
	}
	soft := avail/time.Duration(mtg) + inc*3/4
	hard := min(soft*4, avail*3/10+inc)
	if mtg == 1 {
		hard = avail * 8 / 10
	}
	hard = max(min(hard, avail-avail/20), time.Millisecond)
	soft = min(soft, hard)
	return budget{soft: soft, hard: hard, timed: true}
}
