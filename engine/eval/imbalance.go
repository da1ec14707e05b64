package eval

import "github.com/squall-chess/squall/engine/chess"

// Imbalance terms, offsets from WImbalance.
const (
	imbKnightPawns   = iota // × own knights × (own pawns − 5): knights like closed, pawn-rich boards
	imbRookPawns            // × own rooks × (own pawns − 5): rooks want open lines
	imbRedundantRook        // two rooks (or rook and queen) overlap in what they do
	imbExchange             // a rook against a minor piece (the exchange up)
	imbMinorForPawns        // a minor piece against pawns
	numImbalance
)

// imbalance scores c's material balance beyond piece values.
func (e *Evaluator) imbalance(p *chess.Position, c chess.Color) {
	o := c.Other()
	pawns := p.Pieces(c, chess.Pawn).Count()
	n, b := p.Pieces(c, chess.Knight).Count(), p.Pieces(c, chess.Bishop).Count()
	r, q := p.Pieces(c, chess.Rook).Count(), p.Pieces(c, chess.Queen).Count()
	if b >= 2 {
		e.add(c, WBishopPair, 1)
	}
	if v := n * (pawns - 5); v != 0 {
		e.add(c, WImbalance+imbKnightPawns, v)
	}
	if v := r * (pawns - 5); v != 0 {
		e.add(c, WImbalance+imbRookPawns, v)
	}
	if r+q >= 2 && r >= 1 {
		e.add(c, WImbalance+imbRedundantRook, 1)
	}
	minors := n + b
	oMinors := p.Pieces(o, chess.Knight).Count() + p.Pieces(o, chess.Bishop).Count()
	oRooks := p.Pieces(o, chess.Rook).Count()
	if r > oRooks && minors < oMinors {
		e.add(c, WImbalance+imbExchange, 1)
	}
	if minors > oMinors && pawns < p.Pieces(o, chess.Pawn).Count() && r == oRooks {
		e.add(c, WImbalance+imbMinorForPawns, 1)
	}
}
