package search

import (
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// budget is the time plan for one search: after the soft limit no new
// iteration starts (scaled by how unsettled the search is); at the hard
// limit the search stops mid-iteration.
type budget struct {
	soft, hard time.Duration
	timed      bool
}

// planTime turns the clock into a budget with prm's time plan (Params:
// TimeHorizon and the rest; its history is in DefaultParams). Move
// Overhead (the time lost between engine and clock: process pipes,
// network, GUI) is kept in reserve so the engine never loses on time.
func planTime(lim engine.Limits, side chess.Color, overhead time.Duration, prm *Params) budget {
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
	mtg := prm.TimeHorizon
	if lim.MovesToGo > 0 {
		mtg = min(lim.MovesToGo, prm.TimeHorizon)
	}
	soft := avail/time.Duration(mtg) + inc*time.Duration(prm.TimeIncPercent)/100
	hard := min(soft*time.Duration(prm.TimeHardRatio), avail*time.Duration(prm.TimeHardPercent)/100+inc)
	if mtg == 1 {
		hard = avail * 8 / 10
	}
	hard = max(min(hard, avail-avail/20), time.Millisecond)
	soft = min(soft, hard)
	return budget{soft: soft, hard: hard, timed: true}
}
