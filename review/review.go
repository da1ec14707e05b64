// Package review analyses a played game move by move, as lichess's
// computer analysis does: an engine evaluates every position of the main
// line, each move is judged by how much it lowered the mover's winning
// chances (inaccuracy, mistake, blunder), each side gets an accuracy and an
// average centipawn loss, and the game can be annotated with NAGs, "Best
// was …" comments and [%eval] commands.
//
// The engine is reached only through engine.Analyzer, so the built-in
// searcher and any UCI engine review alike. Build is the pure part (scores
// in, judgments out) and is what the tests drive with scripted scores.
package review

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/plural"
)

// Ceiling is the largest centipawn value that counts: lichess caps scores
// at ±1000 and maps a forced mate to the cap, so that a won position is
// "won" whatever the engine's exact number.
const Ceiling = 1000

// Thresholds on the drop of the mover's winning chances (the [-1, 1] scale
// of WinningChances; lichess's values). On the 0–100 win% scale they are
// drops of 5, 10 and 15 points.
const (
	InaccuracyDrop = 0.1
	MistakeDrop    = 0.2
	BlunderDrop    = 0.3
)

// Eval is an evaluation from White's point of view.
type Eval struct {
	// CP is centipawns when Mate is 0.
	CP int
	// Mate is the number of moves to a forced mate: positive when White
	// mates, negative when Black does.
	Mate int
	// Over is set for a position where the game has ended: checkmate (CP is
	// then ±Ceiling for the winner) or stalemate (CP 0). Nothing is searched.
	Over bool
}

// String formats like lichess: "+0.35", "-1.20", "#5", "#-3"; "1-0",
// "0-1" or "½-½" for a finished game.
func (e Eval) String() string {
	switch {
	case e.Over && e.CP > 0:
		return "1-0"
	case e.Over && e.CP < 0:
		return "0-1"
	case e.Over:
		return "½-½"
	case e.Mate != 0:
		return fmt.Sprintf("#%d", e.Mate)
	}
	return fmt.Sprintf("%+.2f", float64(e.CP)/100)
}

// Ceiled is the evaluation in centipawns clamped to ±Ceiling, a mate
// counting as the ceiling.
func (e Eval) Ceiled() int {
	switch {
	case e.Mate > 0:
		return Ceiling
	case e.Mate < 0:
		return -Ceiling
	}
	return max(-Ceiling, min(Ceiling, e.CP))
}

// For returns the evaluation from c's point of view.
func (e Eval) For(c chess.Color) Eval {
	if c == chess.White {
		return e
	}
	return Eval{CP: -e.CP, Mate: -e.Mate, Over: e.Over}
}

// WinningChances maps centipawns to [-1, 1] with lichess's logistic curve,
// 2/(1+e^(−0.00368208·cp))−1, after clamping to ±Ceiling.
func WinningChances(cp int) float64 {
	cp = max(-Ceiling, min(Ceiling, cp))
	return 2/(1+math.Exp(-0.00368208*float64(cp))) - 1
}

// WinPercent is WinningChances on the 0–100 scale: 50 + 50·chances.
func WinPercent(cp int) float64 { return 50 + 50*WinningChances(cp) }

// MoveAccuracy is lichess's accuracy of one move from the mover's win%
// before and after it: 103.1668·e^(−0.04354·drop) − 3.1669, plus lichess's
// one point of uncertainty, within [0, 100]. A move that does not lower
// the win% is 100.
func MoveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*(before-after)) - 3.166924740191411
	return max(0, min(100, raw+1))
}

// Judgment is the verdict on a move.
type Judgment uint8

const (
	Good Judgment = iota // nothing to say
	Inaccuracy
	Mistake
	Blunder
)

var judgmentNames = [...]string{"", "Inaccuracy", "Mistake", "Blunder"}

// String is "Inaccuracy", "Mistake", "Blunder" or "" for a good move.
func (j Judgment) String() string { return judgmentNames[j] }

// Symbol is the move suffix: "?!", "?", "??" or "".
func (j Judgment) Symbol() string { return [...]string{"", "?!", "?", "??"}[j] }

// NAG is the Numeric Annotation Glyph: $6 (?!), $2 (?), $4 (??), or 0.
func (j Judgment) NAG() uint8 { return [...]uint8{0, 6, 2, 4}[j] }

// PositionEval is the engine's verdict on one position of the game.
type PositionEval struct {
	Eval Eval
	// Best is the engine's move and PV its line (empty when the game is
	// over in this position).
	Best  chess.Move
	PV    []chess.Move
	Depth int
	Nodes uint64
}

