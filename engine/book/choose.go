package book

import (
	"math"
	"math/rand/v2"

	"github.com/squall-chess/squall/engine/chess"
)

// Candidate is a book move of a position, decoded against it, with what
// learning has made of its weight.
type Candidate struct {
	Move   chess.Move
	Code   uint16 // Polyglot code
	Weight uint16 // as in the book
	Learn  uint32 // the book's own learn field
	Score  int    // learning score from the side file (wins minus losses)
	Mark   Mark   // never/always, from the side file
	// Effective is the weight used for choice: Weight scaled by learning,
	// 0 for a never move.
	Effective float64
}

// Candidates returns the legal book moves of p, heaviest effective weight
// first. Entries whose code is not a legal move of p (a key collision or a
// corrupt book) are skipped. l may be nil (no learning).
func (b *Book) Candidates(p *chess.Position, l *Learning) []Candidate {
	key := Key(p)
	es := b.Lookup(key)
	out := make([]Candidate, 0, len(es))
	for _, e := range es {
		m, ok := DecodeMove(p, e.Move)
		if !ok {
			continue
		}
		c := Candidate{Move: m, Code: EncodeMove(m), Weight: e.Weight, Learn: e.Learn}
		c.Score, c.Mark = l.Lookup(key, c.Code)
		c.Effective = effective(e.Weight, c.Score, c.Mark)
		out = append(out, c)
	}
	// Stable insertion sort: a handful of moves.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Effective > out[j-1].Effective; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Pick chooses a book move for p, or reports false when the book has none
// playable. Variety runs from 0 (always the heaviest move) to 100 (each
// move with probability proportional to its weight, Polyglot's own rule);
// in between, weights are raised to the power 100/variety, which favours
// the main lines more strongly. A move marked always is chosen over any
// unmarked move; never moves and moves of weight 0 are not played. r is the
// random source (seed it for reproducible choice); l may be nil.
func (b *Book) Pick(p *chess.Position, r *rand.Rand, variety int, l *Learning) (chess.Move, bool) {
	cs := b.Candidates(p, l)
	var always []Candidate
	for _, c := range cs {
		if c.Mark == Always {
			always = append(always, c)
		}
	}
	if len(always) > 0 {
		cs = always
	}
	if len(cs) == 0 || cs[0].Effective <= 0 {
		return chess.NullMove, false
	}
	if variety <= 0 || len(cs) == 1 {
		return cs[0].Move, true
	}
	variety = min(variety, 100)
	exp := 100 / float64(variety)
	top := cs[0].Effective
	ws := make([]float64, len(cs))
	var sum float64
	for i, c := range cs {
		// Normalised by the top weight so the power never overflows.
		ws[i] = math.Pow(c.Effective/top, exp)
		sum += ws[i]
	}
	x := r.Float64() * sum
	for i, w := range ws {
		if x < w {
			return cs[i].Move, true
		}
		x -= w
	}
	return cs[0].Move, true // rounding at the top end
}

// effective scales a book weight by learning: each net win multiplies it by
// learnFactor, each net loss divides it, so a line that keeps losing fades
// out but is never erased (a later win restores it).
func effective(w uint16, score int, mark Mark) float64 {
	if mark == Never {
		return 0
	}
	score = max(-maxScore, min(maxScore, score))
	return float64(w) * math.Pow(learnFactor, float64(score))
}

const (
	learnFactor = 1.5
	maxScore    = 12 // bounds the factor to about 1/130 … 130
)
