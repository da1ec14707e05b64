package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/uci"
	"github.com/squall-chess/squall/referee"
)

// fakes is one player's engines: every instance it starts is a new
// enginetest.Engine named name and set up by set, and it keeps them all so
// that a test can count those started and closed and read what they were
// asked.
type fakes struct {
	name string
	set  func(*enginetest.Engine)
	mu   sync.Mutex // the runner starts instances from its workers
	made []*enginetest.Engine
}

// fake returns the engines of a player named name; set, if not nil, sets
// up each instance.
func fake(name string, set func(*enginetest.Engine)) *fakes {
	return &fakes{name: name, set: set}
}

// New starts an instance, as a Player's New.
func (f *fakes) New() (engine.Analyzer, error) {
	e := &enginetest.Engine{ID: f.name}
	if f.set != nil {
		f.set(e)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.made = append(f.made, e)
	return e, nil
}

// player is a Player named after its engines.
func (f *fakes) player() Player { return Player{New: f.New} }

// instances returns the instances started so far.
func (f *fakes) instances() []*enginetest.Engine {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.made)
}

// started is how many instances were started.
func (f *fakes) started() int { return len(f.instances()) }

// closed is how many instances were closed.
func (f *fakes) closed() int {
	n := 0
	for _, e := range f.instances() {
		if e.Closed() {
			n++
		}
	}
	return n
}

// limits returns the limits of every search of every instance.
func (f *fakes) limits() []engine.Limits {
	var lim []engine.Limits
	for _, e := range f.instances() {
		lim = append(lim, e.Limits()...)
	}
	return lim
}

// misuse returns the first breach of the Analyzer contract an instance
// saw, such as two searches at once.
func (f *fakes) misuse() error {
	for _, e := range f.instances() {
		if err := e.Misuse(); err != nil {
			return err
		}
	}
	return nil
}

// captureFirst is a Best that plays the first capture, or else the first
// move.
func captureFirst(_ engine.Game, p *chess.Position) (chess.Move, error) {
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if m.IsCapture() {
			return m, nil
		}
	}
	return chess.NullMove, nil // the first move
}

// script is a Best that plays the given moves (SAN) in order, by ply from
// the opening, then the first legal move.
func script(sans string) func(engine.Game, *chess.Position) (chess.Move, error) {
	moves := map[int]string{}
	for ply, san := range strings.Fields(sans) {
		moves[ply] = san
	}
	return enginetest.MovesByPly(moves)
}

// answers is a Script that ends every search with m as the best move,
// legal or not, as a broken engine may.
func answers(m chess.Move) func(engine.Game) []engine.Info {
	return func(engine.Game) []engine.Info { return []engine.Info{{Depth: 1, PV: []chess.Move{m}}} }
}

