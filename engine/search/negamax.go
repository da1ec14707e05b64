package search

import "github.com/squall-chess/squall/engine/chess"

// lmpLimit is the number of moves (the hash move and captures counted)
// worth trying at a shallow depth before late-move pruning drops the
// remaining quiet moves: LMPBase/100 + depth², half that when the position
// is not improving. The move that reaches it is still tried, as in
// Stockfish: at depth 1 that is two moves (with LMPBase 300), so a node
// whose first move fails (a hash move from another line, say) still gets a
// second try.
func (p *Params) lmpLimit(depth int, improving bool) int {
	if improving {
		return (p.LMPBase + 100*depth*depth) / 100
	}
	return (p.LMPBase + 100*depth*depth) / 200
}

// nullReduction is the null move's R at depth when the evaluation is
// margin above beta: deeper and further above, more.
func (p *Params) nullReduction(depth, margin int) int {
	return (p.NMPBase+p.NMPDepthScale*depth)/100 + min(3, margin/p.NMPEvalDivisor)
}

// singularMargin is how far below the hash move's score every other move
// must fail at depth for the hash move to be singular.
func (p *Params) singularMargin(depth int) int { return p.SingularMargin * depth / 100 }

// search is fail-soft principal variation search.
func (t *thread) search(alpha, beta, depth, ply int, cutNode bool) int {
	pvNode := beta-alpha > 1
	if depth <= 0 {
		return t.qsearch(alpha, beta, ply, 0)
	}
	t.pvLen[ply] = ply
	if t.tick() {
		return 0
	}
	t.selDepth = max(t.selDepth, ply+1)
	p := t.p
	f := t.frameAt(ply)
	excluded := f.excluded

	if ply > 0 {
		if t.isDraw() {
			return drawScore
		}
		if ply >= maxPly-1 {
			return t.evaluate(ply)
		}
		// Mate-distance pruning: no line from here can beat a mate
		// already found closer to the root.
		alpha = max(alpha, matedIn(ply))
		beta = min(beta, mate-ply-1)
		if alpha >= beta {
			return alpha
		}
	}

	key := p.Key()
	var tte ttHit
	ttOK := false
	if excluded == chess.NullMove {
		tte, ttOK = t.s.tt.probe(key)
	}
	ttMove := tte.move
	ttScore := fromTT(tte.score, ply)
	if ply == 0 {
		ttMove = t.rootMoves[t.pvIdx].move
	}
	// ttPv: a PV node now or once; the singular search of a node keeps the
	// node's own mark.
	if excluded == chess.NullMove {
		f.ttPv = pvNode || (ttOK && tte.pv)
	}
	ttPv := f.ttPv
	if ttOK && !pvNode && tte.depth >= depth &&
		(tte.bound == boundExact || (tte.bound == boundLower && ttScore >= beta) || (tte.bound == boundUpper && ttScore <= alpha)) {
		return ttScore
	}

	// Syzygy tables: a draw is exact, a win or loss cuts off when it is
	// outside the window; otherwise a PV node searches on with the
	// tablebase result as a floor (win) or ceiling (loss) of its score.
	best, maxScore := -infinity, infinity
	if ply > 0 && excluded == chess.NullMove {
		if v, bound, ok := t.probeTB(depth, ply); ok {
			if bound == boundExact || (bound == boundLower && v >= beta) || (bound == boundUpper && v <= alpha) {
				t.s.tt.store(key, chess.NullMove, toTT(v, ply), min(depth+6, maxPly-1), bound, ttPv)
				return v
			}
			if pvNode {
				if bound == boundLower {
					best = v
				} else {
					maxScore = v
				}
			}
		}
	}
	origAlpha := alpha
	alpha = max(alpha, best)

	inCheck := p.InCheck()
	f.inCheck = inCheck
	eval := -infinity
	improving := false
	if !inCheck {
		if excluded != chess.NullMove {
			eval = f.eval
		} else {
			eval = t.evaluate(ply)
			f.eval = eval
			if ttOK && (tte.bound == boundExact || (tte.bound == boundLower && ttScore > eval) || (tte.bound == boundUpper && ttScore < eval)) {
				eval = ttScore
			}
		}
		prev2 := t.frameAt(ply - 2)
		improving = ply >= 2 && !prev2.inCheck && f.eval > prev2.eval
	} else {
		f.eval = -infinity
	}

	var u chess.Undo
	if !pvNode && !inCheck && excluded == chess.NullMove && ply > 0 {
		// Razoring: far below alpha at low depth, only captures can help.
		if depth <= 2 && eval+t.prm.RazorMargin*depth < alpha {
			v := t.qsearch(alpha, alpha+1, ply, 0)
			if v <= alpha {
				return v
			}
		}
		// Reverse futility: far enough above beta that a quiet move will
		// not lose it all.
		if !ttPv && depth <= 8 && eval-t.prm.RFPMargin*(depth-b2i(improving)) >= beta && abs(beta) < mateBound {
			return eval
		}
		// Null move, with R adapted to depth, margin over beta and
		// material (monsoon's adaptive null move); never with only king
		// and pawns, where zugzwang is common.
		if depth >= 3 && eval >= beta && t.frameAt(ply-1).move != chess.NullMove &&
			ply >= t.nmpMinPly && hasNonPawnMaterial(p, p.SideToMove()) {
			r := t.prm.nullReduction(depth, eval-beta)
			if (p.ByColor(p.SideToMove()) &^ (p.ByType(chess.Pawn) | p.ByType(chess.King))).Count() <= 1 {
				r-- // a lone minor or major: zugzwang is likelier
			}
			f.move = chess.NullMove
			f.ch = &t.h.cont[0][0]
			t.playNull(ply, &u)
			v := -t.search(-beta, -beta+1, depth-1-r, ply+1, !cutNode)
			p.UnmakeNullMove(&u)
			if t.s.stop.Load() {
				return 0
			}
			if v >= beta {
				if v >= mateBound {
					v = beta
				}
				if depth < 12 || t.nmpMinPly > 0 {
					return v
				}
				// Verification at high depth: search without null moves
				// for the next plies to catch zugzwang.
				t.nmpMinPly = ply + 3*(depth-r)/4
				w := t.search(beta-1, beta, depth-r, ply, false)
				t.nmpMinPly = 0
				if w >= beta {
					return v
				}
			}
		}
	}

	// Internal iterative reduction: with no hash move here, a full-depth
	// search is poorly ordered; search shallower and let the next
	// iteration fill the table.
	if depth >= 4 && ttMove == chess.NullMove && (pvNode || cutNode) && ply > 0 {
		depth--
	}

	var mp picker
	mp.init(p, &t.h, ttMove, ply, t.frameAt(ply-1).move, t.contTables(ply))
	if ply == 0 {
		return t.rootSearch(alpha, beta, depth, &mp)
	}

	bestMove := chess.NullMove
	moveCount := 0
	var quiets [64]chess.Move
	nq := 0
	for m := mp.next(); m != chess.NullMove; m = mp.next() {
		if m == excluded {
			continue
		}
		moveCount++
		quiet := m.IsQuiet()
		lmrDepth := max(depth-1-t.lmr.reduction(depth, moveCount), 0)

		// Shallow-depth pruning is off once every move so far loses, to
		// a mate, in the tablebases or into an ending the evaluation
		// knows is lost (Stockfish's guard: only the moves left can save
		// the game; with the network, pruning the defence in KRkb let the
		// search "win" the bishop of a drawn ending, which
		// TestTablebaseDrawsSearchNearZero caught), and while alpha is
		// already a mate for the side to move (the margins below compare
		// evaluations, so against a mate score every quiet move looks
		// futile, even one that mates sooner).
		if best > -knownWin && alpha < mateBound && hasNonPawnMaterial(p, p.SideToMove()) {
			if quiet && !inCheck && moveCount > t.prm.lmpLimit(depth, improving) && depth <= 8 {
				mp.skipQuiets = true
				continue
			}
			if quiet && !givesCheck(p, m) {
				// Futility (MadChess): hopeless quiet moves near the
				// leaves. The quiets after this one are skipped one by
				// one, not all at once: a checking move among them is
				// not hopeless.
				if !inCheck && lmrDepth <= 8 && eval+t.prm.FutilityBase+t.prm.FutilityScale*lmrDepth <= alpha {
					continue
				}
				if lmrDepth <= 8 && !p.SEE(m, -t.prm.SEEQuietMargin*lmrDepth*lmrDepth) {
					continue
				}
			} else if depth <= 6 && !p.SEE(m, -t.prm.SEETacticalMargin*depth) {
				// Captures and quiet checks risk material for a tactic
				// (Stockfish prunes checks with the captures' margin).
				continue
			}
		}

		ext := 0
		// Singular extension: when the hash move is much better than every
		// alternative, search it deeper; when even the alternatives beat
		// beta, cut at once (multi-cut).
		if ply < 2*t.rootDepth && depth >= 8 && m == ttMove && excluded == chess.NullMove &&
			tte.depth >= depth-3 && tte.bound&boundLower != 0 && abs(ttScore) < mateBound {
			sBeta := ttScore - t.prm.singularMargin(depth)
			f.excluded = m
			v := t.search(sBeta-1, sBeta, (depth-1)/2, ply, cutNode)
			f.excluded = chess.NullMove
			if v < sBeta {
				ext = 1
			} else if sBeta >= beta {
				return sBeta
			} else if ttScore >= beta {
				ext = -1
			}
		} else if inCheck && mp.evasions == 1 {
			ext = 1 // single legal reply (monsoon)
		}

		t.play(ply, m, &u)
		givesCheck := p.InCheck()
		if givesCheck && ext == 0 && ply < 2*t.rootDepth {
			ext = 1
		}
		newDepth := depth - 1 + ext
		var v int
		if depth >= 3 && moveCount > 1+b2i(pvNode) && (quiet || !p.SEE(m, 0)) {
			r := t.lmr.reduction(depth, moveCount)
			r += b2i(cutNode) + b2i(!improving) - b2i(ttPv) - b2i(givesCheck)
			if quiet {
				r -= int(mp.quietScore(m)) / 6000
			}
			d := max(1, min(newDepth, newDepth-r))
			v = -t.search(-alpha-1, -alpha, d, ply+1, true)
			if v > alpha && d < newDepth {
				v = -t.search(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
			}
		} else if !pvNode || moveCount > 1 {
			v = -t.search(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
		}
		if pvNode && (moveCount == 1 || (v > alpha && v < beta)) {
			v = -t.search(-beta, -alpha, newDepth, ply+1, false)
		}
		p.UnmakeMove(m, &u)
		if t.s.stop.Load() {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				bestMove = m
				if pvNode {
					t.updatePV(ply, m)
				}
				if v >= beta {
					if quiet {
						if nq < len(quiets) {
							quiets[nq] = m
							nq++
						}
						t.updateQuietStats(ply, m, depth, quiets[:nq])
					}
					break
				}
				alpha = v
			}
		}
		if quiet && nq < len(quiets) {
			quiets[nq] = m
			nq++
		}
	}
	if moveCount == 0 {
		if excluded != chess.NullMove {
			return alpha
		}
		if inCheck {
			return matedIn(ply)
		}
		return drawScore
	}
	best = min(best, maxScore)
	if excluded == chess.NullMove {
		bound := boundUpper
		if best >= beta {
			bound = boundLower
		} else if pvNode && best > origAlpha {
			bound = boundExact
		}
		t.s.tt.store(key, bestMove, toTT(best, ply), depth, bound, ttPv)
	}
	return best
}

// rootSearch searches the root moves from pvIdx on, in the order of the
// last iteration, and records each move's score and line.
func (t *thread) rootSearch(alpha, beta, depth int, mp *picker) int {
	p := t.p
	best := -infinity
	bestMove := chess.NullMove
	origAlpha := alpha
	var u chess.Undo
	var quiets [64]chess.Move
	nq := 0
	for i := t.pvIdx; i < len(t.rootMoves); i++ {
		rm := &t.rootMoves[i]
		m := rm.move
		n := i - t.pvIdx + 1
		if t.id == 0 {
			t.s.reportCurrMove(m, n)
		}
		quiet := m.IsQuiet()
		t.selDepth = 0
		t.play(0, m, &u)
		givesCheck := p.InCheck()
		newDepth := depth - 1 + b2i(givesCheck)
		var v int
		if depth >= 3 && n > 3 && quiet && !givesCheck {
			r := max(t.lmr.reduction(depth, n)-1, 0)
			v = -t.search(-alpha-1, -alpha, newDepth-r, 1, true)
			if v > alpha && r > 0 {
				v = -t.search(-alpha-1, -alpha, newDepth, 1, false)
			}
		} else if n > 1 {
			v = -t.search(-alpha-1, -alpha, newDepth, 1, false)
		}
		if n == 1 || (v > alpha && v < beta) {
			v = -t.search(-beta, -alpha, newDepth, 1, false)
		}
		p.UnmakeMove(m, &u)
		if t.s.stop.Load() {
			return 0
		}
		if n == 1 || v > alpha {
			rm.score = v
			rm.selDepth = t.selDepth
			rm.bound = boundExact
			if v >= beta {
				rm.bound = boundLower
			} else if v <= origAlpha {
				rm.bound = boundUpper
			}
			t.updatePV(0, m)
			rm.pv = append(rm.pv[:0], t.pv[0][:t.pvLen[0]]...)
		} else {
			rm.score = -infinity // below the best: order after it
		}
		if v > best {
			best = v
			if v > alpha {
				bestMove = m
				if v >= beta {
					if quiet {
						quiets[min(nq, 63)] = m
						nq = min(nq+1, 64)
						t.updateQuietStats(0, m, depth, quiets[:nq])
					}
					break
				}
				alpha = v
			}
		}
		if quiet && nq < len(quiets) {
			quiets[nq] = m
			nq++
		}
	}
	bound := boundUpper
	if best >= beta {
		bound = boundLower
	} else if best > origAlpha {
		bound = boundExact
	}
	if t.pvIdx == 0 {
		t.s.tt.store(p.Key(), bestMove, toTT(best, 0), depth, bound, true)
	}
	return best
}

// qsearch resolves captures (and, at its first ply, quiet checks) until
// the position is quiet, so the evaluation is not taken mid-exchange.
func (t *thread) qsearch(alpha, beta, ply, qply int) int {
	t.pvLen[ply] = ply
	if t.tick() {
		return 0
	}
	t.selDepth = max(t.selDepth, ply+1)
	p := t.p
	if qply == 0 && t.isDraw() {
		return drawScore
	}
	// Deeper in quiescence only the 50-move rule and material can draw (a
	// capture resets the clock, a quiet check can reach the 100th ply);
	// a mate on the 100th ply is still mate.
	if qply > 0 && (p.FiftyMoveRule() || p.InsufficientMaterial()) {
		return drawScore
	}
	if ply >= maxPly-1 {
		return t.evaluate(ply)
	}
	pvNode := beta-alpha > 1
	key := p.Key()
	tte, ttOK := t.s.tt.probe(key)
	ttScore := fromTT(tte.score, ply)
	if ttOK && !pvNode &&
		(tte.bound == boundExact || (tte.bound == boundLower && ttScore >= beta) || (tte.bound == boundUpper && ttScore <= alpha)) {
		return ttScore
	}
	inCheck := p.InCheck()
	f := t.frameAt(ply)
	f.inCheck = inCheck
	best := -infinity
	standPat := -infinity
	if !inCheck {
		standPat = t.evaluate(ply)
		if ttOK && (tte.bound == boundExact || (tte.bound == boundLower && ttScore > standPat) || (tte.bound == boundUpper && ttScore < standPat)) {
			standPat = ttScore
		}
		if standPat >= beta {
			return standPat
		}
		best = standPat
		alpha = max(alpha, standPat)
	}
	origAlpha := alpha
	// Quiet checks at the first quiescence ply find short mating attacks
	// and forks that captures alone miss: the picker's last stage.
	var mp picker
	mp.initQS(p, &t.h, t.contTables(ply), !inCheck && qply == 0)
	var u chess.Undo
	bestMove := chess.NullMove
	moves := 0
	for m := mp.next(); m != chess.NullMove; m = mp.next() {
		moves++
		if !inCheck && !mp.quietCheck() {
			// Delta pruning: even winning the piece cannot reach alpha,
			// unless the capture checks and so may mate.
			if m.Promotion() == chess.NoPieceType && standPat+chess.SEEValue(m.Captured().Type())+200 <= alpha &&
				!givesCheck(p, m) {
				continue
			}
			if !p.SEE(m, 0) {
				continue
			}
		}
		t.play(ply, m, &u)
		v := -t.qsearch(-beta, -alpha, ply+1, qply+1)
		p.UnmakeMove(m, &u)
		if t.s.stop.Load() {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				bestMove = m
				if pvNode {
					t.updatePV(ply, m)
				}
				if v >= beta {
					break
				}
				alpha = v
			}
		}
	}
	if inCheck && moves == 0 {
		return matedIn(ply)
	}
	bound := boundUpper
	if best >= beta {
		bound = boundLower
	} else if pvNode && best > origAlpha {
		bound = boundExact
	}
	d := 0
	if qply > 0 {
		d = -1
	}
	t.s.tt.store(key, bestMove, toTT(best, ply), d, bound, pvNode || (ttOK && tte.pv))
	return best
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
