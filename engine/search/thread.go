package search

import (
	"strconv"
	"sync/atomic"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/engine/nnue"
)

// frame is one ply of a thread's search stack.
type frame struct {
	move     chess.Move // move played from this ply (NullMove for a null move)
	eval     int
	excluded chess.Move // singular-extension search excludes this move
	ch       *pieceTo   // continuation table selected by this ply's move
	inCheck  bool
	ttPv     bool // a PV node now or in the hash (ttHit.pv)
}

// rootMove is one legal move at the root with its latest score and line.
type rootMove struct {
	move      chess.Move
	score     int
	prevScore int
	bound     int
	selDepth  int
	pv        []chess.Move
}

// thread is one Lazy SMP search thread: its own position, evaluator and
// history, sharing only the transposition table and the stop flag.
type thread struct {
	id    int
	s     *search // the running search
	p     *chess.Position
	ev    *eval.Evaluator
	h     history
	prm   Params    // the search's constants, the Searcher's
	lmr   *lmrTable // made from prm
	stack [maxPly + 4]frame
	// net, when set, evaluates instead of ev; acc[ply] is its
	// accumulator for the position at ply, made from acc[ply-1] as each
	// move is played (so unmaking needs nothing).
	net       *nnue.Net
	acc       [maxPly + 4]nnue.Accumulator
	checkNNUE bool // see Searcher.checkNNUE
	pv        [maxPly + 1][maxPly + 1]chess.Move
	pvLen     [maxPly + 1]int

	nodes     uint64
	published atomic.Uint64 // nodes, published for the other threads
	tbHits    uint64        // successful tablebase probes
	tbShown   atomic.Uint64 // tbHits, published with nodes
	selDepth  int
	rootDepth int
	nmpMinPly int

	rootMoves []rootMove
	pvIdx     int
	completed int // depth of the last completed iteration
}

func newThread(id int) *thread {
	return &thread{id: id, ev: eval.New()}
}

// frameAt returns the stack frame for ply (offset so ply-2 is valid).
func (t *thread) frameAt(ply int) *frame { return &t.stack[ply+2] }

func (t *thread) evaluate(ply int) int {
	var v int
	if t.net != nil {
		if t.checkNNUE {
			var fresh nnue.Accumulator
			if t.net.Refresh(&fresh, t.p); !t.net.Same(&fresh, &t.acc[ply]) {
				panic("search: accumulator at ply " + strconv.Itoa(ply) + " differs from a refresh of " + t.p.FEN())
			}
		}
		// The network, corrected by the endgame knowledge its games
		// seldom teach it (KPK, the mating drives, no winning material).
		v = t.ev.Knowledge(t.p, t.net.Evaluate(&t.acc[ply], t.p))
	} else {
		v = t.ev.Evaluate(t.p)
	}
	// Below the tablebase-win range, which the table adjusts by ply.
	return max(min(v, tbWinBound-1), -tbWinBound+1)
}

// tick counts a node and, every 1024 nodes, checks whether to stop. It
// also checks on reaching the node limit itself, so that small budgets
// (the weakest playing levels search 60 nodes, "go nodes 100") are kept
// rather than rounded up to 1024.
func (t *thread) tick() bool {
	t.nodes++
	if t.nodes&1023 == 0 || t.nodes == t.s.nodeLimit {
		t.published.Store(t.nodes)
		t.tbShown.Store(t.tbHits)
		if t.id == 0 {
			t.s.checkLimits()
		}
	}
	return t.s.stop.Load()
}

func (t *thread) updatePV(ply int, m chess.Move) {
	t.pv[ply][ply] = m
	n := t.pvLen[ply+1]
	copy(t.pv[ply][ply+1:n], t.pv[ply+1][ply+1:n])
	t.pvLen[ply] = max(n, ply+1)
}

func hasNonPawnMaterial(p *chess.Position, c chess.Color) bool {
	return p.ByColor(c)&^(p.ByType(chess.Pawn)|p.ByType(chess.King)) != 0
}

// isDraw reports draws by rule inside the tree: the 50-move rule,
// insufficient material, or any repetition (a 2-fold repetition inside the
// tree is scored as the draw it could be made into).
func (t *thread) isDraw() bool {
	p := t.p
	if p.HalfmoveClock() >= 100 && !(p.InCheck() && !p.HasLegalMoves()) {
		return true
	}
	return p.IsRepetition() || p.InsufficientMaterial()
}

