// Package search is Squall's engine: iterative-deepening principal variation
// search over a shared lockless transposition table, run by one or more Lazy
// SMP threads. Searcher implements engine.Analyzer; it keeps no
// package-level state, so any number of Searchers can run in one process.
package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/engine/nnue"
	"github.com/squall-chess/squall/engine/tablebase"
)

// settings are a Searcher's option values.
type settings struct {
	hash, threads, multiPV int
	ponder                 bool
	overhead               time.Duration
	chess960               bool
	limitStrength          bool
	elo, skill             int
	showWDL                bool
	useNNUE                bool
	evalFile               string
	params                 Params
}

// Searcher is the built-in engine. Its methods other than PonderHit and
// SetTablebase must not be called concurrently with Search.
type Searcher struct {
	set settings
	net *nnue.Net // loaded from EvalFile (nil: the built-in network); used when UseNNUE is set
	// checkNNUE makes every evaluation check its accumulator against a
	// refresh (tests).
	checkNNUE bool
	tt        *table
	threads   []*thread
	rng       *rand.Rand
	// lmr is the reduction table for lmrFor (LMRBase, LMRDivisor), made
	// again by Search when they change.
	lmr    *lmrTable
	lmrFor [2]int

	curMu sync.Mutex
	cur   *search // the running search, for PonderHit

	tbMu sync.Mutex
	tb   tbProbe // the tables handed over by SetTablebase
}

// New returns a Searcher with default options (64 MB hash, one thread).
// The defaults are the ones Options declares, set through SetOption, so
// that what a GUI is told and what the engine does cannot drift apart.
func New() *Searcher {
	s := &Searcher{rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x5eed))}
	for _, o := range s.Options() {
		if o.Type == "button" {
			continue
		}
		if err := s.SetOption(o.Name, o.Default); err != nil {
			panic(err) // a default its own option refuses: a bug every test would meet
		}
	}
	return s
}

// Name identifies the engine.
func (s *Searcher) Name() string { return "Squall" }

// Options lists the UCI options: the usual ones, then the search's
// tunable constants (Tunables, hidden from GUIs).
func (s *Searcher) Options() []engine.Option {
	return append([]engine.Option{
		{Name: "Hash", Type: "spin", Default: "64", Min: 1, Max: 65536},
		{Name: "Threads", Type: "spin", Default: "1", Min: 1, Max: 256},
		{Name: "MultiPV", Type: "spin", Default: "1", Min: 1, Max: 64},
		{Name: "Ponder", Type: "check", Default: "false"},
		{Name: "Move Overhead", Type: "spin", Default: "30", Min: 0, Max: 5000},
		{Name: "Clear Hash", Type: "button"},
		{Name: "UCI_Chess960", Type: "check", Default: "false"},
		{Name: "UCI_LimitStrength", Type: "check", Default: "false"},
		{Name: "UCI_Elo", Type: "spin", Default: "1500", Min: minElo, Max: maxElo},
		{Name: "Skill Level", Type: "spin", Default: "20", Min: 0, Max: 20},
		{Name: "UCI_ShowWDL", Type: "check", Default: "false"},
		{Name: "EvalFile", Type: "string", Default: ""}, // empty: the built-in network
		{Name: "UseNNUE", Type: "check", Default: "true"},
	}, Tunables()...)
}

// SetOption changes an option; names are matched without regard to case,
// as UCI GUIs differ. A bad value is an error and changes nothing.
func (s *Searcher) SetOption(name, value string) error {
	var opt *engine.Option
	for _, o := range s.Options() {
		if strings.EqualFold(o.Name, strings.TrimSpace(name)) {
			opt = &o
			break
		}
	}
	if opt == nil {
		return fmt.Errorf("search: no such option %q", name)
	}
	value, err := opt.Check(value)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	n, _ := strconv.Atoi(value) // a spin's value, checked
	b := value == "true"        // a check's
	switch opt.Name {
	case "Hash":
		if n != s.set.hash {
			s.set.hash = n
			s.tt = newTable(n)
		}
	case "Threads":
		s.set.threads = n
	case "MultiPV":
		s.set.multiPV = n
	case "Ponder":
		s.set.ponder = b
	case "Move Overhead":
		s.set.overhead = time.Duration(n) * time.Millisecond
	case "Clear Hash":
		s.tt.clear()
	case "UCI_Chess960":
		s.set.chess960 = b
	case "UCI_LimitStrength":
		s.set.limitStrength = b
	case "UCI_Elo":
		s.set.elo = n
	case "Skill Level":
		s.set.skill = n
	case "UCI_ShowWDL":
		s.set.showWDL = b
	case "EvalFile":
		if value == "" {
			s.net, s.set.evalFile = nil, "" // the built-in one
			break
		}
		// A file that does not read leaves the network as it was.
		data, err := os.ReadFile(value)
		if err != nil {
			return fmt.Errorf("search: EvalFile: %w", err)
		}
		net, err := nnue.Parse(data)
		if err != nil {
			return fmt.Errorf("search: EvalFile %s: %w", value, err)
		}
		s.net, s.set.evalFile = net, value
	case "UseNNUE":
		s.set.useNNUE = b
	default:
		s.set.params.setTunable(opt.Name, n)
	}
	return nil
}

