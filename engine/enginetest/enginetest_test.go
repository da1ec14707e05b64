package enginetest_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// search runs one search and returns its reports and result.
func search(t *testing.T, ctx context.Context, e *enginetest.Engine, g engine.Game, lim engine.Limits) ([]engine.Info, engine.Result) {
	t.Helper()
	var infos []engine.Info
	res, err := e.Search(ctx, g, lim, func(in engine.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	return infos, res
}

// depths lists the depth of each report.
func depths(infos []engine.Info) []int {
	var d []int
	for _, in := range infos {
		d = append(d, in.Depth)
	}
	return d
}

// TestZeroEngine: the zero Engine deepens to DefaultDepth, reporting
// Line for the first legal move, and plays that move.
func TestZeroEngine(t *testing.T) {
	var e enginetest.Engine
	g := enginetest.Game(t, "e4 e5")
	p, _ := g.Position()
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	infos, res := search(t, context.Background(), &e, g, engine.Limits{MoveTime: time.Second})
	if !reflect.DeepEqual(depths(infos), []int{1, 2, 3}) {
		t.Fatalf("depths %v, want 1 2 3", depths(infos))
	}
	for i, in := range infos {
		if want := enginetest.Line(p, ml.Moves[0], i+1, 0); !reflect.DeepEqual(in, want) {
			t.Errorf("report %d: %+v, want %+v", i, in, want)
		}
	}
	if res.BestMove != ml.Moves[0] || res.PonderMove != chess.NullMove || !reflect.DeepEqual(res.Last, infos[2]) {
		t.Errorf("result %+v, want the first legal move with the depth 3 report", res)
	}
	if e.Name() != "Fake 1.0" || e.Searches() != 1 || e.Active() != 0 || e.Misuse() != nil {
		t.Errorf("name %q, %d searches, %d active, misuse %v", e.Name(), e.Searches(), e.Active(), e.Misuse())
	}
}

// TestLine: the numbers Line promises, and a PV of one move when the reply
// has no legal move.
func TestLine(t *testing.T) {
	p := enginetest.Position(t, "f3 e5 g4")
	qh4, _ := p.ParseSAN("Qh4#")
	in := enginetest.Line(p, qh4, 4, 2)
	want := engine.Info{Depth: 4, SelDepth: 7, MultiPV: 3, Score: engine.Score{CP: 0}, Nodes: 49380,
		NPS: 1_000_000, HashFull: 17, Time: 400 * time.Millisecond, PV: []chess.Move{qh4}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("Line of the mate: %+v, want %+v", in, want)
	}
	e4, _ := chess.NewPosition().ParseSAN("e4")
	if pv := enginetest.Line(chess.NewPosition(), e4, 1, 0).PV; len(pv) != 2 || pv[0] != e4 || !enginetest.Position(t, "e4").IsLegal(pv[1]) {
		t.Errorf("PV after e4: %v, want e4 and a reply", pv)
	}
}

// TestDepthLimits: the lower of MaxDepth and Limits.Depth ends a search;
// an infinite one without either runs until stopped.
func TestDepthLimits(t *testing.T) {
	g := enginetest.Game(t)
	for _, c := range []struct {
		max  int
		lim  engine.Limits
		last int
	}{
		{0, engine.Limits{Depth: 5}, 5},
		{2, engine.Limits{Depth: 5}, 2},
		{6, engine.Limits{Depth: 4}, 4},
		{1, engine.Limits{Infinite: true}, 1},
		{0, engine.Limits{Nodes: 10}, enginetest.DefaultDepth},
	} {
		e := &enginetest.Engine{MaxDepth: c.max}
		infos, res := search(t, context.Background(), e, g, c.lim)
		if len(infos) != c.last || res.Last.Depth != c.last {
			t.Errorf("MaxDepth %d, %+v: depths %v, last %d; want up to %d", c.max, c.lim, depths(infos), res.Last.Depth, c.last)
		}
	}
	// Infinite: stopped from the info callback at depth 50.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := &enginetest.Engine{}
	n := 0
	res, err := e.Search(ctx, g, engine.Limits{Infinite: true}, func(in engine.Info) {
		if n++; in.Depth == 50 {
			cancel()
		}
	})
	if err != nil || n != 50 || res.Last.Depth != 50 {
		t.Errorf("infinite search stopped at depth 50: %d reports, last depth %d, %v", n, res.Last.Depth, err)
	}
}

// TestTick: each depth waits a tick; a stop during the wait ends the search
// with what it had.
func TestTick(t *testing.T) {
	e := &enginetest.Engine{Tick: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan engine.Result)
	var infos []engine.Info
	go func() {
		res, _ := e.Search(ctx, enginetest.Game(t), engine.Limits{Depth: 1}, func(in engine.Info) { infos = append(infos, in) })
		done <- res
	}()
	for e.Active() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	res := <-done
	if len(infos) != 0 || res.Last.Depth != 0 || res.BestMove == chess.NullMove {
		t.Errorf("stopped before depth 1: %d reports, %+v", len(infos), res)
	}
	e = &enginetest.Engine{Tick: time.Millisecond}
	if infos, _ := search(t, context.Background(), e, enginetest.Game(t), engine.Limits{Depth: 3}); len(infos) != 3 {
		t.Errorf("ticking search: depths %v", depths(infos))
	}
}

// TestMultiPV: line 1 starts with the best move, the others with the other
// legal moves in order; Last is line 1's.
func TestMultiPV(t *testing.T) {
	g := enginetest.Game(t)
	p, _ := g.Position()
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	e := &enginetest.Engine{Best: func(engine.Game, *chess.Position) (chess.Move, error) { return ml.Moves[1], nil }}
	infos, res := search(t, context.Background(), e, g, engine.Limits{Depth: 2, MultiPV: 3})
	want := []chess.Move{ml.Moves[1], ml.Moves[0], ml.Moves[2]}
	if len(infos) != 6 {
		t.Fatalf("%d reports, want 2 depths of 3 lines", len(infos))
	}
	for i, in := range infos {
		if k := i % 3; in.MultiPV != k+1 || in.PV[0] != want[k] || in.Depth != i/3+1 {
			t.Errorf("report %d: line %d depth %d %v, want line %d depth %d %v", i, in.MultiPV, in.Depth, in.PV[0], k+1, i/3+1, want[k])
		}
	}
	if res.BestMove != ml.Moves[1] || res.Last.MultiPV != 1 || res.Last.Depth != 2 {
		t.Errorf("result %v, last line %d depth %d", res.BestMove, res.Last.MultiPV, res.Last.Depth)
	}
}

// TestScriptedByPly: MovesByPly and ScoresByPly answer by the moves played.
func TestScriptedByPly(t *testing.T) {
	e := &enginetest.Engine{
		Best:  enginetest.MovesByPly(map[int]string{1: "Nf6", 2: "g1f3"}),
		Score: enginetest.ScoresByPly(map[int]engine.Score{1: {CP: -40}, 2: {Mate: 3}}),
	}
	for _, c := range []struct {
		moves, best string
		score       engine.Score
	}{
		{"", "a3", engine.Score{}}, // the first legal move, and 0.00
		{"e4", "Nf6", engine.Score{CP: -40}},
		{"e4 e5", "Nf3", engine.Score{Mate: 3}},
	} {
		g := enginetest.Game(t, c.moves)
		p, _ := g.Position()
		infos, res := search(t, context.Background(), e, g, engine.Limits{Depth: 2})
		if p.SAN(res.BestMove) != c.best || len(infos) != 2 || infos[0].Score != c.score || infos[1].Score != c.score {
			t.Errorf("after %q: %s, %+v; want %s at %v", c.moves, p.SAN(res.BestMove), infos, c.best, c.score)
		}
	}
	// A scripted move that is not legal, or not a move, is an error.
	for _, bad := range []string{"Nf3", "xyz"} {
		e.Best = enginetest.MovesByPly(map[int]string{1: bad})
		if _, err := e.Search(context.Background(), enginetest.Game(t, "Nf3"), engine.Limits{Depth: 1}, nil); err == nil {
			t.Errorf("best move %q after 1. Nf3: no error", bad)
		}
	}
	e.Best = func(engine.Game, *chess.Position) (chess.Move, error) {
		return enginetest.Position(t, "e4").ParseSAN("e5") // legal only after e4
	}
	if _, err := e.Search(context.Background(), enginetest.Game(t), engine.Limits{Depth: 1}, nil); err == nil || !strings.Contains(err.Error(), "not legal") {
		t.Errorf("an illegal best move: %v", err)
	}
}

// TestScript: scripted reports go out as they are; the last full line 1
// is the result.
func TestScript(t *testing.T) {
	g := enginetest.Game(t)
	p, _ := g.Position()
	e4, _ := p.ParseSAN("e4")
	d4, _ := p.ParseSAN("d4")
	c4, _ := p.ParseSAN("c4")
	script := []engine.Info{
		{Depth: 1, PV: []chess.Move{e4}, Score: engine.Score{CP: 10}},
		{Depth: 2, PV: []chess.Move{d4}, Score: engine.Score{CP: 20}},
		{Depth: 2, MultiPV: 2, PV: []chess.Move{c4}},
		{Nodes: 5000, CurrMove: e4, CurrMoveNumber: 1}, // progress only
	}
	e := &enginetest.Engine{Script: func(engine.Game) []engine.Info { return script }}
	infos, res := search(t, context.Background(), e, g, engine.Limits{Depth: 1})
	if !reflect.DeepEqual(infos, script) || res.BestMove != d4 || !reflect.DeepEqual(res.Last, script[1]) {
		t.Errorf("reports %+v, result %+v; want the script and 1. d4", infos, res)
	}
	// An empty script: no report, the first legal move.
	e.Script = func(engine.Game) []engine.Info { return nil }
	infos, res = search(t, context.Background(), e, g, engine.Limits{})
	if len(infos) != 0 || res.BestMove == chess.NullMove || res.Last.Depth != 0 {
		t.Errorf("silent search: %d reports, %+v", len(infos), res)
	}
	// Scripted best moves are not checked: a broken engine's illegal move
	// or null move comes out as it is, without an error.
	e5, _ := enginetest.Position(t, "e4").ParseSAN("e5")
	for _, m := range []chess.Move{e5, chess.NullMove} {
		e.Script = func(engine.Game) []engine.Info { return []engine.Info{{Depth: 1, PV: []chess.Move{m}}} }
		if _, res := search(t, context.Background(), e, g, engine.Limits{}); res.BestMove != m {
			t.Errorf("scripted best move %v: got %v", m, res.BestMove)
		}
	}
}

// TestLag: a search waits out its Lag even when it is stopped, then
// returns as a stopped search does; one not stopped goes on as usual.
func TestLag(t *testing.T) {
	const lag = 50 * time.Millisecond
	e := &enginetest.Engine{Lag: lag}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	infos, res := search(t, stopped, e, enginetest.Game(t), engine.Limits{Depth: 2})
	if took := time.Since(start); took < lag || len(infos) != 0 || res.BestMove == chess.NullMove {
		t.Errorf("stopped search with a %v lag: returned after %v with %d reports, %+v", lag, took, len(infos), res)
	}
	start = time.Now()
	infos, _ = search(t, context.Background(), e, enginetest.Game(t), engine.Limits{Depth: 2})
	if took := time.Since(start); took < lag || len(infos) != 2 {
		t.Errorf("search with a %v lag: returned after %v with depths %v", lag, took, depths(infos))
	}
}

// TestWaitForStop: with WaitForStop, an infinite search waits for stop and
// a ponder search for PonderHit or stop; other searches return.
func TestWaitForStop(t *testing.T) {
	e := &enginetest.Engine{MaxDepth: 1, WaitForStop: true}
	g := enginetest.Game(t)
	start := func(lim engine.Limits) (context.CancelFunc, chan engine.Result) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan engine.Result, 1)
		reported := make(chan struct{})
		go func() {
			res, _ := e.Search(ctx, g, lim, func(engine.Info) { close(reported) })
			done <- res
		}()
		<-reported
		return cancel, done
	}
	returned := func(done chan engine.Result) bool {
		select {
		case <-done:
			return true
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}
	cancel, done := start(engine.Limits{Infinite: true})
	e.PonderHit()
	if returned(done) {
		t.Error("an infinite search returned before stop")
	}
	cancel()
	if res := <-done; res.Last.Depth != 1 {
		t.Errorf("stopped infinite search: %+v", res)
	}
	cancel, done = start(engine.Limits{Ponder: true, WTime: time.Minute})
	defer cancel()
	if returned(done) {
		t.Error("a ponder search returned before ponderhit")
	}
	e.PonderHit()
	if res := <-done; res.Last.Depth != 1 {
		t.Errorf("ponder search after ponderhit: %+v", res)
	}
	// A ponderhit between searches is lost: the next ponder search waits.
	e.PonderHit()
	cancel, done = start(engine.Limits{Ponder: true})
	if returned(done) {
		t.Error("a ponder search took an earlier ponderhit")
	}
	cancel()
	<-done
	if _, res := search(t, context.Background(), e, g, engine.Limits{WTime: time.Minute}); res.Last.Depth != 1 {
		t.Errorf("a timed search with WaitForStop: %+v", res)
	}
	// Without WaitForStop an infinite search ends at its last depth.
	e.WaitForStop = false
	if _, res := search(t, context.Background(), e, g, engine.Limits{Infinite: true}); res.Last.Depth != 1 {
		t.Errorf("infinite search capped at depth 1 without WaitForStop: %+v", res)
	}
}

// TestRecords: what the engine was asked, and the contract breaches it saw.
func TestRecords(t *testing.T) {
	e := &enginetest.Engine{ID: "Elo", Opts: []engine.Option{{Name: "UCI_Elo", Type: "spin", Min: 500, Max: 3000}}}
	if err := e.SetOption("uci_elo", "1100"); err != nil {
		t.Errorf("a listed option: %v", err)
	}
	if err := e.SetOption("Hash", "16"); err == nil || !strings.Contains(err.Error(), `"Hash"`) {
		t.Errorf("an option not listed: %v", err)
	}
	_ = e.NewGame()
	e4, _ := chess.NewPosition().ParseSAN("e4")
	moves := []chess.Move{e4}
	lim := engine.Limits{Depth: 1, SearchMoves: moves}
	search(t, context.Background(), e, enginetest.Game(t), lim)
	moves[0] = chess.NullMove // the record is a copy
	_ = e.Close()
	if got := e.Limits(); len(got) != 1 || got[0].Depth != 1 || got[0].SearchMoves[0] == chess.NullMove {
		t.Errorf("limits %+v", got)
	}
	if e.Name() != "Elo" || !reflect.DeepEqual(e.Settings(), []string{"uci_elo=1100"}) || e.NewGames() != 1 || !e.Closed() || e.Misuse() != nil {
		t.Errorf("name %q, settings %q, %d new games, closed %v, misuse %v", e.Name(), e.Settings(), e.NewGames(), e.Closed(), e.Misuse())
	}
}

// TestMisuse: overlapping searches, and SetOption or NewGame during a
// search, are caught.
func TestMisuse(t *testing.T) {
	for _, c := range []struct {
		name, want string
		during     func(e *enginetest.Engine)
	}{
		{"search", "while another", func(e *enginetest.Engine) {
			stopped, cancel := context.WithCancel(context.Background())
			cancel() // returns at once, for all the Tick
			_, _ = e.Search(stopped, enginetest.Game(t), engine.Limits{Depth: 1}, nil)
		}},
		{"setoption", "SetOption", func(e *enginetest.Engine) { _ = e.SetOption("Hash", "1") }},
		{"newgame", "NewGame", func(e *enginetest.Engine) { _ = e.NewGame() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &enginetest.Engine{Tick: time.Hour}
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { _, _ = e.Search(ctx, enginetest.Game(t), engine.Limits{Infinite: true}, nil) })
			for e.Active() == 0 {
				time.Sleep(time.Millisecond)
			}
			c.during(e)
			cancel()
			wg.Wait()
			if err := e.Misuse(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("misuse %v, want one about %s", err, c.want)
			}
			if e.Active() != 0 || e.Searches() < 1 {
				t.Errorf("%d active, %d searches after the end", e.Active(), e.Searches())
			}
		})
	}
}

