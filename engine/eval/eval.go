// Package eval is Squall's static evaluation: a tapered hand-crafted
// evaluation after monsoon's list of terms (material, piece-square tables,
// imbalance, mobility, pawn structure, passed pawns, king safety, piece
// placement, threats, space, tempo), a pawn hash, and endgame knowledge
// (dead and drawish material, KPK, KBNK, mating drives). Every weight is
// fitted by Texel tuning (engine/tune) and compiled in from weights_gen.go.
//
// Internally every term is computed from White's point of view as a packed
// middlegame/endgame Score; the phase (by the non-pawn material left)
// interpolates the two, and Evaluate returns centipawns for the side to move.
package eval

import "github.com/squall-chess/squall/engine/chess"

// Phase weights of the pieces; the start position has MaxPhase.
const (
	knightPhase = 1
	bishopPhase = 1
	rookPhase   = 2
	queenPhase  = 4
	// MaxPhase is the phase of the full set of pieces (pure middlegame).
	MaxPhase = 4*knightPhase + 4*bishopPhase + 4*rookPhase + 2*queenPhase
	// ScaleNormal is the endgame scale factor of an ordinary position; a
	// drawish endgame gets less, down to 0 for a dead draw.
	ScaleNormal = 64
)

// Evaluator evaluates positions. It owns its caches (the pawn hash) and
// scratch space, so each search thread needs its own; one Evaluator must not
// be used by two goroutines at once.
type Evaluator struct {
	w     *Weights
	pawns pawnTable
	// per-evaluation scratch
	acc [2]Score
	at  attackInfo
	tr  *Features // non-nil while Features/Trace record coefficients
}

// Features is the evaluation of one position written as a linear function
// of the weights: Evaluate equals taper(Σ (Coef[White][i] − Coef[Black][i])
// · w[i], Phase, Scale) from White's view unless Special is set.
type Features struct {
	Coef  [2][NumWeights]int16
	Phase int // 0 (bare endgame) … MaxPhase
	Scale int // endgame scale factor, ScaleNormal for ordinary positions
	// Special is set when endgame knowledge (dead draw, KPK, mating drive)
	// decided the score and the weights played no part.
	Special bool
	// White is the final score from White's view.
	White int
}

// New returns an Evaluator with Squall's tuned weights.
func New() *Evaluator { return NewWithWeights(&defaultWeights) }

// NewWithWeights returns an Evaluator using w (the tuner's candidates); w is
// read, never written, and must outlive the Evaluator.
func NewWithWeights(w *Weights) *Evaluator {
	return &Evaluator{w: w, pawns: newPawnTable(pawnTableSize)}
}

// Evaluate returns the static score of p in centipawns from the side to
// move's point of view. It allocates nothing.
func (e *Evaluator) Evaluate(p *chess.Position) int {
	v := e.white(p)
	if p.SideToMove() == chess.Black {
		return -v
	}
	return v
}

// Features evaluates p while recording how often each weight counted for
// each side, for the tuner. It is slower than Evaluate and bypasses the pawn
// hash.
func (e *Evaluator) Features(p *chess.Position, f *Features) {
	*f = Features{}
	e.tr = f
	f.White = e.white(p)
	e.tr = nil
}

// add counts weight i n times for side c.
func (e *Evaluator) add(c chess.Color, i, n int) {
	e.acc[c] += e.w[i].Times(n)
	if e.tr != nil {
		e.tr.Coef[c][i] += int16(n)
	}
}

// white is the evaluation from White's point of view.
func (e *Evaluator) white(p *chess.Position) int {
	if v, ok := e.special(p); ok {
		if e.tr != nil {
			e.tr.Special = true
		}
		return v
	}
	e.acc = [2]Score{}
	e.material(p)
	e.pawnStructure(p)
	e.initAttacks(p)
	for c := chess.White; c <= chess.Black; c++ {
		e.pieces(p, c)
	}
	for c := chess.White; c <= chess.Black; c++ {
		e.passed(p, c)
		e.kingSafety(p, c)
		e.threats(p, c)
		e.space(p, c)
	}
	e.add(p.SideToMove(), WTempo, 1)
	sc := e.acc[chess.White] - e.acc[chess.Black]
	ph := phase(p)
	scale := e.scale(p, sc.EG())
	if e.tr != nil {
		e.tr.Phase, e.tr.Scale = ph, scale
	}
	return Taper(sc.MG(), sc.EG(), ph, scale)
}

// material counts material, piece-square values, the bishop pair and the
// material imbalance terms.
func (e *Evaluator) material(p *chess.Position) {
	for c := chess.White; c <= chess.Black; c++ {
		for t := chess.Pawn; t <= chess.King; t++ {
			b := p.Pieces(c, t)
			if t != chess.King {
				e.add(c, WMaterial+int(t), b.Count())
			}
			for b != 0 {
				e.add(c, pstIndex(t, relative(c, b.PopLSB())), 1)
			}
		}
		e.imbalance(p, c)
	}
}

// phase is MaxPhase for a full set of pieces, falling to 0 with only pawns
// and kings left.
func phase(p *chess.Position) int {
	ph := knightPhase*p.ByType(chess.Knight).Count() +
		bishopPhase*p.ByType(chess.Bishop).Count() +
		rookPhase*p.ByType(chess.Rook).Count() +
		queenPhase*p.ByType(chess.Queen).Count()
	return min(ph, MaxPhase)
}

// Taper blends middlegame and endgame values by phase, then scales the
// result by scale/ScaleNormal (drawish endings shrink towards 0 whatever
// their phase).
func Taper(mg, eg, ph, scale int) int {
	return (mg*ph + eg*(MaxPhase-ph)) * scale / (MaxPhase * ScaleNormal)
}
