// Package train fits Squall's evaluation network (engine/nnue) to
// positions of its own games: each labelled with the search's score and
// the game's result (data.go). The model is kept in float64, trained with
// Adam on mini-batches whose gradients are computed in parallel and summed
// in a fixed order (deterministic for a seed), then quantised to the
// network's int16 format.
package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/nnue"
)

// clipWeight bounds every weight and bias: quantised, output weights must
// stay within ±nnue.MaxOutputWeight/QB, and feature weights small enough
// that 32 pieces' sum stays inside int16 (32 × 1.98 × 255 < 32767).
const clipWeight = 1.98

// Model is the float network: (768 → H) × 2 → 1 of K output buckets,
// SCReLU, the output σ'd into a win probability. Its output y is in units
// of 400 centipawns, so that the quantised network's Scale of 400 gives
// centipawns. A position's bucket is nnue.OutputBucket of its piece
// count, as the quantised network's.
type Model struct {
	H, K int
	// P holds every parameter; W, B, O and OB are views of it, so that
	// the optimiser and the gradient sums see one slice.
	P  []float64
	W  []float64 // Inputs × H, feature by feature
	B  []float64 // H
	O  []float64 // K × 2H: bucket by bucket, each the side to move's half first
	OB []float64 // K output biases
}

// newShape returns a zero model of width h with k output buckets.
func newShape(h, k int) *Model {
	m := &Model{H: h, K: k, P: make([]float64, nnue.Inputs*h+h+2*h*k+k)}
	m.W = m.P[:nnue.Inputs*h]
	m.B = m.P[nnue.Inputs*h : nnue.Inputs*h+h]
	m.O = m.P[nnue.Inputs*h+h : nnue.Inputs*h+h+2*h*k]
	m.OB = m.P[nnue.Inputs*h+h+2*h*k:]
	return m
}

// NewModel returns a model with hidden width h, k output buckets and
// weights drawn from seed: feature weights uniform in ±1/√32 (about 32
// pieces are active), output weights uniform in ±1/√(2h), biases zero.
func NewModel(h, k int, seed uint64) *Model {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	m := newShape(h, k)
	a := 1 / math.Sqrt(32)
	for i := range m.W {
		m.W[i] = (2*rng.Float64() - 1) * a
	}
	b := 1 / math.Sqrt(float64(2*h))
	for i := range m.O {
		m.O[i] = (2*rng.Float64() - 1) * b
	}
	return m
}

// FromNet is the float model of a quantised network: training can go on
// from a network kept where its trainer's state was not (each session's
// data is gone with its machine; the network is in the repository). The
// quantisation's rounding stays in the weights, which training smooths out.
func FromNet(n *nnue.Net) *Model {
	m := newShape(n.Hidden, n.Buckets)
	for i, w := range n.FeatureWeights {
		m.W[i] = float64(w) / nnue.QA
	}
	for i, b := range n.FeatureBias {
		m.B[i] = float64(b) / nnue.QA
	}
	for i, w := range n.OutputWeights {
		m.O[i] = float64(w) / float64(n.QB)
	}
	for i, b := range n.OutputBias {
		m.OB[i] = float64(b) / (nnue.QA * float64(n.QB))
	}
	return m
}

// SplitBuckets returns a model of k output buckets that scores as m, of
// one, does: each bucket starts as m's output layer, and training then
// fits each to its material. This is how a network of one bucket carries
// its learning into one of several (squall train --init --buckets).
func (m *Model) SplitBuckets(k int) (*Model, error) {
	if m.K != 1 {
		return nil, fmt.Errorf("train: a model of %d output buckets cannot be split", m.K)
	}
	s := newShape(m.H, k)
	copy(s.W, m.W)
	copy(s.B, m.B)
	for b := range k {
		copy(s.O[2*b*m.H:], m.O)
		s.OB[b] = m.OB[0]
	}
	return s, nil
}

// Widen returns a model h wide that scores every position as m does: m's
// hidden units first, unchanged, then new ones whose feature weights are
// drawn from seed as NewModel's and whose output weights are zero. This
// is how a network carries its learning into a wider one (squall train
// --init --hidden): a wider network trained from random weights would
// start again from nothing, where the new units of a widened one begin
// silent and training gives them a say (their output weights' gradient
// is not zero, as their activations are not) — the "net2net" idea of
// growing a trained network without changing its function.
func (m *Model) Widen(h int, seed uint64) (*Model, error) {
	if h < m.H {
		return nil, fmt.Errorf("train: a model %d wide cannot be widened to %d", m.H, h)
	}
	w := NewModel(h, m.K, seed) // the new units' feature weights
	clear(w.O)                  // and their output weights silent
	for f := range nnue.Inputs {
		copy(w.W[f*h:f*h+m.H], m.W[f*m.H:(f+1)*m.H])
	}
	copy(w.B, m.B)
	for half := range 2 * m.K { // each bucket's two halves, as O is laid out
		copy(w.O[half*h:half*h+m.H], m.O[half*m.H:(half+1)*m.H])
	}
	copy(w.OB, m.OB)
	return w, nil
}

// features lists r's active inputs for each perspective.
func features(r *Position, fs *[2][32]int) int {
	n := 0
	r.each(func(pc chess.Piece, sq chess.Square) {
		fs[0][n] = nnue.Feature(chess.White, pc, sq)
		fs[1][n] = nnue.Feature(chess.Black, pc, sq)
		n++
	})
	return n
}