// Move is the review of one move of the main line.
type Move struct {
	Ply    int // 1-based index of the move in the reviewed line
	Number int // the fullmove number it is played at
	Color  chess.Color
	Move   chess.Move
	SAN    string
	// Before and After are the evaluations (White's view) of the positions
	// before and after the move.
	Before, After Eval
	// WinBefore and WinAfter are the mover's win% (0–100).
	WinBefore, WinAfter float64
	// CPLoss is how many centipawns (ceiled) the move gave away, ≥ 0.
	CPLoss   int
	Accuracy float64
	Judgment Judgment
	// Reason is lichess's wording for a judgment made on mates ("Lost
	// forced checkmate sequence"), empty for one made on winning chances.
	Reason string
	// Best is the engine's choice in the position before the move, and
	// BestLine its line in SAN with move numbers; both are set only when
	// the move was judged and differs from Best.
	Best     chess.Move
	BestLine string
}

// Player is one side's totals.
type Player struct {
	Moves                            int
	Inaccuracies, Mistakes, Blunders int
	// ACPL is the average centipawn loss per move (rounded).
	ACPL int
	// Accuracy is the mean of the moves' accuracies (0–100).
	Accuracy float64
}

// Report is a reviewed game.
type Report struct {
	Start *chess.Position
	// Positions has one entry per position: before the first move, then
	// after each move.
	Positions []PositionEval
	Moves     []Move
	// Players are White's and Black's totals, indexed by chess.Color.
	Players [2]Player
}

// Progress reports that position Done (1-based) of Total has been
// evaluated, with its evaluation.
type Progress struct {
	Done, Total int
	Eval        PositionEval
}

// Analyze evaluates every position of the line (start, then after each
// move) with lim and builds the report. progress, if non-nil, is called
// after each position. When ctx is cancelled it returns ctx's error and the
// report is nil.
func Analyze(ctx context.Context, a engine.Analyzer, start *chess.Position, moves []chess.Move, lim engine.Limits, progress func(Progress)) (*Report, error) {
	if err := a.NewGame(); err != nil {
		return nil, fmt.Errorf("review: new game: %w", err)
	}
	evals := make([]PositionEval, 0, len(moves)+1)
	for i := 0; i <= len(moves); i++ {
		pe, err := Evaluate(ctx, a, engine.Game{Start: start, Moves: moves[:i]}, lim)
		if err != nil {
			return nil, fmt.Errorf("review: position after %s: %w", plural.Count(i, "ply"), err)
		}
		evals = append(evals, pe)
		if progress != nil {
			progress(Progress{Done: i + 1, Total: len(moves) + 1, Eval: pe})
		}
	}
	return Build(start, moves, evals)
}

// Evaluate searches one position and returns its evaluation from White's
// point of view. A finished game (checkmate, stalemate) is not searched.
func Evaluate(ctx context.Context, a engine.Analyzer, g engine.Game, lim engine.Limits) (PositionEval, error) {
	p, err := g.Position()
	if err != nil {
		return PositionEval{}, err
	}
	if pe, over := Settled(p); over {
		return pe, nil
	}
	var last engine.Info
	res, err := a.Search(ctx, g, lim, func(in engine.Info) {
		if in.BestLine() {
			last = in
			last.PV = append([]chess.Move(nil), in.PV...) // the engine may reuse its slice
		}
	})
	if err != nil {
		return PositionEval{}, err
	}
	if ctx.Err() != nil {
		return PositionEval{}, ctx.Err()
	}
	return FromSearch(p, res, last, a.Name())
}

// Settled is the evaluation of a position whose game is over (checkmate or
// stalemate), which needs no search; over is false for any other.
func Settled(p *chess.Position) (pe PositionEval, over bool) {
	switch {
	case p.IsCheckmate():
		// The side to move is mated.
		return PositionEval{Eval: Eval{CP: -Ceiling, Over: true}.For(p.SideToMove())}, true
	case p.IsStalemate():
		return PositionEval{Eval: Eval{Over: true}}, true
	}
	return PositionEval{}, false
}

// FromSearch is the evaluation of p from White's point of view, made from
// a finished search of p: its result and the last report of its best line
// (Info.BestLine), used when the result carries none. engineName is for the error
// of an engine that gave no legal move.
func FromSearch(p *chess.Position, res engine.Result, last engine.Info, engineName string) (PositionEval, error) {
	if len(res.Last.PV) > 0 || res.Last.Depth > 0 {
		last = res.Last
	}
	pe := PositionEval{Best: res.BestMove, PV: last.PV, Depth: last.Depth, Nodes: last.Nodes}
	if pe.Best == chess.NullMove && len(last.PV) > 0 {
		pe.Best = last.PV[0]
	}
	if pe.Best == chess.NullMove || !p.IsLegal(pe.Best) {
		return PositionEval{}, fmt.Errorf("engine %s gave no legal move in %s", engineName, p.FEN())
	}
	if len(pe.PV) == 0 || pe.PV[0] != pe.Best {
		pe.PV = []chess.Move{pe.Best}
	}
	pe.Eval = Eval{CP: last.Score.CP, Mate: last.Score.Mate}.For(p.SideToMove())
	return pe, nil
}

