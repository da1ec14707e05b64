package search

import "github.com/squall-chess/squall/engine/chess"

// Picker stages. The hash move comes first so that a cutoff from it costs
// no move generation at all (monsoon's remark).
const (
	stageTT = iota
	stageCapturesInit
	stageGoodCaptures
	stageKiller1
	stageKiller2
	stageCounter
	stageQuietsInit
	stageQuiets
	stageBadCaptures
	stageEvasionsInit
	stageEvasions
	stageQSInit // quiescence: captures and promotions, by MVV/LVA
	stageQS
	stageQSChecksInit // then, at quiescence's first ply, quiet checks
	stageQSChecks
	stageDone
)

// picker hands out the moves of a node one at a time, best first. It lives
// on the search function's stack frame: nothing is allocated.
type picker struct {
	p       *chess.Position
	h       *history
	ch      [2]*pieceTo // continuation tables for this node
	stage   int
	ttMove  chess.Move
	killers [2]chess.Move
	counter chess.Move
	list    chess.MoveList
	scores  [chess.MaxMoves]int32
	idx     int
	bad     chess.MoveList
	badIdx  int
	// skipQuiets is set by the search when late-move pruning decides the
	// remaining quiet moves are not worth trying.
	skipQuiets bool
	// evasions is the number of legal replies when in check.
	evasions int
	// qsChecks: a quiescence picker also hands out quiet checks that do
	// not lose material, after the captures.
	qsChecks bool
}

func (mp *picker) init(p *chess.Position, h *history, ttMove chess.Move, ply int, prev chess.Move, ch [2]*pieceTo) {
	mp.p, mp.h, mp.ch = p, h, ch
	mp.ttMove = chess.NullMove
	if ttMove != chess.NullMove && p.IsLegal(ttMove) {
		mp.ttMove = ttMove
	}
	mp.killers = h.killers[ply]
	mp.counter = chess.NullMove
	if prev != chess.NullMove {
		mp.counter = h.counter[prev.Piece()][prev.To()]
	}
	mp.stage = stageTT
	mp.idx, mp.badIdx, mp.bad.N = 0, 0, 0
	mp.skipQuiets = false
	if p.InCheck() {
		mp.stage = stageEvasionsInit
		mp.ttMove = chess.NullMove // evasions are all generated and scored
	}
}

// initQS prepares a quiescence picker: captures and promotions, then, with
// checks, the quiet moves that give check and lose nothing by SEE (in
// generation order). In check it hands out every evasion instead.
func (mp *picker) initQS(p *chess.Position, h *history, ch [2]*pieceTo, checks bool) {
	mp.p, mp.h, mp.ch = p, h, ch
	mp.ttMove = chess.NullMove
	mp.idx = 0
	mp.stage = stageQSInit
	mp.qsChecks = checks
	if p.InCheck() {
		mp.stage = stageEvasionsInit
	}
}

// quietCheck reports whether the move just handed out is one of
// quiescence's quiet checks (already filtered) rather than a capture.
func (mp *picker) quietCheck() bool { return mp.stage == stageQSChecks }

// mvvLVA orders captures by most valuable victim, then least valuable
// attacker, with promotions counted as gaining the new piece.
func mvvLVA(m chess.Move) int32 {
	s := int32(chess.SEEValue(m.Captured().Type()))*8 - int32(m.Piece().Type())
	if pr := m.Promotion(); pr != chess.NoPieceType {
		s += int32(chess.SEEValue(pr)) * 8
	}
	return s
}

func (mp *picker) quietScore(m chess.Move) int32 {
	pc, to := m.Piece(), m.To()
	return int32(mp.h.butterfly[pc.Color()][m.From()][to]) +
		int32(mp.ch[0][pc][to]) + int32(mp.ch[1][pc][to])
}

// best moves the highest-scored remaining move to idx and returns it
// (selection sort: most nodes cut off after a few moves).
func (mp *picker) best() chess.Move {
	b := mp.idx
	for i := mp.idx + 1; i < mp.list.N; i++ {
		if mp.scores[i] > mp.scores[b] {
			b = i
		}
	}
	mp.list.Moves[mp.idx], mp.list.Moves[b] = mp.list.Moves[b], mp.list.Moves[mp.idx]
	mp.scores[mp.idx], mp.scores[b] = mp.scores[b], mp.scores[mp.idx]
	m := mp.list.Moves[mp.idx]
	mp.idx++
	return m
}

func (mp *picker) isSpecial(m chess.Move) bool {
	return m == mp.ttMove || m == mp.killers[0] || m == mp.killers[1] || m == mp.counter
}

