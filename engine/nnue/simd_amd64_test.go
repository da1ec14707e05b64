//go:build amd64 && !purego

package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// TestAVX2MatchesPortableOnPositions: over 10,000 positions of random
// games, the vectorised path (Refresh, Update and Evaluate as the search
// calls them) gives the portable path's accumulators and scores bit for
// bit.
func TestAVX2MatchesPortableOnPositions(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 path on this machine or build")
	}
	defer func() { useAVX2 = true }()
	n := randomNet(3)
	rng := rand.New(rand.NewPCG(10, 11))
	positions := 0
	for positions < 10000 {
		p := chess.NewPosition()
		var vec, port Accumulator
		useAVX2 = true
		n.Refresh(&vec, p)
		useAVX2 = false
		n.Refresh(&port, p)
		var u chess.Undo
		for ply := 0; ply < 160 && positions < 10000; ply++ {
			var ml chess.MoveList
			if p.GenerateLegal(&ml); ml.N == 0 {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			var nv, np Accumulator
			useAVX2 = true
			n.Update(&nv, &vec, m)
			useAVX2 = false
			n.Update(&np, &port, m)
			p.MakeMove(m, &u)
			useAVX2 = true
			var fresh Accumulator
			n.Refresh(&fresh, p)
			sv := n.Evaluate(&nv, p.SideToMove())
			useAVX2 = false
			sp := n.Evaluate(&np, p.SideToMove())
			if nv != np || fresh != np || sv != sp {
				t.Fatalf("%s: the vectorised path differs (score %d, portable %d)", p.FEN(), sv, sp)
			}
			vec, port = nv, np
			positions++
		}
	}
}
