package search

import (
	"math"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/eval"
)

// Score bounds. A mate found at ply n scores Mate-n for the winner, so
// shorter mates score higher; any score beyond mateBound is a mate.
//
// A win proved by the Syzygy tables at ply n scores tbWin-n: below every
// mate (a mate is a surer, and known, result) and above any evaluation,
// with nearer tablebase wins higher so the search heads for them. Scores
// from tbWinBound up are tablebase wins or mates.
const (
	maxPly     = 128
	infinity   = 32000
	mate       = 31000
	mateBound  = mate - 2*maxPly
	tbWin      = mateBound - 1
	tbWinBound = tbWin - maxPly
	drawScore  = 0

	// knownWin is the score from which the evaluation knows an ending
	// is won (KRK, KQK, KBNK, KPK by bitbase).
	knownWin = eval.KnownWin

	// tbCP is how a tablebase win at the root is reported in centipawns
	// (less a centipawn per ply to the tablebase position), Stockfish's
	// convention: GUIs show it as decisive without calling it a mate.
	tbCP = 20000
)

// mateIn is the score of giving mate at ply.
func matedIn(ply int) int { return -mate + ply }

// toTT converts a score to table form: mate and tablebase-win scores
// count from this node, not from the root, so they stay true when the node
// is reached at another ply.
func toTT(s, ply int) int {
	switch {
	case s >= tbWinBound:
		return s + ply
	case s <= -tbWinBound:
		return s - ply
	}
	return s
}

func fromTT(s, ply int) int {
	switch {
	case s >= tbWinBound:
		return s - ply
	case s <= -tbWinBound:
		return s + ply
	}
	return s
}

// uciScore turns an internal score into the engine API's form: centipawns,
// or mate in full moves; a tablebase win is tbCP less its distance in
// plies.
func uciScore(s int, bound engine.Bound) engine.Score {
	switch {
	case s >= mateBound:
		return engine.Score{Mate: (mate - s + 1) / 2, Bound: bound}
	case s <= -mateBound:
		return engine.Score{Mate: -(mate + s) / 2, Bound: bound}
	case s >= tbWinBound:
		return engine.Score{CP: tbCP - (tbWin - s), Bound: bound}
	case s <= -tbWinBound:
		return engine.Score{CP: -tbCP + (tbWin + s), Bound: bound}
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