// TestEnds: no legal move, a bad game, and Err.
func TestEnds(t *testing.T) {
	e := &enginetest.Engine{}
	infos, res := search(t, context.Background(), e, enginetest.Game(t, "f3 e5 g4 Qh4#"), engine.Limits{Depth: 3})
	if len(infos) != 0 || res.BestMove != chess.NullMove {
		t.Errorf("mated: %d reports, %+v", len(infos), res)
	}
	if _, err := e.Search(context.Background(), engine.Game{}, engine.Limits{}, nil); err == nil {
		t.Error("a game without a start position: no error")
	}
	boom := errors.New("boom")
	e.Err = boom
	res, err := e.Search(context.Background(), enginetest.Game(t), engine.Limits{Depth: 1}, nil)
	if !errors.Is(err, boom) || res.BestMove == chess.NullMove {
		t.Errorf("Err: %v with %+v, want boom with the move", err, res)
	}
}

// fatalTB records a Fatalf and stops the caller as testing.T does, by a
// panic the test recovers.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}

// TestGame: moves SAN or UCI, in one string or several, from the start or
// a FEN.
func TestGame(t *testing.T) {
	g := enginetest.Game(t, "e2e4 e5", "Nf3")
	if p, err := g.Position(); err != nil || len(g.Moves) != 3 ||
		p.FEN() != "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" {
		t.Errorf("game %v: %v", g.Moves, err)
	}
	if g.Start.FEN() != chess.StartFEN {
		t.Errorf("start %s", g.Start.FEN())
	}
	// An illegal move fails the test, naming the move.
	ft := &fatalTB{TB: t}
	func() {
		defer func() { _ = recover() }()
		enginetest.Game(ft, "e4 e5 Ke3")
	}()
	if !strings.Contains(ft.msg, `move 3 of "e4 e5 Ke3"`) {
		t.Errorf("an illegal move failed with %q", ft.msg)
	}
	const fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	g = enginetest.GameFrom(t, fen, "e4 Kd7")
	if g.Start.FEN() != fen || enginetest.Position(t).FEN() != chess.StartFEN || len(g.Moves) != 2 {
		t.Errorf("from a FEN: start %s, %d moves", g.Start.FEN(), len(g.Moves))
	}
}
