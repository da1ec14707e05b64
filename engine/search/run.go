package search

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// search is the state of one running search, shared by its threads.
type search struct {
	tt        *table
	threads   []*thread
	start     time.Time
	lim       engine.Limits
	info      func(engine.Info)
	showWDL   bool
	multiPV   int
	plan      budget
	nodeLimit uint64
	// levelNodes: nodeLimit is a playing level's budget, which lets depth
	// 1 finish first so that even the weakest level has looked at every
	// legal move once.
	levelNodes bool
	// level: a playing level chooses the move among the main thread's
	// lines.
	level bool
	tb    tbProbe // Syzygy tables probed inside the tree

	stop atomic.Bool
	// timeUp and firstDone keep a timed stop from cutting depth 1 short:
	// the clock may run out before the thread even gets a core (a loaded
	// machine, a tiny budget), and a move from an unfinished first
	// iteration is no better than a random one, while depth 1 costs
	// microseconds. Whichever of the two comes second sets stop.
	timeUp     atomic.Bool
	firstDone  atomic.Bool
	pondering  atomic.Bool
	clockStart atomic.Int64 // when our clock started (go, or ponderhit)
	hitOnce    sync.Once
	hit        chan struct{} // closed by ponderhit
	timerMu    sync.Mutex
	timer      *time.Timer

	last engine.Info // main thread only
}

// armTimer stops the search at the hard limit even if the main thread is
// busy deep in the tree.
func (cs *search) armTimer() {
	if !cs.plan.timed {
		return
	}
	start := time.Unix(0, cs.clockStart.Load())
	cs.timerMu.Lock()
	cs.timer = time.AfterFunc(time.Until(start.Add(cs.plan.hard)), cs.outOfTime)
	cs.timerMu.Unlock()
}

func (cs *search) disarm() {
	cs.timerMu.Lock()
	if cs.timer != nil {
		cs.timer.Stop()
	}
	cs.timerMu.Unlock()
}

func (cs *search) ponderHit() {
	cs.hitOnce.Do(func() {
		cs.clockStart.Store(time.Now().UnixNano())
		cs.pondering.Store(false)
		cs.armTimer()
		close(cs.hit)
	})
}

func (cs *search) nodes() uint64 {
	var n uint64
	for _, t := range cs.threads {
		n += t.published.Load()
	}
	return n
}

// tbHits sums the threads' published tablebase hits.
func (cs *search) tbHits() uint64 {
	var n uint64
	for _, t := range cs.threads {
		n += t.tbShown.Load()
	}
	return n
}

// checkLimits is called by the main thread every 1024 nodes.
func (cs *search) checkLimits() {
	if cs.nodeLimit > 0 && cs.nodes() >= cs.nodeLimit && (!cs.levelNodes || cs.threads[0].completed > 0) {
		cs.stop.Store(true)
	}
	if cs.plan.timed && !cs.pondering.Load() &&
		time.Since(time.Unix(0, cs.clockStart.Load())) >= cs.plan.hard {
		cs.outOfTime()
	}
}

// outOfTime stops the search at its hard time limit, but not before the
// main thread has completed depth 1 (see timeUp).
func (cs *search) outOfTime() {
	cs.timeUp.Store(true)
	if cs.firstDone.Load() {
		cs.stop.Store(true)
	}
}

// firstIterationDone is the main thread's mark that depth 1 is complete:
// from now on a timed stop takes effect at once.
func (cs *search) firstIterationDone() {
	if cs.firstDone.Swap(true) {
		return
	}
	if cs.timeUp.Load() {
		cs.stop.Store(true)
	}
}

func (cs *search) reportCurrMove(m chess.Move, n int) {
	if cs.info == nil {
		return
	}
	el := time.Since(cs.start)
	if el < time.Second {
		return
	}
	nodes := cs.threads[0].nodes + cs.nodes() - cs.threads[0].published.Load()
	cs.info(engine.Info{CurrMove: m, CurrMoveNumber: n, Nodes: nodes, NPS: nps(nodes, el), Time: el})
}

func nps(nodes uint64, el time.Duration) uint64 {
	if el <= 0 {
		return 0
	}
	return uint64(float64(nodes) / el.Seconds())
}