// EvalTrace is the hand-crafted evaluation of p term by term, as UCI's
// "eval" command and squall eval print it.
func (s *Searcher) EvalTrace(p *chess.Position) string {
	var b strings.Builder
	eval.New().Trace(p).Print(&b)
	return b.String()
}

// SetTablebase gives the search Syzygy tables to probe inside its tree
// (nil: none), the least remaining depth at which to probe positions with
// as many pieces as the largest tables (fewer pieces are always probed;
// values below 1 act as 1), and whether the 50-move rule counts (cursed
// wins and blessed losses then score as draws). It implements
// knowledge.TablebaseAnalyzer. It may be called at any time: a search already
// running keeps the tables and settings it started with, and the change
// applies from the next search. The Searcher only reads tb, which must
// stay usable while a search that was given it runs.
func (s *Searcher) SetTablebase(tb *tablebase.Tablebase, probeDepth int, rule50 bool) {
	p := tbProbe{}
	if tb.MaxPieces() > 0 {
		p = tbProbe{tb: tb, pieces: tb.MaxPieces(), depth: max(probeDepth, 1), rule50: rule50}
	}
	s.tbMu.Lock()
	s.tb = p
	s.tbMu.Unlock()
}

// NewGame clears the hash table and the threads' histories.
func (s *Searcher) NewGame() error {
	s.tt.clear()
	for _, t := range s.threads {
		t.h.clear()
	}
	return nil
}

// Close releases the tables.
func (s *Searcher) Close() error {
	s.threads = nil
	s.tt = newTable(1)
	return nil
}

// PonderHit turns a ponder search into a normal timed search.
func (s *Searcher) PonderHit() {
	s.curMu.Lock()
	cs := s.cur
	s.curMu.Unlock()
	if cs != nil {
		cs.ponderHit()
	}
}

// strength returns the strength to play at.
func (s *Searcher) strength() strength {
	switch {
	case s.set.limitStrength:
		return strengthFor(s.set.elo)
	case s.set.skill < 20:
		return strengthFor(skillElo(s.set.skill))
	}
	return strength{}
}

