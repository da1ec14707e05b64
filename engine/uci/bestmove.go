package uci

import (
	"fmt"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// FormatBestMove writes the bestmove line, never with an illegal move: an
// illegal or missing best move is replaced by a legal one, and a ponder
// move is only given when it is legal after the best move.
func FormatBestMove(p *chess.Position, res engine.Result, chess960 bool) string {
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		return "bestmove 0000"
	}
	best := res.BestMove
	if best == chess.NullMove || !ml.Contains(best) {
		best = ml.Moves[0]
		res.PonderMove = chess.NullMove
	}
	line := "bestmove " + best.UCI(chess960)
	if res.PonderMove != chess.NullMove {
		q := p.Clone()
		var u chess.Undo
		q.MakeMove(best, &u)
		if q.IsLegal(res.PonderMove) {
			line += " ponder " + res.PonderMove.UCI(chess960)
		}
	}
	return line
}

// ParseBestMove reads a "bestmove" line for the search of root: the best
// move (chess.NullMove for "0000" or "(none)" where root has no legal
// move) and the ponder move (NullMove unless given and legal after the best
// move). A line without a move is ErrProtocol; a move that is not legal in
// root, or a null move where there are legal moves, is
// engine.ErrIllegalMove with the move and the position in the message.
func ParseBestMove(line string, root *chess.Position) (best, ponder chess.Move, err error) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		return chess.NullMove, chess.NullMove, fmt.Errorf("%w: %q has no move", ErrProtocol, engine.Clip(line, quoted))
	}
	if f[1] == "(none)" || f[1] == "0000" {
		if root.HasLegalMoves() {
			return chess.NullMove, chess.NullMove, fmt.Errorf("%w: %q in %s, which has legal moves", engine.ErrIllegalMove, f[1], root.FEN())
		}
		return chess.NullMove, chess.NullMove, nil
	}
	m, err := root.ParseUCI(f[1])
	if err != nil || !root.IsLegal(m) {
		return chess.NullMove, chess.NullMove, fmt.Errorf("%w: %q in %s", engine.ErrIllegalMove, engine.Clip(f[1], quoted), root.FEN())
	}
	ponder = chess.NullMove
	if len(f) >= 4 && f[2] == "ponder" {
		q := root.Clone()
		var u chess.Undo
		q.MakeMove(m, &u)
		if pm, err := q.ParseUCI(f[3]); err == nil && q.IsLegal(pm) {
			ponder = pm
		}
	}
	return m, ponder, nil
}