// lineInfo describes the main thread's root move i as MultiPV line i+1.
func (cs *search) lineInfo(t *thread, i, depth int) engine.Info {
	rm := t.rootMoves[i]
	score, bound := rm.score, rm.bound
	if score == -infinity {
		score, bound = rm.prevScore, boundExact
	}
	b := engine.Exact
	switch bound {
	case boundLower:
		b = engine.Lower
	case boundUpper:
		b = engine.Upper
	}
	el := time.Since(cs.start)
	nodes := t.nodes + cs.nodes() - t.published.Load()
	in := engine.Info{
		Depth: depth, SelDepth: max(rm.selDepth, depth), MultiPV: i + 1,
		Score: uciScore(score, b), Nodes: nodes, NPS: nps(nodes, el),
		HashFull: cs.tt.hashfull(), Time: el,
		TBHits: t.tbHits + cs.tbHits() - t.tbShown.Load(),
		PV:     slices.Clone(rm.pv),
	}
	if len(in.PV) == 0 {
		in.PV = []chess.Move{rm.move}
	}
	if cs.showWDL {
		in.WDL, in.HasWDL = wdl(score), true
	}
	return in
}

// helpersChosen reports whether the search's move may come from a helper
// thread: not for a playing level or MultiPV, whose lines are the main
// thread's, the ones reported.
func (cs *search) helpersChosen() bool { return cs.multiPV == 1 && !cs.level }

// iterate is iterative deepening with aspiration windows, run by every
// thread; the main thread (id 0) also reports and manages time.
func (t *thread) iterate() {
	cs := t.s
	maxDepth := cs.maxDepth()
	var st stability
	for depth := 1; depth <= maxDepth; depth++ {
		d, skip := t.helperDepth(depth, maxDepth)
		if skip {
			continue
		}
		t.rootDepth = d
		for i := range t.rootMoves {
			t.rootMoves[i].prevScore = t.rootMoves[i].score
		}
		for t.pvIdx = 0; t.pvIdx < cs.multiPV; t.pvIdx++ {
			t.searchLine(d)
			if cs.stop.Load() {
				break
			}
		}
		if cs.stop.Load() {
			break
		}
		t.completed = d
		if t.id != 0 {
			// A helper that completes the requested depth ends a
			// depth-limited search: its result is as deep as the main
			// thread's would be, and comes sooner (see Search, which
			// takes the deepest thread's move).
			if cs.lim.Depth > 0 && d >= cs.lim.Depth && cs.helpersChosen() {
				cs.stop.Store(true)
				break
			}
			continue
		}
		cs.firstIterationDone()
		cs.reportIteration(t, d)
		if t.lastIteration(&st, depth, d) {
			break
		}
	}
	if t.id == 0 && !cs.pondering.Load() && !cs.lim.Infinite {
		cs.stop.Store(true) // the helpers' work is no longer needed
	}
	t.published.Store(t.nodes)
	t.tbShown.Store(t.tbHits)
}

// maxDepth is the deepest iteration: the limit's depth, a mate search's
// depth, or as deep as the stacks allow.
func (cs *search) maxDepth() int {
	maxDepth := maxPly - 4
	if cs.lim.Depth > 0 {
		maxDepth = min(cs.lim.Depth, maxDepth)
	} else if cs.lim.Mate > 0 {
		maxDepth = min(mateSearchDepth(cs.lim.Mate), maxDepth)
	}
	return maxDepth
}

// helperDepth is the depth a thread searches in iteration depth, or skip.
// Lazy SMP: helpers make their trees differ from the main thread's so that
// the threads fill the table for each other. Odd helpers search every
// other depth, those of the parity of the last one (a depth-limited
// search's target): they reach it after half the iterations, ordering
// their moves by the main thread's shallower entries, and end the search
// if they get there first. Even helpers search one ply deeper.
func (t *thread) helperDepth(depth, maxDepth int) (d int, skip bool) {
	if t.id == 0 || depth == 1 {
		return depth, false
	}
	if t.id&1 == 1 {
		return depth, (maxDepth-depth)%2 == 1
	}
	return depth + 1, false
}

// reportIteration reports each line of the main thread's completed
// iteration d, and keeps the best one as the search's last report.
func (cs *search) reportIteration(t *thread, d int) {
	for i := 0; i < cs.multiPV; i++ {
		in := cs.lineInfo(t, i, d)
		if i == 0 {
			cs.last = in
		}
		if cs.info != nil {
			cs.info(in)
		}
	}
}