// scratch is one worker's buffers for a forward and backward pass.
type scratch struct {
	fs   [2][32]int
	h    [2][]float64 // hidden pre-activation, by perspective (0 White)
	grad *Model       // gradient sums
}

func (m *Model) newScratch() *scratch {
	return &scratch{h: [2][]float64{make([]float64, m.H), make([]float64, m.H)},
		grad: newShape(m.H, m.K)}
}

func screlu(v float64) float64 {
	v = min(max(v, 0), 1)
	return v * v
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// forward computes the output y of r (side to move's view), leaving the
// hidden layer and active features in s; n is the number of pieces, out
// b its output bucket.
func (m *Model) forward(r *Position, s *scratch) (y float64, n, b int) {
	n = features(r, &s.fs)
	for persp := range 2 {
		h := s.h[persp]
		copy(h, m.B)
		for _, f := range s.fs[persp][:n] {
			w := m.W[f*m.H : (f+1)*m.H]
			for i := range h {
				h[i] += w[i]
			}
		}
	}
	stm := int(r.STM)
	b = nnue.OutputBucket(n, m.K)
	y = m.OB[b]
	for k, persp := range [2]int{stm, stm ^ 1} {
		o := m.O[(2*b+k)*m.H : (2*b+k+1)*m.H]
		for i, v := range s.h[persp] {
			y += o[i] * screlu(v)
		}
	}
	return y, n, b
}

// Eval is the model's score of r in centipawns, side to move's view.
func (m *Model) Eval(r *Position) float64 {
	y, _, _ := m.forward(r, m.newScratch())
	return y * nnue.Scale
}

// lossGrad adds r's loss gradient to s.grad and returns its loss,
// (σ(y·c) − target)², c being nnue.Scale/WDLScale: the output's win
// probability on the scale of the target's scores.
func (m *Model) lossGrad(r *Position, target, c float64, s *scratch) float64 {
	y, n, b := m.forward(r, s)
	p := sigmoid(y * c)
	g := 2 * (p - target) * p * (1 - p) * c // dL/dy
	gr := s.grad
	gr.OB[b] += g
	stm := int(r.STM)
	for k, persp := range [2]int{stm, stm ^ 1} {
		o := m.O[(2*b+k)*m.H : (2*b+k+1)*m.H]
		og := gr.O[(2*b+k)*m.H : (2*b+k+1)*m.H]
		h := s.h[persp]
		for i, v := range h {
			og[i] += g * screlu(v)
			// dL/dh: through SCReLU, whose slope is 2v inside (0, 1).
			if v > 0 && v < 1 {
				h[i] = g * o[i] * 2 * v
			} else {
				h[i] = 0
			}
		}
		for i, d := range h {
			gr.B[i] += d
		}
		for _, f := range s.fs[persp][:n] {
			wg := gr.W[f*m.H : (f+1)*m.H]
			for i, d := range h {
				wg[i] += d
			}
		}
	}
	return (p - target) * (p - target)
}

// Quantise returns the int16 network, its output weights at the finest
// scale that clips none of them (outputScale). The model's shape must be
// one a network may have (nnue.NewNet).
func (m *Model) Quantise() (*nnue.Net, error) { return m.QuantiseAt(m.outputScale()) }

// QuantiseAt returns the int16 network with its output weights at scale qb,
// a power of two from nnue.QB to nnue.MaxQB; a weight beyond
// ±nnue.MaxOutputWeight/qb is clipped to it. A finer scale rounds every
// output weight more finely and clips the few largest: one weight past
// 127/128 took r5-256b8 to 64, where the rounding cost half of what its
// last training had gained (Trainer.QuantiseBest weighs the two).
func (m *Model) QuantiseAt(qb int32) (*nnue.Net, error) {
	n, err := nnue.NewNet(m.H, m.K)
	if err != nil {
		return nil, fmt.Errorf("train: quantising the model: %w", err)
	}
	if qb < nnue.QB || qb > nnue.MaxQB || qb&(qb-1) != 0 {
		return nil, fmt.Errorf("train: quantising the model: output scale %d is not a power of two from %d to %d", qb, nnue.QB, nnue.MaxQB)
	}
	n.QB = qb
	q := func(v, scale, lim float64) int16 { return int16(max(min(math.Round(v*scale), lim), -lim)) }
	scale := float64(qb)
	for i, w := range m.W {
		n.FeatureWeights[i] = q(w, nnue.QA, 32767)
	}
	for i, b := range m.B {
		n.FeatureBias[i] = q(b, nnue.QA, 32767)
	}
	for i, w := range m.O {
		n.OutputWeights[i] = q(w, scale, nnue.MaxOutputWeight)
	}
	for i, b := range m.OB {
		n.OutputBias[i] = int32(math.Round(b * nnue.QA * scale))
	}
	return n, nil
}

// outputScale is the finest power-of-two scale, from nnue.QB to
// nnue.MaxQB, at which every output weight rounds within
// ±nnue.MaxOutputWeight (training keeps them within ±MaxOutputWeight/QB,
// so nnue.QB always does).
func (m *Model) outputScale() int32 {
	biggest := 0.0
	for _, w := range m.O {
		biggest = max(biggest, math.Abs(w))
	}
	qb := int32(nnue.MaxQB)
	for qb > nnue.QB && math.Round(biggest*float64(qb)) > nnue.MaxOutputWeight {
		qb /= 2
	}
	return qb
}
