package eval

import "github.com/squall-chess/squall/engine/chess"

// SeedWeights returns the starting point of a tuning run: plain textbook
// values from simple formulas (material, centralisation, pawn advance,
// mobility curves, a quadratic king-danger curve), so a run from scratch is
// reproducible and owes nothing to copied tables. The engine plays with the
// tuned result in weights_gen.go.
func SeedWeights() Weights {
	var w Weights
	mat := [...]Score{0, S(80, 100), S(320, 300), S(330, 320), S(460, 520), S(950, 980)}
	copy(w[WMaterial:], mat[:])
	for s := chess.Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		if f > 3 {
			continue // the table is folded onto files a–d
		}
		cd := centreDistance(s) // 0 in the centre … 6 in a corner
		pst := func(t chess.PieceType, v Score) { w[pstIndex(t, s)] = v }
		if r >= 1 && r <= 6 {
			c := 0
			if f == 3 && (r == 3 || r == 4) {
				c = 10
			}
			pst(chess.Pawn, S((r-1)*3+c, (r-1)*8))
		}
		pst(chess.Knight, S(-6*cd+10, -5*cd+10))
		pst(chess.Bishop, S(-3*cd+6, -3*cd+6))
		pst(chess.Queen, S(-cd, -3*cd+6))
		km := -15 * r
		if r == 0 && f <= 2 {
			km = 15
		}
		pst(chess.King, S(km, -8*cd+20))
	}
	w[WBishopPair] = S(30, 50)
	w[WImbalance+imbKnightPawns] = S(3, 3)
	w[WImbalance+imbRookPawns] = S(-5, -5)
	w[WImbalance+imbRedundantRook] = S(-10, -10)
	w[WImbalance+imbExchange] = S(20, 20)
	w[WImbalance+imbMinorForPawns] = S(20, 20)
	// Mobility: a concave curve through 0 at "average" mobility.
	for t, n := range [7]int{chess.Knight: 9, chess.Bishop: 14, chess.Rook: 15, chess.Queen: 28} {
		if n == 0 {
			continue
		}
		unit := [7]int{chess.Knight: 4, chess.Bishop: 4, chess.Rook: 2, chess.Queen: 1}[t]
		for m := 0; m < n; m++ {
			v := unit * (m - n/2)
			w[mobilityStart[t]+m] = S(v, v*3/2)
		}
	}
	w[WPawnIsolated] = S(-10, -15)
	w[WPawnDoubled] = S(-10, -20)
	w[WPawnBackward] = S(-8, -10)
	w[WPawnBackwardOpen] = S(-15, -15)
	for r := 1; r < 7; r++ {
		w[WPawnPhalanx+r] = S(3*r, 3*r)
		w[WPawnSupported+r] = S(4*r, 3*r)
		w[WPawnCandidate+r] = S(2*r, 5*r)
		w[WPassed+r] = S(r*r*2, r*r*5)
		w[WPassedFree+r] = S(r*r, r*r*3)
		w[WPassedBlocked+r] = S(-r*r/2, -r*r)
	}
	w[WPassedOwnKing] = S(0, -5)
	w[WPassedEnemyKing] = S(0, 10)
	w[WPassedUnstoppable] = S(0, 300)
	w[WShield] = S(15, 0)
	w[WShield+1] = S(8, 0)
	w[WShield+2] = S(-15, 0)
	for d := 1; d <= 4; d++ {
		w[WStorm+d] = S(-(5-d)*5, 0)
	}
	w[WKingOpenFile] = S(-20, 0)
	w[WKingHalfOpenFile] = S(-10, 0)
	for u := 0; u < KingUnits; u++ {
		w[WKingDanger+u] = S(-u*u/2, -u)
	}
	w[WKnightOutpost] = S(20, 10)
	w[WBishopOutpost] = S(10, 5)
	w[WBadBishop] = S(-2, -4)
	w[WRookOpen] = S(25, 10)
	w[WRookHalfOpen] = S(10, 5)
	w[WRookSeventh] = S(15, 25)
	w[WBishopTrapped] = S(-100, -100)
	w[WRookTrapped] = S(-40, -10)
	for t := chess.Pawn; t <= chess.Queen; t++ {
		w[WHanging+int(t)] = S(10*int(t), 10*int(t))
		w[WPawnThreat+int(t)] = S(15*int(t), 15*int(t))
		w[WMinorThreat+int(t)] = S(5*int(t), 5*int(t))
	}
	w[WPawnThreat+int(chess.Pawn)] = 0
	w[WRookThreatQueen] = S(30, 30)
	w[WSpace] = S(3, 0)
	w[WTempo] = S(15, 10)
	return w
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