// lastIteration reports whether the main thread, having completed
// iteration depth (searched to d), should start no other: the mate asked
// for is found, a level's node budget is spent, a mate is found and proved
// by a deeper search, or the time budget (scaled by the best move's
// stability) is used.
func (t *thread) lastIteration(st *stability, depth, d int) bool {
	cs := t.s
	best := t.rootMoves[0]
	switch {
	case cs.lim.Mate > 0 && best.score >= mateBound && (mate-best.score+1)/2 <= cs.lim.Mate:
		return true
	case cs.nodeLimit > 0 && t.nodes+cs.nodes()-t.published.Load() >= cs.nodeLimit:
		return true // a level's budget spent finishing depth 1
	case cs.lim.Depth == 0 && best.score >= mateBound && d >= 2*(mate-best.score)+4 && cs.plan.timed:
		return true // a mate found and proved by a deeper search: play it
	}
	return cs.softLimitReached(st.factor(depth, best), len(t.rootMoves))
}

func (t *thread) searchLine(d int) {
	cs := t.s
	for i := t.pvIdx; i < len(t.rootMoves); i++ {
		t.rootMoves[i].score = -infinity
	}
	prev := t.rootMoves[t.pvIdx].prevScore
	alpha, beta := -infinity, infinity
	delta := t.prm.AspirationDelta
	if d >= 4 && prev > -infinity {
		alpha, beta = max(prev-delta, -infinity), min(prev+delta, infinity)
	}
	for {
		v := t.search(alpha, beta, d, 0, false)
		slices.SortStableFunc(t.rootMoves[t.pvIdx:], func(a, b rootMove) int { return b.score - a.score })
		if cs.stop.Load() {
			break
		}
		if v <= alpha {
			beta = (alpha + beta) / 2
			alpha = max(v-delta, -infinity)
		} else if v >= beta {
			beta = min(v+delta, infinity)
		} else {
			break
		}
		if t.id == 0 && time.Since(cs.start) > 3*time.Second && cs.info != nil {
			cs.info(cs.lineInfo(t, t.pvIdx, d)) // a long re-search: show the bound
		}
		delta += delta / 2
		if delta > 600 {
			alpha, beta = -infinity, infinity
		}
	}
	slices.SortStableFunc(t.rootMoves[:t.pvIdx+1], func(a, b rootMove) int { return b.score - a.score })
}

// stability follows the main thread's best move from iteration to
// iteration: a move that keeps changing, or a score that drops, earns the
// search more of its time budget; a settled one, less.
type stability struct {
	prevBest    chess.Move
	prevScore   int
	instability float64
}

// factor records depth's best root move and returns the share of the soft
// time budget the search may use before it starts no new iteration.
func (s *stability) factor(depth int, best rootMove) float64 {
	s.instability *= 0.5
	if depth > 1 && best.move != s.prevBest {
		s.instability += 1
	}
	f := 0.7 + s.instability*0.6
	if drop := s.prevScore - best.score; depth > 1 && drop > 15 {
		f *= 1 + float64(min(drop, 150))/150
	}
	s.prevBest, s.prevScore = best.move, best.score
	return f
}

// softLimitReached reports whether a timed search should start no new
// iteration: there is only one legal move, or the soft budget scaled by
// factor is spent, or, for a fixed time per move, all of it. A pondering
// search has no clock of its own yet.
func (cs *search) softLimitReached(factor float64, rootMoves int) bool {
	if !cs.plan.timed || cs.pondering.Load() {
		return false
	}
	if rootMoves == 1 {
		return true
	}
	el := time.Since(time.Unix(0, cs.clockStart.Load()))
	if cs.lim.MoveTime > 0 {
		return el >= cs.plan.hard // a fixed time per move is used in full
	}
	return el >= min(time.Duration(float64(cs.plan.soft)*factor), cs.plan.hard)
}

// mateSearchDepth is how deep "go mate n" searches before it gives up, so
// that it ends even where there is no mate: a mate in n is 2n−1 plies deep,
// and eleven more cover the reductions (LMR, pruning of quiet moves) that
// can hide a quiet key move at its own depth, and the stand-pat cut-offs
// that hide a mating check behind a good static evaluation (the network's
// scores hid 1.Nc3's mate in 2 in TestMates until depth 11).
func mateSearchDepth(n int) int { return 2*n + 10 }
