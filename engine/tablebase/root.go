package tablebase

import (
	"sort"

	"github.com/squall-chess/squall/engine/chess"
)

// RankedMove is a legal root move with its tablebase value.
type RankedMove struct {
	Move chess.Move
	// DTZ after the move, from the root side's view, counting the move
	// itself: 1 for a winning capture, pawn move or mate, -1 for a zeroing
	// move that loses, 0 for a draw.
	DTZ int
	// WDL is the result for the root side with the 50-move counter taken
	// into account when rule50 is set: a win whose conversion does not
	// fit in the remaining budget counts as 1 (cursed), not 2.
	WDL int
	// Rank orders moves, higher first. Moves of equal rank are equally
	// good for the tablebase; a searcher should search only the moves
	// that share the best rank (RootMoves sorts them first, quickest win
	// or slowest loss first within a rank).
	Rank int
}

// maxRank bounds ranks so that wins, draws and losses never mix.
const maxRank = 1000

// RootMoves ranks every legal move of p by the tables' DTZ, best first, so
// a searcher converts won endings (a winning move that fits in the 50-move
// budget — every such move ranks equally while the budget is safe, the
// fastest conversion ranks highest once it is tight or a repetition has
// occurred), holds drawn ones (draws rank above losses) and resists longest
// when lost near a 50-move draw. With rule50 false, cursed wins count as
// wins and blessed losses as losses. ok is false when p is not in the
// tables (too many pieces, castling rights, a table missing) or has no
// legal moves. p is changed during the probe and restored.
func (tb *Tablebase) RootMoves(p *chess.Position, rule50 bool) (moves []RankedMove, ok bool) {
	if !tb.probable(p) {
		return nil, false
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		return nil, false
	}
	// The counter paces conversion even without the 50-move rule: the
	// budget shrinks with every non-zeroing move, so the win progresses.
	cnt50 := p.HalfmoveClock()
	repeated := p.Repetitions() > 0
	moves = make([]RankedMove, 0, ml.N)
	for _, m := range ml.Moves[:ml.N] {
		var u chess.Undo
		p.MakeMove(m, &u)
		var dtz int
		var ok bool
		if p.HalfmoveClock() == 0 {
			// Zeroing move: the child's WDL is enough.
			var v int
			v, ok = tb.probeWDL1(p)
			dtz = wdlToDTZ[-v+2]
			if ok && v == -2 && p.IsCheckmate() {
				dtz = 1
			}
		} else {
			dtz, ok = tb.probeDTZ(p, false)
			switch {
			case dtz > 0:
				dtz = -dtz - 1
			case dtz < 0:
				dtz = -dtz + 1
			}
			if ok && dtz > 0 && p.IsCheckmate() {
				dtz = 1
			}
		}
		p.UnmakeMove(m, &u)
		if !ok {
			return nil, false
		}
		moves = append(moves, rankMove(m, dtz, cnt50, rule50, repeated))
	}
	// Within a rank the quickest win (or longest loss) comes first, the
	// move a player would call best.
	sort.SliceStable(moves, func(i, j int) bool {
		if moves[i].Rank != moves[j].Rank {
			return moves[i].Rank > moves[j].Rank
		}
		return moves[i].DTZ < moves[j].DTZ
	})
	return moves, true
}

// probeWDL1 is the WDL of p with its status folded into ok.
func (tb *Tablebase) probeWDL1(p *chess.Position) (int, bool) {
	v, st := tb.probeWDL(p)
	return v, st != probeFail
}

func rankMove(m chess.Move, dtz, cnt50 int, rule50, repeated bool) RankedMove {
	r := RankedMove{Move: m, DTZ: dtz}
	d := dtz
	if !rule50 && (d > 100 || d < -100) {
		// Without the 50-move rule a cursed win is a win.
		if d > 0 {
			d -= 100
		} else {
			d += 100
		}
	}
	switch {
	case d > 0:
		r.WDL = 2
		if rule50 && d+cnt50 > 100 {
			r.WDL = 1
		}
		if d+cnt50 <= 99 && !repeated {
			r.Rank = maxRank
		} else {
			r.Rank = maxRank - (d + cnt50)
			if r.Rank < 1 {
				r.Rank = 1
			}
		}
	case d < 0:
		r.WDL = -2
		if rule50 && -d+cnt50 > 100 {
			r.WDL = -1
		}
		if -2*d+cnt50 < 100 {
			r.Rank = -maxRank
		} else {
			r.Rank = -maxRank + (-d + cnt50)
			if r.Rank > -1 {
				r.Rank = -1
			}
		}
	}
	return r
}
