package eval

import (
	"fmt"
	"io"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/plural"
)

// Breakdown is an evaluation taken apart: each term's middlegame and
// endgame values for each side (White's and Black's own contributions,
// both positive when good for that side), the phase and scale that blend
// them, and the final score. `squall eval` and the UCI `eval` command print
// it.
type Breakdown struct {
	FEN   string
	Terms [NumTerms][2]Score // by term and colour
	Phase int                // MaxPhase = opening … 0 = pawn ending
	Scale int                // ScaleNormal unless the ending is drawish
	// Special names the endgame knowledge that decided the score, if any
	// (then Terms are zero).
	Special string
	// Total is the final score in centipawns from White's point of view;
	// Evaluate returns it (negated when Black is to move).
	Total int
	// PawnProbes and PawnHits are this Evaluator's pawn-hash counters.
	PawnProbes, PawnHits uint64
}

// Trace evaluates p and explains the result term by term.
func (e *Evaluator) Trace(p *chess.Position) Breakdown {
	var f Features
	e.Features(p, &f)
	e.Evaluate(p) // count a pawn-hash probe as a search would
	b := Breakdown{FEN: p.FEN(), Phase: f.Phase, Scale: f.Scale, Total: f.White}
	b.PawnProbes, b.PawnHits = e.PawnHashStats()
	if f.Special {
		b.Special = specialName(p)
		b.Phase, b.Scale = phase(p), ScaleNormal
		return b
	}
	for c := 0; c < 2; c++ {
		for i, n := range f.Coef[c] {
			if n != 0 {
				b.Terms[TermOf(i)][c] += e.w[i].Times(int(n))
			}
		}
	}
	return b
}

// specialName names the endgame knowledge that decides p.
func specialName(p *chess.Position) string {
	switch {
	case p.InsufficientMaterial():
		return "insufficient material"
	case p.ByType(chess.Pawn) != 0:
		return "KPK bitbase"
	case p.ByType(chess.Bishop).Count() == 1 && p.ByType(chess.Knight).Count() == 1 && p.ByType(chess.Rook)|p.ByType(chess.Queen) == 0:
		return "KBNK mating drive"
	case p.ByType(chess.Rook)|p.ByType(chess.Queen)|p.ByType(chess.Bishop) != 0 && p.ByType(chess.Knight).Count() < 2:
		return "mating drive (king to the edge)"
	}
	return "no forced mate (draw)"
}

// Print writes the breakdown as a table in pawns, as every score the
// program shows: each side's own middlegame and endgame values, then White
// minus Black, ending with the line "total +N.NN" (White's view).
func (b Breakdown) Print(w io.Writer) {
	fmt.Fprintf(w, "position  %s\n", b.FEN)
	if b.Special != "" {
		fmt.Fprintf(w, "endgame knowledge: %s\n", b.Special)
	} else {
		fmt.Fprintf(w, "%-14s %9s %9s %9s %9s %9s %9s\n", "term (pawns)", "white mg", "white eg", "black mg", "black eg", "total mg", "total eg")
		row := func(name string, wt, bt Score) {
			d := wt - bt
			fmt.Fprintf(w, "%-14s %9.2f %9.2f %9.2f %9.2f %+9.2f %+9.2f\n", name,
				pawns(wt.MG()), pawns(wt.EG()), pawns(bt.MG()), pawns(bt.EG()), pawns(d.MG()), pawns(d.EG()))
		}
		var sum [2]Score
		for t := Term(0); t < NumTerms; t++ {
			row(t.String(), b.Terms[t][0], b.Terms[t][1])
			sum[0] += b.Terms[t][0]
			sum[1] += b.Terms[t][1]
		}
		row("sum", sum[0], sum[1])
		fmt.Fprintf(w, "phase %d/%d (%d = middlegame, 0 = pawn ending), scale %d/%d\n", b.Phase, MaxPhase, MaxPhase, b.Scale, ScaleNormal)
	}
	if b.PawnProbes > 0 {
		fmt.Fprintf(w, "pawn hash %s, %s (%.1f%%)\n", plural.Count(b.PawnProbes, "probe"), plural.Count(b.PawnHits, "hit"), 100*float64(b.PawnHits)/float64(b.PawnProbes))
	}
	fmt.Fprintf(w, "total %+.2f\n", pawns(b.Total))
}

// pawns is a value in centipawns in pawns.
func pawns(cp int) float64 { return float64(cp) / 100 }
