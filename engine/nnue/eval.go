package nnue

import "github.com/squall-chess/squall/engine/chess"

// Evaluate is the network's score of position p, whose accumulator is
// acc, in centipawns from the side to move's (stm's) point of view. The
// output layer is the bucket of p's piece count (OutputBucket).
//
// SCReLU: each activation is clamp(v, 0, QA)², weighed by the output
// layer. The product is formed as (a·w)·a with a·w in 16 bits (exact: a ≤
// QA, |w| ≤ MaxOutputWeight) and the sum in 32 bits, wrapping as a vector
// unit's lanes would; wrapping addition does not depend on order, so any
// vectorised evaluation that forms the same products gives the same sum.
func (n *Net) Evaluate(acc *Accumulator, p *chess.Position) int {
	stm, h := p.SideToMove(), n.Hidden
	b := n.bucket[p.Occupied().Count()]
	o := n.Output(int(b))
	var sum int32
	if useAVX2 {
		sum = screluDotAVX2(&acc.Values[stm][0], &o[0], h) + screluDotAVX2(&acc.Values[stm^1][0], &o[h], h)
	} else {
		sum = screluDot(acc.Values[stm][:h], o[:h]) + screluDot(acc.Values[stm^1][:h], o[h:])
	}
	return int((int64(sum)/QA + int64(n.OutputBias[b])) * Scale / (QA * int64(n.QB)))
}

func screluDot(v, w []int16) int32 {
	w = w[:len(v)]
	var sum int32
	for i, x := range v {
		a := min(max(x, 0), QA)
		sum += int32(a*w[i]) * int32(a)
	}
	return sum
}
