// Package nnue is Squall's evaluation network: a perspective network
// (768 → Hidden) × 2 → 1 with SCReLU activation, int16 weights, evaluated
// incrementally. Each side has its own accumulator — the hidden layer
// before activation, seen from that side — kept up to date move by move
// (Update) and rebuilt only where needed (Refresh); Evaluate reads the
// two, the side to move's first.
//
// The network is trained by Squall itself on its own games (issue 20,
// docs/NNUE.md); the binary format is in format.go.
package nnue

import "github.com/squall-chess/squall/engine/chess"

const (
	// Inputs are the features: 2 colours (the perspective's own, the
	// other's) × 6 piece types × 64 squares, squares mirrored vertically
	// for Black's perspective so that both sides see the board as White.
	Inputs = 768
	// Hidden is the width of each perspective's hidden layer.
	Hidden = 256
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

// Net holds the quantised weights.
type Net struct {
	// FeatureWeights[f] is feature f's column of the first layer.
	FeatureWeights [Inputs][Hidden]int16
	FeatureBias    [Hidden]int16
	// OutputWeights[0] weighs the side to move's activations, [1] the
	// other side's.
	OutputWeights [2][Hidden]int16
	OutputBias    int32
	// QB is the output weights' (and, with QA, the output bias's) scale:
	// a power of two from nnue.QB to MaxQB.
	QB int32
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
