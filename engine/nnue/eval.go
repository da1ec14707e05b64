package nnue

import "github.com/squall-chess/squall/engine/chess"

// Evaluate is the network's score of the position acc describes, in
// centipawns from the side to move's (stm's) point of view.
//
// SCReLU: each activation is clamp(v, 0, QA)², weighed by the output
// layer. The product is formed as (a·w)·a with a·w in 16 bits (exact: a ≤
// QA, |w| ≤ MaxOutputWeight) and the sum in 32 bits, wrapping as a vector
// unit's lanes would; wrapping addition does not depend on order, so any
// vectorised evaluation that forms the same products gives the same sum.
func (n *Net) Evaluate(acc *Accumulator, stm chess.Color) int {
	dot := screluDot
	if useAVX2 {
		dot = screluDotAVX2
	}
	sum := dot(&acc.Values[stm], &n.OutputWeights[0]) + dot(&acc.Values[stm^1], &n.OutputWeights[1])
	return int((int64(sum)/QA + int64(n.OutputBias)) * Scale / (QA * int64(n.QB)))
}

func screluDot(v, w *[Hidden]int16) int32 {
	var sum int32
	for i, x := range v {
		a := min(max(x, 0), QA)
		sum += int32(a*w[i]) * int32(a)
	}
	return sum
}
