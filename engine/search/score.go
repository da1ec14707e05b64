package search

import (
	"math"

	"github.com/squall-chess/squall/engine"
)

// Score bounds. A mate found at ply n scores Mate-n for the winner, so
// shorter mates score higher; any score beyond mateBound is a mate.
const (
	maxPly    = 128
	infinity  = 32000
	mate      = 31000
	mateBound = mate - 2*maxPly
	drawScore = 0
)

// mateIn is the score of giving mate at ply.
func matedIn(ply int) int { return -mate + ply }

// toTT converts a score to table form: mate scores count from this node,
// not from the root, so they stay true when the node is reached at another
// ply.
func toTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s + ply
	case s <= -mateBound:
		return s - ply
	}
	return s
}

func fromTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s - ply
	case s <= -mateBound:
		return s + ply
	}
	return s
}

// uciScore turns an internal score into the engine API's form: centipawns,
// or mate in full moves.
func uciScore(s int, bound engine.Bound) engine.Score {
	switch {
	case s >= mateBound:
		return engine.Score{Mate: (mate - s + 1) / 2, Bound: bound}
	case s <= -mateBound:
		return engine.Score{Mate: -(mate + s) / 2, Bound: bound}
	}
	return engine.Score{CP: s, Bound: bound}
}

// wdl estimates win/draw/loss per mille from a centipawn score with a
// logistic model: a score of wdlShift centipawns is an even chance to win,
// and wdlScale sets how quickly the chance grows.
func wdl(s int) [3]int {
	const wdlShift, wdlScale = 120.0, 65.0
	if s >= mateBound {
		return [3]int{1000, 0, 0}
	}
	if s <= -mateBound {
		return [3]int{0, 0, 1000}
	}
	win := int(math.Round(1000 / (1 + math.Exp((wdlShift-float64(s))/wdlScale))))
	loss := int(math.Round(1000 / (1 + math.Exp((wdlShift+float64(s))/wdlScale))))
	return [3]int{win, 1000 - win - loss, loss}
}