func positions(t *testing.T, fens ...string) []*chess.Position {
	t.Helper()
	var ps []*chess.Position
	for _, f := range fens {
		p, err := chess.ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// Games that the rules end, each scripted so that the outcome is known by
// hand. Both players run the same script, so the same moves are played
// with colours swapped, and the first engine's results mirror.
func TestRulesEndGames(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fen    string
		best   func(engine.Game, *chess.Position) (chess.Move, error) // nil: the first move
		term   referee.Termination
		result string
		plies  int
	}{
		{"fool's mate", chess.StartFEN, script("f3 e5 g4 Qh4#"), referee.Checkmate, "0-1", 4},
		// The start position a third time after 4...Ng8.
		{"repetition", chess.StartFEN, script("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"), referee.Repetition, "1/2-1/2", 8},
		// Sam Loyd's ten-move stalemate.
		{"stalemate", chess.StartFEN, script("e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6"), referee.Stalemate, "1/2-1/2", 19},
		// Ply 100 without capture or pawn move: any rook or king move.
		{"fifty moves", "8/8/8/4k3/8/8/8/R3K3 w - - 99 80", nil, referee.FiftyMoves, "1/2-1/2", 1},
		// Kxd2 leaves king against king.
		{"insufficient material", "8/8/8/4k3/8/8/3r4/4K3 w - - 0 1", captureFirst, referee.InsufficientMaterial, "1/2-1/2", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var finished []*Game
			var names [2]string
			scripted := func(e *enginetest.Engine) { e.Best = tc.best }
			rep, err := Run(context.Background(), Config{
				Players:  [2]Player{{Name: "A", New: fake("Scripted", scripted).New}, {Name: "B", New: fake("Scripted", scripted).New}},
				Openings: positions(t, tc.fen), Games: 2, TC: clock.TimeControl{Base: time.Minute},
				Finished: func(g *Game, n [2]string) error { finished, names = append(finished, g), n; return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Games) != 2 {
				t.Fatalf("%d games", len(rep.Games))
			}
			for i, g := range rep.Games {
				if g.Termination != tc.term || g.Result != tc.result || len(g.Moves) != tc.plies || g.Incident != nil {
					t.Errorf("game %d: %v %s after %d plies (incident %v); want %v %s after %d", i+1, g.Termination, g.Result, len(g.Moves), g.Incident, tc.term, tc.result, tc.plies)
				}
				if g.White != i {
					t.Errorf("game %d: White is player %d", i+1, g.White)
				}
			}
			// Same result string with colours swapped: the first engine
			// scores 2 − (its score in game 1) in game 2.
			if p1, p2 := rep.Games[0].Points(), rep.Games[1].Points(); p1+p2 != 2 {
				t.Errorf("points %d and %d do not mirror", p1, p2)
			}
			if rep.Pairs != (Pentanomial{0, 0, 1, 0, 0}) {
				t.Errorf("pairs %v", rep.Pairs)
			}
			// Each game is handed over as it finishes, with the players' names.
			if len(finished) != 2 || names != [2]string{"A", "B"} || !slices.Contains(finished, rep.Games[0]) || !slices.Contains(finished, rep.Games[1]) {
				t.Errorf("finished %d games with names %q", len(finished), names)
			}
			if tc.name == "fool's mate" {
				if d := rep.Games[0].Detail; d != "Black mates" {
					t.Errorf("detail %q", d)
				}
				if rep.Wins != 1 || rep.Losses != 1 || rep.Draws != 0 {
					t.Errorf("W-L-D %d-%d-%d", rep.Wins, rep.Losses, rep.Draws)
				}
			}
		})
	}
}

// A capture-greedy engine against a first-move engine over several
// openings: every game is replayed and judged here, colours alternate on
// each opening, and the games do not depend on concurrency.
func TestColoursPairsAndConcurrency(t *testing.T) {
	ops := positions(t,
		chess.StartFEN,
		"rnbqkb1r/pp1pnp1p/6p1/2p1p3/2P1P3/3P4/PP2NPPP/RNBQKB1R w KQkq - 0 5",
		"r1bqkbnr/1ppn1ppp/p2pp3/8/3PPB2/8/PPP2PPP/RN1QKBNR w KQkq - 2 5",
	)
	run := func(concurrency int) *Report {
		first, greedy := fake("First", nil), fake("Greedy", func(e *enginetest.Engine) { e.Best = captureFirst })
		rep, err := Run(context.Background(), Config{
			Players:  [2]Player{first.player(), greedy.player()},
			Openings: ops, Games: 7, TC: clock.TimeControl{Base: time.Minute, Increment: time.Second},
			MaxPlies: 300, Concurrency: concurrency,
		})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Names != [2]string{"First", "Greedy"} {
			t.Errorf("names %q", rep.Names)
		}
		// Slots start their engines on their first game; every one is closed.
		started, closed := first.started()+greedy.started(), first.closed()+greedy.closed()
		if started < 2 || started > 2*concurrency || closed != started {
			t.Errorf("concurrency %d: %d engines started, %d closed", concurrency, started, closed)
		}
		if err := cmp.Or(first.misuse(), greedy.misuse()); err != nil {
			t.Errorf("concurrency %d: %v", concurrency, err)
		}
		return rep
	}
	one, three := run(1), run(3)
	if len(one.Games) != 8 { // 7 rounded up to whole pairs
		t.Fatalf("%d games", len(one.Games))
	}
	var wins, losses, draws int
	var pairs Pentanomial
	for i, g := range one.Games {
		if g.Number != i+1 || g.Opening != (i/2)%len(ops) || g.White != i%2 {
			t.Errorf("game %d: number %d opening %d white %d", i+1, g.Number, g.Opening, g.White)
		}
		if g.Start.FEN() != ops[g.Opening].FEN() {
			t.Errorf("game %d starts from %s", g.Number, g.Start.FEN())
		}
		// Replay and judge independently of the runner.
		p := g.Start.Clone()
		var u chess.Undo
		for _, m := range g.Moves {
			if !p.IsLegal(m) {
				t.Fatalf("game %d: illegal %v", g.Number, m)
			}
			p.MakeMove(m, &u)
		}
		want := map[chess.Outcome]referee.Termination{chess.Checkmate: referee.Checkmate, chess.Stalemate: referee.Stalemate,
			chess.DeadPosition: referee.InsufficientMaterial, chess.FiftyMoves: referee.FiftyMoves, chess.ThreefoldRepetition: referee.Repetition}[p.Outcome()]
		if want == "" {
			want = referee.Adjudication
		}
		if g.Termination != want {
			t.Errorf("game %d ends by %v, the position says %v", g.Number, g.Termination, want)
		}
		switch {
		case want != referee.Checkmate && g.Result != "1/2-1/2",
			want == referee.Checkmate && (g.Result == "1-0") != (p.SideToMove() == chess.Black):
			t.Errorf("game %d: result %s for %v with %v to move", g.Number, g.Result, want, p.SideToMove())
		}
		switch g.Points() {
		case 2:
			wins++
		case 1:
			draws++
		default:
			losses++
		}
		if i%2 == 1 {
			pairs[one.Games[i-1].Points()+g.Points()]++
		}
		if h := three.Games[i]; h.Result != g.Result || fmt.Sprint(h.Moves) != fmt.Sprint(g.Moves) {
			t.Errorf("game %d differs with concurrency 3", g.Number)
		}
	}
	if one.Wins != wins || one.Losses != losses || one.Draws != draws || one.Pairs != pairs || one.Stats.Games != 8 {
		t.Errorf("stats %+v; games say %d-%d-%d %v", one.Stats, wins, losses, draws, pairs)
	}
	if three.Stats != one.Stats {
		t.Errorf("concurrency 3 stats %+v, 1: %+v", three.Stats, one.Stats)
	}
}

// An engine that never answers loses on time at its first move, whichever
// colour it has; so does one that answers, but too late.
func TestTimeForfeit(t *testing.T) {
	for _, slow := range []*fakes{
		fake("Hung", func(e *enginetest.Engine) { e.Tick = time.Hour }), // until stopped
		fake("Sleepy", func(e *enginetest.Engine) { e.Lag = 600 * time.Millisecond }),
	} {
		rep, err := Run(context.Background(), Config{
			Players:  [2]Player{fake("Quick", nil).player(), slow.player()},
			Openings: positions(t, chess.StartFEN), Games: 2,
			// Generous enough that the quick engine, which answers at
			// once, cannot lose on time even on a loaded machine.
			TC: clock.TimeControl{Base: 200 * time.Millisecond}, Margin: 50 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rep.Games {
			in := g.Incident
			if g.Termination != referee.TimeForfeit || g.Points() != 2 || in == nil || in.Player != 1 || in.Engine != slow.name || in.Kind != referee.TimeForfeit {
				t.Errorf("%s, game %d: %v %s, incident %+v", slow.name, g.Number, g.Termination, g.Result, in)
			}
			// The slow engine (player 1) moves first as White, second as Black.
			if want := 1 - g.White; len(g.Moves) != want {
				t.Errorf("%s, game %d: lost after %d plies", slow.name, g.Number, len(g.Moves))
			}
		}
		if rep.Pairs != (Pentanomial{0, 0, 0, 0, 1}) || len(rep.Incidents) != 2 {
			t.Errorf("%s: pairs %v, incidents %v", slow.name, rep.Pairs, rep.Incidents)
		}
	}
}

// FirstToMove plays each opening once with the first engine to move, and
// a move time bounds every move: the slow second engine forfeits at its
// first move in every game (each side has a pawn: against a bare king a
// forfeit would be a draw, FIDE 6.9).
func TestFirstToMoveAndMoveTime(t *testing.T) {
	ops := positions(t, chess.StartFEN, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1")
	quick := fake("Quick", nil)
	rep, err := Run(context.Background(), Config{
		Players:  [2]Player{quick.player(), fake("Sleepy", func(e *enginetest.Engine) { e.Lag = 400 * time.Millisecond }).player()},
		Openings: ops, Games: 3, MoveTime: 100 * time.Millisecond, Margin: 50 * time.Millisecond,
		FirstToMove: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != 3 || rep.Pairs != (Pentanomial{}) || rep.Wins != 3 {
		t.Fatalf("%d games, pairs %v, stats %+v", len(rep.Games), rep.Pairs, rep.Stats)
	}
	for i, g := range rep.Games {
		op := i % len(ops)
		wantWhite := 0
		if ops[op].SideToMove() == chess.Black {
			wantWhite = 1
		}
		if g.Opening != op || g.White != wantWhite || g.Termination != referee.TimeForfeit || len(g.Moves) != 1 {
			t.Errorf("game %d: opening %d white %d, %v after %d plies", g.Number, g.Opening, g.White, g.Termination, len(g.Moves))
		}
	}
	lims := quick.limits()
	if len(lims) != 3 {
		t.Fatalf("the first engine searched %d times, want 3", len(lims))
	}
	for _, l := range lims {
		if l.MoveTime != 100*time.Millisecond {
			t.Errorf("search got move time %v", l.MoveTime)
		}
	}
	// A clock and a move time together are refused.
	if _, err := Run(context.Background(), Config{
		Players:  [2]Player{quick.player(), quick.player()},
		Openings: ops, Games: 2, MoveTime: time.Second, TC: clock.TimeControl{Base: time.Second},
	}); err == nil {
		t.Error("clock and move time: no error")
	}
}

// Illegal moves, missing moves and failures lose the game and are
// recorded; a failed engine is replaced, one that only moved illegally
// is not.
func TestIllegalMovesAndCrashes(t *testing.T) {
	e2e4, err := chess.NewPosition().ParseUCI("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bad      *fakes
		kind     referee.Termination
		restarts bool
	}{
		{fake("Wrong", func(e *enginetest.Engine) { e.Script = answers(e2e4) }), referee.IllegalMove, false},
		{fake("Silent", func(e *enginetest.Engine) { e.Script = answers(chess.NullMove) }), referee.IllegalMove, false},
		{fake("Refused", func(e *enginetest.Engine) { e.Err = fmt.Errorf("bestmove z9z9: %w", engine.ErrIllegalMove) }), referee.IllegalMove, false},
		{fake("Crashed", func(e *enginetest.Engine) { e.Err = fmt.Errorf("stockfish: %w", uci.ErrEngineExited) }), referee.EngineFailure, true},
	} {
		good := fake("Good", nil)
		// No pawn on e2 here, so e2e4 is illegal for both colours.
		rep, err := Run(context.Background(), Config{
			Players:  [2]Player{good.player(), tc.bad.player()},
			Openings: positions(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"), Games: 4, TC: clock.TimeControl{Base: time.Minute},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rep.Games {
			in := g.Incident
			if g.Termination != tc.kind || g.Points() != 2 || in == nil || in.Player != 1 || in.Kind != tc.kind || in.Game != g.Number {
				t.Errorf("%s, game %d: %v %s, incident %+v", tc.bad.name, g.Number, g.Termination, g.Result, in)
			}
		}
		if rep.Wins != 4 || rep.Pairs != (Pentanomial{0, 0, 0, 0, 2}) || len(rep.Incidents) != 4 {
			t.Errorf("%s: %+v, incidents %v", tc.bad.name, rep.Stats, rep.Incidents)
		}
		wantBad := 1
		if tc.restarts {
			wantBad = 4 // one per game: each failure discards the instance
		}
		if good.started() != 1 || tc.bad.started() != wantBad || good.closed()+tc.bad.closed() != 1+wantBad {
			t.Errorf("%s: started %d good, %d bad; %d closed", tc.bad.name, good.started(), tc.bad.started(), good.closed()+tc.bad.closed())
		}
	}
}

// A sweep stops the SPRT elo0=0, elo1=100 after 12 pairs: by the exact
// GSPRT (see stats_test.go, same script) n won pairs give an LLR of
// 2.716990 at n = 11 and 2.963952 at n = 12, and the bound is
// ln(0.95/0.05) = 2.944439.
func TestSPRTStopsMatch(t *testing.T) {
	var calls []Progress
	rep, err := Run(context.Background(), Config{
		Players: [2]Player{
			fake("Good", nil).player(),
			fake("Silent", func(e *enginetest.Engine) { e.Script = answers(chess.NullMove) }).player(),
		},
		Openings: positions(t, chess.StartFEN), Games: 1000, TC: clock.TimeControl{Base: time.Minute},
		SPRT:     &SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05},
		Progress: func(p Progress) { calls = append(calls, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "H1 accepted" || len(rep.Games) != 24 || rep.Pairs != (Pentanomial{0, 0, 0, 0, 12}) || !near(rep.LLR, 2.963952, 1e-5) {
		t.Errorf("verdict %q after %d games, pairs %v, LLR %.6f", rep.Verdict, len(rep.Games), rep.Pairs, rep.LLR)
	}
	if len(calls) != 24 || calls[23].Games != 24 || calls[23].Total != 1000 || calls[23].LLR != rep.LLR || calls[0].Game.Number != 1 {
		t.Errorf("%d progress calls; last %+v", len(calls), calls[len(calls)-1])
	}
}

// Cancelling the context stops the match and returns what was played.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	rep, err := Run(ctx, Config{
		Players:  [2]Player{fake("A", nil).player(), fake("B", func(e *enginetest.Engine) { e.Best = captureFirst }).player()},
		Openings: positions(t, chess.StartFEN), Games: 100, TC: clock.TimeControl{Base: time.Minute}, MaxPlies: 50, Concurrency: 2,
		Progress: func(p Progress) {
			if p.Games == 3 {
				once.Do(cancel)
			}
		},
	})
	if !errors.Is(err, context.Canceled) || len(rep.Games) != 3 {
		t.Errorf("err %v after %d games", err, len(rep.Games))
	}
}

func TestEngineStartFailure(t *testing.T) {
	a := fake("A", nil)
	_, err := Run(context.Background(), Config{
		Players: [2]Player{
			a.player(),
			{New: func() (engine.Analyzer, error) { return nil, errors.New("no such file") }},
		},
		Openings: positions(t, chess.StartFEN), Games: 2, TC: clock.TimeControl{Base: time.Second},
	})
	if err == nil || !strings.Contains(err.Error(), "engine 2") || a.closed() != 1 {
		t.Errorf("err %v, %d closed", err, a.closed())
	}
}

// A flag against a side whose opponent has a pawn loses (FIDE 6.9): the
// result, the termination, the words and the incident, from the first
// engine's view (the PGN of such a game: cmd/squall's TestMatchGamePGN).
func TestForfeitOnTime(t *testing.T) {
	played := enginetest.GameFrom(t, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 7 40", "Kd7", "e4", "Kc6")
	p, err := played.Position()
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{Number: 3, White: 1, Start: played.Start, Moves: played.Moves}
	g.forfeit(p, chess.White, referee.TimeForfeit, `Big "Q"`, "used 2s with 1s on the clock {sic}")
	if g.Result != "0-1" || g.Termination != referee.TimeForfeit ||
		g.Detail != `White (Big "Q") loses by time forfeit: used 2s with 1s on the clock {sic}` {
		t.Errorf("%s %q: %q", g.Result, g.Termination, g.Detail)
	}
	// Player 1 had White and lost: the first engine scores the win.
	if g.Points() != 2 || g.Incident.Player != 1 {
		t.Errorf("points %d, incident %+v", g.Points(), g.Incident)
	}
}

// TestAdjudicationDetailPlural: the detail of a game adjudicated after one
// ply says "1 ply" (it said "1 plies"), and "2 plies" after two.
func TestAdjudicationDetailPlural(t *testing.T) {
	for plies, want := range map[int]string{1: "draw adjudicated after 1 ply", 2: "draw adjudicated after 2 plies"} {
		rep, err := Run(context.Background(), Config{
			Players:  [2]Player{{Name: "A", New: fake("First", nil).New}, {Name: "B", New: fake("First", nil).New}},
			Openings: positions(t, chess.StartFEN), Games: 2, TC: clock.TimeControl{Base: time.Minute}, MaxPlies: plies,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rep.Games {
			if g.Detail != want {
				t.Errorf("MaxPlies %d: detail %q, want %q", plies, g.Detail, want)
			}
		}
	}
}

// TestLoneKnightIsDrawn (issue 34, R1): a king and a knight against a bare
// king cannot mate by any series of legal moves, so the game is drawn the
// moment the position arises (dead position), before any flag can fall —
// in a match as on the board and the server.
func TestLoneKnightIsDrawn(t *testing.T) {
	capture := func(e *enginetest.Engine) { e.Best = captureFirst }
	rep, err := Run(context.Background(), Config{
		Players:  [2]Player{fake("Quick", capture).player(), fake("Quick", capture).player()},
		Openings: positions(t, "4k3/8/8/8/8/8/3p4/4K1N1 w - - 0 1"), Games: 1,
		TC: clock.TimeControl{Base: time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Games[0]
	if g.Result != "1/2-1/2" || g.Termination != referee.InsufficientMaterial || len(g.Moves) != 1 || g.Incident != nil {
		t.Errorf("king and knight against a king: %v %s after %d plies, incident %+v", g.Termination, g.Result, len(g.Moves), g.Incident)
	}
}

// TestFlagAgainstBareKing (issue 34, R1): an engine overruns its clock
// while its opponent has a bare king, which cannot mate by any series of
// legal moves: a draw (FIDE 6.9), as on the board and the server. The
// overrun is still an incident.
func TestFlagAgainstBareKing(t *testing.T) {
	rep, err := Run(context.Background(), Config{
		Players:  [2]Player{fake("Hung", func(e *enginetest.Engine) { e.Tick = time.Hour }).player(), fake("Quick", nil).player()},
		Openings: positions(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), Games: 1,
		TC: clock.TimeControl{Base: 200 * time.Millisecond}, Margin: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Games[0]
	if g.White != 0 || g.Result != "1/2-1/2" || g.Termination != referee.TimeForfeit || g.Points() != 1 || g.Incident == nil || g.Incident.Player != 0 {
		t.Errorf("flag against a bare king: white %d, %v %s, points %d, incident %+v", g.White, g.Termination, g.Result, g.Points(), g.Incident)
	}
}
