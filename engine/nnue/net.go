// Package nnue is Squall's evaluation network: a perspective network
// (768 → H) × 2 → 1 with SCReLU activation, int16 weights, evaluated
// incrementally, its output layer chosen among a few by the material on
// the board (output buckets). Each side has its own accumulator — the
// hidden layer before activation, seen from that side — kept up to date
// move by move (Update) and rebuilt only where needed (Refresh); Evaluate
// reads the two, the side to move's first.
//
// The width H and the number of output buckets are the network file's
// (format.go): 256 and 1 for the networks of format version 1.
//
// The network is trained by Squall itself on its own games (issue 20,
// docs/NNUE.md); the binary format is in format.go.
package nnue

import (
	"fmt"

	"github.com/squall-chess/squall/engine/chess"
)

const (
	// Inputs are the features: 2 colours (the perspective's own, the
	// other's) × 6 piece types × 64 squares, squares mirrored vertically
	// for Black's perspective so that both sides see the board as White.
	Inputs = 768
	// MaxHidden is the widest hidden layer a network may have; the
	// accumulator has room for it. A width is a multiple of HiddenStep.
	MaxHidden = 512
	// HiddenStep: the vectorised loops take 16 lanes (one AVX2 register)
	// at a time.
	HiddenStep = 16
	// MaxBuckets is the most output buckets a network may have: one per
	// piece count from 2 to 33.
	MaxBuckets = 32
	// QA quantises the feature weights and biases (the accumulator's
	// unit); the activation clips at QA.
	QA = 255
	// QB is the coarsest quantisation of the output weights, MaxQB the
	// finest: each network has its own (Net.QB, a power of two between
	// them), the finest at which its largest output weight stays within
	// ±MaxOutputWeight. Output weights lie within ±127 so that QA·w fits
	// an int16: the vectorised evaluation multiplies in 16 bits, and the
	// portable one does the same to give identical results. With a fixed
	// QB of 64 the output weights, mostly within ±0.2, kept 3–4 bits and
	// their rounding moved scores by 23 cp on average.
	QB    = 64
	MaxQB = 1024
	// Scale turns the network's output into centipawns.
	Scale = 400
	// MaxOutputWeight bounds each quantised output weight (see QB).
	MaxOutputWeight = 127
)

// Net holds the quantised weights. Its shape (Hidden, Buckets and the
// slices' lengths) is set by NewNet or Parse and not changed after.
type Net struct {
	// Hidden is the width of each perspective's hidden layer: a multiple
	// of HiddenStep up to MaxHidden.
	Hidden int
	// Buckets is the number of output layers, chosen by OutputBucket.
	Buckets int
	// FeatureWeights holds the first layer feature by feature: feature
	// f's column is FeatureWeights[f·Hidden:(f+1)·Hidden].
	FeatureWeights []int16
	FeatureBias    []int16 // Hidden
	// OutputWeights holds Buckets output layers of 2·Hidden weights one
	// after the other, each the side to move's activations' half first,
	// then the other side's.
	OutputWeights []int16
	OutputBias    []int32 // one per bucket
	// QB is the output weights' (and, with QA, the output biases') scale:
	// a power of two from nnue.QB to MaxQB.
	QB int32
	// bucket[pieces] is OutputBucket(pieces, Buckets), looked up rather
	// than divided at every evaluation.
	bucket [65]uint8
}

// NewNet returns a network of the given shape with every weight zero and
// QB the coarsest.
func NewNet(hidden, buckets int) (*Net, error) {
	if hidden < HiddenStep || hidden > MaxHidden || hidden%HiddenStep != 0 {
		return nil, fmt.Errorf("nnue: hidden width %d, want a multiple of %d from %d to %d", hidden, HiddenStep, HiddenStep, MaxHidden)
	}
	if buckets < 1 || buckets > MaxBuckets {
		return nil, fmt.Errorf("nnue: %d output buckets, want 1 to %d", buckets, MaxBuckets)
	}
	n := &Net{
		Hidden:         hidden,
		Buckets:        buckets,
		FeatureWeights: make([]int16, Inputs*hidden),
		FeatureBias:    make([]int16, hidden),
		OutputWeights:  make([]int16, buckets*2*hidden),
		OutputBias:     make([]int32, buckets),
		QB:             QB,
	}
	for pieces := range n.bucket {
		n.bucket[pieces] = uint8(OutputBucket(pieces, buckets))
	}
	return n, nil
}

// Column is feature f's column of the first layer.
func (n *Net) Column(f int) []int16 { return n.FeatureWeights[f*n.Hidden : (f+1)*n.Hidden] }

// Output is bucket b's output weights: the side to move's half, then
// the other side's.
func (n *Net) Output(b int) []int16 { return n.OutputWeights[b*2*n.Hidden : (b+1)*2*n.Hidden] }

// OutputBucket is the output layer of a position with pieces pieces (both
// kings included) in a network of buckets buckets: the pieces beyond the
// kings, counted in steps of ⌈32/buckets⌉ — (pieces−2)/⌈32/buckets⌉, the
// trainer bullet's MaterialCount<N> output buckets (divisor (32+N−1)/N),
// which most engines with output buckets use. A count outside 2–33 (a
// set-up position) takes the nearest bucket.
func OutputBucket(pieces, buckets int) int {
	b := (pieces - 2) / ((32 + buckets - 1) / buckets)
	return min(max(b, 0), buckets-1)
}

// Feature is the input index of piece pc on square sq seen from side
// persp.
func Feature(persp chess.Color, pc chess.Piece, sq chess.Square) int {
	rel := 0
	if pc.Color() != persp {
		rel = 1
	}
	if persp == chess.Black {
		sq ^= 56
	}
	return rel*384 + (int(pc.Type())-1)*64 + int(sq)
}