// next returns the next move, or NullMove when there are no more.
func (mp *picker) next() chess.Move {
	for {
		switch mp.stage {
		case stageTT:
			mp.stage++
			if mp.ttMove != chess.NullMove {
				return mp.ttMove
			}
		case stageCapturesInit:
			mp.p.GenerateCaptures(&mp.list)
			for i := 0; i < mp.list.N; i++ {
				mp.scores[i] = mvvLVA(mp.list.Moves[i])
			}
			mp.idx = 0
			mp.stage++
		case stageGoodCaptures:
			if mp.idx >= mp.list.N {
				mp.stage++
				// Killers and countermove must be legal quiet moves, and
				// distinct from the hash move and each other.
				if mp.killers[0] == mp.ttMove || !mp.legalQuiet(mp.killers[0]) {
					mp.killers[0] = chess.NullMove
				}
				if mp.killers[1] == mp.ttMove || mp.killers[1] == mp.killers[0] || !mp.legalQuiet(mp.killers[1]) {
					mp.killers[1] = chess.NullMove
				}
				if mp.counter == mp.ttMove || mp.counter == mp.killers[0] || mp.counter == mp.killers[1] || !mp.legalQuiet(mp.counter) {
					mp.counter = chess.NullMove
				}
				continue
			}
			m := mp.best()
			if m == mp.ttMove {
				continue
			}
			// Losing captures wait until after the quiet moves; underpromotions too.
			if !mp.p.SEE(m, 0) || (m.Promotion() != chess.NoPieceType && m.Promotion() != chess.Queen) {
				mp.bad.Moves[mp.bad.N] = m
				mp.bad.N++
				continue
			}
			return m
		case stageKiller1:
			mp.stage++
			if mp.killers[0] != chess.NullMove && !mp.skipQuiets {
				return mp.killers[0]
			}
		case stageKiller2:
			mp.stage++
			if mp.killers[1] != chess.NullMove && !mp.skipQuiets {
				return mp.killers[1]
			}
		case stageCounter:
			mp.stage++
			if mp.counter != chess.NullMove && !mp.skipQuiets {
				return mp.counter
			}
		case stageQuietsInit:
			mp.stage++
			if mp.skipQuiets {
				mp.stage = stageBadCaptures
				continue
			}
			mp.p.GenerateQuiets(&mp.list)
			threatened := threatenedPieces(mp.p)
			for i := 0; i < mp.list.N; i++ {
				m := mp.list.Moves[i]
				mp.scores[i] = mp.quietScore(m)
				if threatened.Has(m.From()) && mp.p.SEE(m, 0) {
					mp.scores[i] += escapeBonus
				}
			}
			mp.idx = 0
		case stageQuiets:
			if mp.skipQuiets || mp.idx >= mp.list.N {
				mp.stage++
				continue
			}
			m := mp.best()
			if mp.isSpecial(m) {
				continue
			}
			return m
		case stageBadCaptures:
			if mp.badIdx >= mp.bad.N {
				mp.stage = stageDone
				continue
			}
			m := mp.bad.Moves[mp.badIdx]
			mp.badIdx++
			return m
		case stageEvasionsInit:
			mp.p.GenerateEvasions(&mp.list)
			mp.evasions = mp.list.N
			for i := 0; i < mp.list.N; i++ {
				m := mp.list.Moves[i]
				switch {
				case m == mp.ttMove:
					mp.scores[i] = 1 << 30
				case m.IsCapture() || m.Promotion() != chess.NoPieceType:
					mp.scores[i] = 1<<24 + mvvLVA(m)
				default:
					mp.scores[i] = mp.quietScore(m)
				}
			}
			mp.idx = 0
			mp.stage = stageEvasions
		case stageEvasions:
			if mp.idx >= mp.list.N {
				mp.stage = stageDone
				continue
			}
			return mp.best()
		case stageQSInit:
			mp.p.GenerateCaptures(&mp.list)
			for i := 0; i < mp.list.N; i++ {
				mp.scores[i] = mvvLVA(mp.list.Moves[i])
			}
			mp.idx = 0
			mp.stage = stageQS
		case stageQS:
			if mp.idx >= mp.list.N {
				mp.stage = stageDone
				if mp.qsChecks {
					mp.stage = stageQSChecksInit
				}
				continue
			}
			return mp.best()
		case stageQSChecksInit:
			mp.p.GenerateQuiets(&mp.list)
			mp.idx = 0
			mp.stage = stageQSChecks
		case stageQSChecks:
			for mp.idx < mp.list.N {
				m := mp.list.Moves[mp.idx]
				mp.idx++
				if givesCheckCheap(mp.p, m) && mp.p.SEE(m, 0) {
					return m
				}
			}
			mp.stage = stageDone
		default:
			return chess.NullMove
		}
	}
}

func (mp *picker) legalQuiet(m chess.Move) bool {
	return m != chess.NullMove && m.IsQuiet() && m.Promotion() == chess.NoPieceType && mp.p.IsLegal(m)
}

// escapeBonus orders a quiet move that takes a threatened piece to safety
// ahead of the history-ordered quiets (Stockfish's threat escapes): with
// few quiet moves searched at shallow depth, the one that saves the piece
// must not be the one late-move pruning drops.
const escapeBonus = 1 << 16

// threatenedPieces is the side to move's knights, bishops, rooks and
// queens that the opponent attacks with a lesser piece, or attacks while
// nothing defends them.
func threatenedPieces(p *chess.Position) chess.Bitboard {
	us := p.SideToMove()
	occ := p.Occupied()
	var bb chess.Bitboard
	for pcs := p.ByColor(us) &^ (p.ByType(chess.Pawn) | p.ByType(chess.King)); pcs != 0; {
		s := pcs.LSB()
		pcs &= pcs - 1
		att := p.AttackersTo(s, occ)
		them := att &^ p.ByColor(us)
		if them == 0 {
			continue
		}
		v := chess.SEEValue(p.Piece(s).Type())
		lesser := false
		for t := chess.Pawn; t <= chess.Queen && chess.SEEValue(t) < v; t++ {
			if them&p.ByType(t) != 0 {
				lesser = true
				break
			}
		}
		if lesser || att&p.ByColor(us) == 0 {
			bb |= chess.SquareBB(s)
		}
	}
	return bb
}
