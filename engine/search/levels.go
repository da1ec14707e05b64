package search

import "math"

// Playing levels. Weaker play comes from searching fewer nodes and from
// choosing, among the best few lines, one within a margin of the best:
// plausible human choices, never random blunders.
const (
	minElo = 800
	maxElo = 2800
)

// level is the strength a search plays at.
type level struct {
	limited bool
	nodes   uint64 // node budget per move
	margin  int    // centipawns a chosen line may be below the best
	lines   int    // MultiPV lines searched to choose from
}

// levelFor maps an Elo rating to a level: the node budget doubles every
// 130 Elo, from 60 nodes at 800, and the margin shrinks from 100 cp at 800
// to 0 at 2600.
func levelFor(elo int) level {
	elo = max(minElo, min(elo, maxElo))
	nodes := 60 * math.Pow(2, float64(elo-minElo)/130)
	margin := max(0, (2600-elo)/18)
	lines := 1
	if margin > 0 {
		lines = 4
	}
	return level{limited: true, nodes: uint64(nodes), margin: margin, lines: lines}
}

// skillElo is the Elo that Skill Level s (0–19) plays at; 20 is full
// strength.
func skillElo(s int) int { return minElo + s*(maxElo-minElo)/20 }