// Search implements engine.Analyzer.
func (s *Searcher) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	root, err := g.Position()
	if err != nil {
		return engine.Result{}, fmt.Errorf("search: %w", err)
	}
	var legal chess.MoveList
	root.GenerateLegal(&legal)
	var rms []rootMove
	for _, m := range legal.Moves[:legal.N] {
		if len(lim.SearchMoves) == 0 || slices.Contains(lim.SearchMoves, m) {
			rms = append(rms, rootMove{move: m, score: -infinity, prevScore: -infinity, pv: make([]chess.Move, 0, maxPly)})
		}
	}
	lv := s.strength()
	multiPV := max(1, lim.MultiPV, s.set.multiPV)
	if lim.MultiPV > 0 {
		multiPV = lim.MultiPV
	}
	multiPV = max(multiPV, lv.lines)
	multiPV = min(multiPV, max(1, len(rms)))

	s.tbMu.Lock()
	tb := s.tb
	s.tbMu.Unlock()
	cs := &search{
		tb:        tb,
		tt:        s.tt,
		start:     time.Now(),
		lim:       lim,
		info:      info,
		showWDL:   s.set.showWDL,
		multiPV:   multiPV,
		plan:      planTime(lim, root.SideToMove(), s.set.overhead, &s.set.params),
		hit:       make(chan struct{}),
		nodeLimit: lim.Nodes,
		level:     lv.limited,
	}
	if lv.limited && (cs.nodeLimit == 0 || lv.nodes < cs.nodeLimit) {
		cs.nodeLimit, cs.levelNodes = lv.nodes, true
	}
	cs.pondering.Store(lim.Ponder)
	cs.clockStart.Store(cs.start.UnixNano())
	s.tt.ready()
	s.tt.newSearch()

	s.curMu.Lock()
	s.cur = cs
	s.curMu.Unlock()
	defer func() {
		s.curMu.Lock()
		s.cur = nil
		s.curMu.Unlock()
	}()

	if len(rms) == 0 {
		// Checkmate or stalemate (or no allowed move): there is no move to
		// play. Report the score once and, like any ponder or infinite
		// search, wait to be told to stop.
		in := engine.Info{Depth: 1, MultiPV: 1, Score: engine.Score{CP: 0}}
		if root.InCheck() && legal.N == 0 {
			// Mated: engine.Score has no "mate in 0", so the loss is
			// reported as the lowest centipawn score (as uci.ParseInfo
			// reads "score mate 0").
			in.Score = engine.Score{CP: -32000}
		}
		if info != nil {
			info(in)
		}
		switch {
		case lim.Infinite:
			<-ctx.Done()
		case lim.Ponder:
			select {
			case <-ctx.Done():
			case <-cs.hit:
			}
		}
		return engine.Result{Last: in}, nil
	}

	for len(s.threads) < s.set.threads {
		s.threads = append(s.threads, newThread(len(s.threads)))
	}
	threads := s.threads[:s.set.threads]
	cs.threads = threads
	if lmrFor := [2]int{s.set.params.LMRBase, s.set.params.LMRDivisor}; s.lmr == nil || lmrFor != s.lmrFor {
		s.lmr, s.lmrFor = newLMRTable(lmrFor[0], lmrFor[1]), lmrFor
	}
	for _, t := range threads {
		t.s = cs
		t.prm, t.lmr = s.set.params, s.lmr
		t.p = root.Clone()
		t.rootMoves = append(t.rootMoves[:0], rms...)
		for i := range t.rootMoves {
			t.rootMoves[i].pv = make([]chess.Move, 0, maxPly)
		}
		t.nodes = 0
		t.published.Store(0)
		t.tbHits = 0
		t.tbShown.Store(0)
		t.nmpMinPly = 0
		t.completed = 0
		t.net = nil
		// The playing levels keep the hand-crafted evaluation: they are
		// calibrated with it (docs/ELO.md), and a weak level's few
		// nodes gain nothing from a faster evaluation.
		if s.set.useNNUE && !lv.limited {
			t.net = s.net
			if t.net == nil {
				t.net = nnue.Default()
			}
			t.net.Refresh(&t.acc[0], t.p)
			t.checkNNUE = s.checkNNUE
		}
		for i := range t.stack {
			t.stack[i] = frame{ch: &t.h.cont[0][0]}
		}
	}

	// Stop when the caller cancels, as at the hard time limit: once depth
	// 1 is complete, so that even a search stopped at once ("go" then
	// "stop") answers with a searched move rather than none.
	stopWatch := context.AfterFunc(ctx, cs.outOfTime)
	defer stopWatch()
	if !lim.Ponder {
		cs.armTimer()
	}
	defer cs.disarm()

	var wg sync.WaitGroup
	for _, t := range threads[1:] {
		wg.Go(func() { t.iterate() })
	}
	threads[0].iterate()
	// A ponder or infinite search does not return before it is told to:
	// UCI forbids a bestmove before "stop" or "ponderhit".
	if !cs.stop.Load() {
		if lim.Infinite {
			<-ctx.Done()
		} else if cs.pondering.Load() {
			select {
			case <-ctx.Done():
			case <-cs.hit:
			}
		}
	}
	cs.stop.Store(true)
	wg.Wait()

	main := threads[0]
	// Lazy SMP's best thread: a helper that completed a deeper iteration
	// than the main thread (helpers search one ply deeper on odd ids) has
	// the better-founded move.
	chosen := main
	if cs.helpersChosen() {
		for _, t := range threads[1:] {
			if t.completed > chosen.completed {
				chosen = t
			}
		}
	}
	best := chosen.rootMoves[0]
	if lv.limited {
		best = s.chooseLevelMove(main.rootMoves[:multiPV], lv)
	}
	res := engine.Result{BestMove: best.move, Last: cs.last}
	if chosen != main {
		res.Last = cs.lineInfo(chosen, 0, chosen.completed)
		if info != nil {
			info(res.Last) // the deepest line is the one the move comes from
		}
	}
	if len(best.pv) > 1 && best.pv[0] == best.move {
		res.PonderMove = best.pv[1]
	} else {
		res.PonderMove = s.ponderFromTable(root, best.move)
	}
	if res.Last.Depth == 0 {
		res.Last = cs.lineInfo(main, 0, 1)
	}
	return res, nil
}

// chooseLevelMove picks, among the searched lines, one within the level's
// margin of the best, favouring better lines. A level's node budget
// nearly always stops the search inside an iteration, where the lines not
// yet searched again hold -infinity: they are judged by their score from
// the last iteration that searched them, as the info lines report them.
func (s *Searcher) chooseLevelMove(lines []rootMove, lv strength) rootMove {
	score := func(rm rootMove) int {
		if rm.score == -infinity {
			return rm.prevScore
		}
		return rm.score
	}
	best := score(lines[0])
	if best <= -mateBound || best >= mateBound {
		return lines[0]
	}
	total := 0
	for _, rm := range lines {
		if d := best - score(rm); d <= lv.margin && score(rm) > -mateBound {
			total += lv.margin - d + 1
		}
	}
	if total == 0 {
		return lines[0]
	}
	r := s.rng.IntN(total)
	for _, rm := range lines {
		if d := best - score(rm); d <= lv.margin && score(rm) > -mateBound {
			r -= lv.margin - d + 1
			if r < 0 {
				return rm
			}
		}
	}
	return lines[0]
}

// ponderFromTable finds the expected reply to m in the hash table, checked
// for legality.
func (s *Searcher) ponderFromTable(root *chess.Position, m chess.Move) chess.Move {
	p := root.Clone()
	var u chess.Undo
	p.MakeMove(m, &u)
	if s.tt.buckets == nil {
		return chess.NullMove // no search has made the table
	}
	if h, ok := s.tt.probe(p.Key()); ok && h.move != chess.NullMove && p.IsLegal(h.move) {
		return h.move
	}
	return chess.NullMove
}