// contTables returns the continuation tables for the moves one and two
// plies before ply.
func (t *thread) contTables(ply int) [2]*pieceTo {
	return [2]*pieceTo{t.frameAt(ply - 1).ch, t.frameAt(ply - 2).ch}
}

func (t *thread) play(ply int, m chess.Move, u *chess.Undo) {
	f := t.frameAt(ply)
	f.move = m
	f.ch = &t.h.cont[m.Piece()][m.To()]
	if t.net != nil {
		t.net.Update(&t.acc[ply+1], &t.acc[ply], m)
	}
	t.p.MakeMove(m, u)
}

// playNull passes the move at ply (the caller has set the frame).
func (t *thread) playNull(ply int, u *chess.Undo) {
	if t.net != nil {
		t.acc[ply+1] = t.acc[ply]
	}
	t.p.MakeNullMove(u)
}

// updateQuietStats rewards the quiet move that caused a cutoff and punishes
// the quiet moves tried before it (MadChess's history maluses).
func (t *thread) updateQuietStats(ply int, best chess.Move, depth int, tried []chess.Move) {
	bonus := historyBonus(depth)
	side := t.p.SideToMove()
	ch := t.contTables(ply)
	for _, m := range tried {
		b := -bonus
		if m == best {
			b = bonus
		}
		gravity(&t.h.butterfly[side][m.From()][m.To()], b)
		gravity(&ch[0][m.Piece()][m.To()], b)
		gravity(&ch[1][m.Piece()][m.To()], b)
	}
	k := &t.h.killers[ply]
	if k[0] != best {
		k[1], k[0] = k[0], best
	}
	if prev := t.frameAt(ply - 1).move; prev != chess.NullMove {
		t.h.counter[prev.Piece()][prev.To()] = best
	}
}

// givesCheckCheap reports whether quiet move m attacks the enemy king
// directly from its target square (discovered checks are not detected);
// quiescence uses it to pick quiet checks worth making.
func givesCheckCheap(p *chess.Position, m chess.Move) bool {
	if m.IsCastle() || m.Promotion() != chess.NoPieceType {
		return false
	}
	ksq := p.KingSquare(p.SideToMove().Other())
	pc := m.Piece()
	occ := p.Occupied() ^ chess.SquareBB(m.From()) | chess.SquareBB(m.To())
	if pc.Type() == chess.Pawn {
		return chess.PawnAttacks(pc.Color(), m.To()).Has(ksq)
	}
	if pc.Type() == chess.King {
		return false
	}
	return chess.PieceAttacks(pc.Type(), m.To(), occ).Has(ksq)
}

// givesCheck reports whether m, legal in p, checks the opponent, directly
// or by discovery, without making it: the search decides whether to prune
// a move before playing it, and a checking move is never "hopeless" as its
// static value suggests (it may mate), so it is kept from the pruning that
// is meant for quiet moves.
func givesCheck(p *chess.Position, m chess.Move) bool {
	us := p.SideToMove()
	ksq := p.KingSquare(us.Other())
	from, to := m.From(), m.To()
	occ := p.Occupied() ^ chess.SquareBB(from)
	ours := p.ByColor(us) &^ chess.SquareBB(from)
	if m.IsCastle() {
		// The king leaves from, the rook leaves to; the rook lands on
		// RookTo and is the only castling piece that can check.
		rto := m.RookTo()
		occ = occ&^chess.SquareBB(to) | chess.SquareBB(m.KingTo()) | chess.SquareBB(rto)
		ours &^= chess.SquareBB(to)
		if chess.RookAttacks(rto, occ).Has(ksq) {
			return true
		}
	} else {
		occ |= chess.SquareBB(to)
		if m.IsEnPassant() {
			occ ^= chess.SquareBB(chess.MakeSquare(to.File(), from.Rank()))
		}
		pt := m.Piece().Type()
		if pr := m.Promotion(); pr != chess.NoPieceType {
			pt = pr
		}
		switch pt {
		case chess.Pawn:
			if chess.PawnAttacks(us, to).Has(ksq) {
				return true
			}
		case chess.King:
		default:
			if chess.PieceAttacks(pt, to, occ).Has(ksq) {
				return true
			}
		}
	}
	// Discovered: one of our other sliders now sees the king.
	diag := ours & (p.ByType(chess.Bishop) | p.ByType(chess.Queen))
	orth := ours & (p.ByType(chess.Rook) | p.ByType(chess.Queen))
	return chess.BishopAttacks(ksq, occ)&diag != 0 || chess.RookAttacks(ksq, occ)&orth != 0
}
