package search

import "math"

// Playing levels. Weaker play comes from searching fewer nodes and from
// choosing, among the best few lines, one within a margin of the best:
// plausible human choices, never random blunders.
const (
	minElo = 800
	maxElo = 2800
)

// strength is the strength a search plays at: its node budget and how far
// below the best line its move may be (a playing level of engine/level,
// set through UCI_Elo or Skill Level).
type strength struct {
	limited bool
	nodes   uint64 // node budget per move
	margin  int    // centipawns a chosen line may be below the best
	lines   int    // MultiPV lines searched to choose from
}

// strengthFor maps an Elo rating to a strength. The node budget is 60 nodes at
// 800 and doubles every 130 Elo up to 1500 (2,500 nodes), then every 90
// Elo: measured against Stockfish's UCI_Elo at 10+0.1, one curve that
// matched at 1500 left 2200 some 270 Elo short, as a deeper search gains
// less per doubling than a shallow one loses (docs/ELO.md, levels). The margin shrinks from 100
// cp at 800 to 61 at 1500 and 0 at 2300.
func strengthFor(elo int) strength {
	elo = max(minElo, min(elo, maxElo))
	nodes := 60 * math.Pow(2, float64(min(elo, 1500)-minElo)/130)
	if elo > 1500 {
		nodes *= math.Pow(2, float64(elo-1500)/90)
	}
	margin := (2600 - elo) / 18
	if elo > 1500 {
		margin = max(0, 61*(2300-elo)/800)
	}
	lines := 1
	if margin > 0 {
		lines = 4
	}
	return strength{limited: true, nodes: uint64(nodes), margin: margin, lines: lines}
}

// skillElo is the Elo that Skill Level s (0–19) plays at; 20 is full
// strength.
func skillElo(s int) int { return minElo + s*(maxElo-minElo)/20 }