// Build judges every move from the evaluations of the positions around it:
// evals[0] is the start position, evals[i] the position after moves[i-1].
func Build(start *chess.Position, moves []chess.Move, evals []PositionEval) (*Report, error) {
	if len(evals) != len(moves)+1 {
		return nil, fmt.Errorf("review: %d evaluations for %d moves, want %d", len(evals), len(moves), len(moves)+1)
	}
	r := &Report{Start: start.Clone(), Positions: evals}
	p := start.Clone()
	var u chess.Undo
	var loss [2]int
	var acc [2]float64
	for i, m := range moves {
		if !p.IsLegal(m) {
			return nil, fmt.Errorf("review: move %d (%s) is illegal in %s", i+1, m.UCI(p.Chess960()), p.FEN())
		}
		c := p.SideToMove()
		mv := Move{Ply: i + 1, Number: p.FullmoveNumber(), Color: c, Move: m, SAN: p.SAN(m),
			Before: evals[i].Eval, After: evals[i+1].Eval}
		judge(&mv)
		if evals[i].Best == m {
			// The engine's own choice is not a mistake: the drop is the
			// next search seeing further, not the move (else the comment
			// would name no better move).
			mv.Judgment, mv.Reason = Good, ""
		}
		if mv.Judgment != Good && evals[i].Best != chess.NullMove && evals[i].Best != m {
			mv.Best = evals[i].Best
			mv.BestLine = strings.Join(p.LineSAN(evals[i].PV[:min(len(evals[i].PV), 6)]), " ")
		}
		pl := &r.Players[c]
		pl.Moves++
		switch mv.Judgment {
		case Inaccuracy:
			pl.Inaccuracies++
		case Mistake:
			pl.Mistakes++
		case Blunder:
			pl.Blunders++
		}
		loss[c] += mv.CPLoss
		acc[c] += mv.Accuracy
		r.Moves = append(r.Moves, mv)
		p.MakeMove(m, &u)
	}
	for c := range r.Players {
		if n := r.Players[c].Moves; n > 0 {
			r.Players[c].ACPL = int(math.Round(float64(loss[c]) / float64(n)))
			r.Players[c].Accuracy = acc[c] / float64(n)
		}
	}
	return r, nil
}

// Judge is the verdict on a move by c that led from a position evaluated
// before to one evaluated after (both White's view), as Build judges the
// moves played: for a move the game did not play (the review view's "find
// a better move", where Good is a move as good as the engine's best within
// the review's thresholds).
func Judge(c chess.Color, before, after Eval) Judgment {
	mv := Move{Color: c, Before: before, After: after}
	judge(&mv)
	return mv.Judgment
}

// judge fills in the mover's win%, centipawn loss, accuracy and judgment.
func judge(mv *Move) {
	before, after := mv.Before.For(mv.Color), mv.After.For(mv.Color)
	cb, ca := before.Ceiled(), after.Ceiled()
	mv.WinBefore, mv.WinAfter = WinPercent(cb), WinPercent(ca)
	mv.CPLoss = max(0, cb-ca)
	mv.Accuracy = MoveAccuracy(mv.WinBefore, mv.WinAfter)
	if after.Over && after.CP != 0 {
		return // the move gave checkmate
	}
	// A stalemate is judged as the draw (0.00) it is.
	switch {
	// Mates, as lichess's MateAdvice: a mate the mover now faces, a forced
	// mate the mover had and lost. A slower mate is not judged.
	case before.Mate == 0 && after.Mate < 0:
		mv.Reason = "Checkmate is now unavoidable"
		switch {
		case before.CP < -999:
			mv.Judgment = Inaccuracy
		case before.CP < -700:
			mv.Judgment = Mistake
		default:
			mv.Judgment = Blunder
		}
	case before.Mate > 0 && after.Mate <= 0:
		mv.Reason = "Lost forced checkmate sequence"
		switch {
		case after.Mate == 0 && after.CP > 999:
			mv.Judgment = Inaccuracy
		case after.Mate == 0 && after.CP > 700:
			mv.Judgment = Mistake
		default:
			mv.Judgment = Blunder
		}
	case before.Mate != 0 || after.Mate != 0:
		// Mate kept, delayed, or still being mated: lichess says nothing.
	default:
		drop := WinningChances(cb) - WinningChances(ca)
		switch {
		case drop >= BlunderDrop:
			mv.Judgment = Blunder
		case drop >= MistakeDrop:
			mv.Judgment = Mistake
		case drop >= InaccuracyDrop:
			mv.Judgment = Inaccuracy
		}
	}
}

// Comment is the text lichess would put after a judged move: "Mistake.
// Best was 14. Nf3 Nc6 15. d4." ("" for a good move).
func (m *Move) Comment() string {
	if m.Judgment == Good {
		return ""
	}
	s := m.Reason
	if s == "" {
		s = m.Judgment.String()
	}
	s += "."
	if m.BestLine != "" {
		s += " Best was " + m.BestLine + "."
	}
	return s
}

// NextMistake returns the index in Moves of the first judged move after
// index from (pass -1 to start at the beginning), or -1 if there is none.
func (r *Report) NextMistake(from int) int {
	for i := from + 1; i < len(r.Moves); i++ {
		if r.Moves[i].Judgment != Good {
			return i
		}
	}
	return -1
}
