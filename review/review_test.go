package review

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/pgn"
)

// scripted is an engine that answers from a script: the score (from the
// side to move's view) and best move (SAN; the first legal move where
// best has none) for the position after n moves, at depth 7.
func scripted(scores map[int]engine.Score, best map[int]string) *enginetest.Engine {
	return &enginetest.Engine{MaxDepth: 7, Score: enginetest.ScoresByPly(scores), Best: enginetest.MovesByPly(best)}
}

// cpFor is the centipawn score whose winning chances are w: the inverse of
// WinningChances, so that tests can sit just either side of a threshold.
func cpFor(w float64) int {
	return int(math.Round(math.Log((1+w)/(1-w)) / 0.00368208))
}

func TestWinningChances(t *testing.T) {
	if WinningChances(0) != 0 || WinPercent(0) != 50 {
		t.Errorf("0 cp: chances %v, win%% %v", WinningChances(0), WinPercent(0))
	}
	if got := WinningChances(100); math.Abs(got-0.18205) > 1e-4 {
		t.Errorf("WinningChances(100) = %v, want 0.18205", got)
	}
	if WinningChances(5000) != WinningChances(Ceiling) || WinningChances(-5000) != WinningChances(-Ceiling) {
		t.Error("scores beyond the ceiling are not clamped")
	}
	for _, w := range []float64{-0.5, 0.1, 0.3} {
		if got := WinningChances(cpFor(w)); math.Abs(got-w) > 0.002 {
			t.Errorf("cpFor(%v) = %d has chances %v", w, cpFor(w), got)
		}
	}
}

func TestMoveAccuracy(t *testing.T) {
	if MoveAccuracy(50, 50) != 100 || MoveAccuracy(40, 60) != 100 {
		t.Error("a move that keeps or raises the win% is not 100")
	}
	// 103.1668·e^(−0.04354·20) − 3.1669 + 1 ≈ 41.02
	if got := MoveAccuracy(60, 40); math.Abs(got-41.02) > 0.01 {
		t.Errorf("MoveAccuracy(60, 40) = %.3f, want 41.02", got)
	}
	if MoveAccuracy(100, 0) != 0 {
		t.Errorf("losing everything: %v, want 0", MoveAccuracy(100, 0))
	}
	prev := 100.0
	for drop := 1.0; drop <= 50; drop++ {
		a := MoveAccuracy(70, 70-drop)
		if a > prev {
			t.Fatalf("accuracy rises with the drop at %v", drop)
		}
		prev = a
	}
}

// TestThresholds judges one move between scripted evaluations: just under
// and just over each threshold, for either mover, and lichess's mate rules;
// Judge, the verdict on a move not played, agrees.
func TestThresholds(t *testing.T) {
	cp := func(n int) Eval { return Eval{CP: n} }
	mate := func(n int) Eval { return Eval{Mate: n} }
	cases := []struct {
		name          string
		black         bool // Black makes the move
		before, after Eval // White's view
		want          Judgment
	}{
		{"no change", false, cp(30), cp(30), Good},
		{"under inaccuracy", false, cp(0), cp(cpFor(-0.098)), Good},
		{"inaccuracy", false, cp(0), cp(cpFor(-0.102)), Inaccuracy},
		{"under mistake", false, cp(0), cp(cpFor(-0.198)), Inaccuracy},
		{"mistake", false, cp(0), cp(cpFor(-0.202)), Mistake},
		{"under blunder", false, cp(0), cp(cpFor(-0.298)), Mistake},
		{"blunder", false, cp(0), cp(cpFor(-0.302)), Blunder},
		{"black inaccuracy", true, cp(0), cp(cpFor(0.102)), Inaccuracy},
		{"black blunder", true, cp(-200), cp(cpFor(WinningChances(-200) + 0.31)), Blunder},
		{"black gains", true, cp(0), cp(-300), Good},
		{"white gains", false, cp(0), cp(300), Good},
		// Beyond the ceiling nothing changes: +20 and +10 are both won.
		{"still winning", false, cp(2000), cp(1000), Good},
		{"mate created", false, cp(50), mate(-3), Blunder},
		{"mate created when lost", false, cp(-800), mate(-3), Mistake},
		{"mate created when hopeless", false, cp(-1200), mate(-3), Inaccuracy},
		{"mate lost, still crushing", false, mate(3), cp(1200), Inaccuracy},
		{"mate lost, winning", false, mate(3), cp(800), Mistake},
		{"mate lost", false, mate(3), cp(100), Blunder},
		{"mate turned around", false, mate(3), mate(-2), Blunder},
		{"mate delayed", false, mate(3), mate(5), Good},
		{"mate faster", false, mate(3), mate(2), Good},
		{"still being mated", false, mate(-3), mate(-1), Good},
		{"black mate lost", true, mate(-2), cp(-100), Blunder},
		{"checkmate given", false, mate(1), Eval{CP: Ceiling, Over: true}, Good},
		{"stalemate from a win", false, mate(2), Eval{Over: true}, Blunder},
		{"stalemate from a loss", false, cp(-900), Eval{Over: true}, Good},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mv := Move{Color: chess.White, Before: c.before, After: c.after}
			if c.black {
				mv.Color = chess.Black
			}
			judge(&mv)
			if mv.Judgment != c.want {
				t.Errorf("%v → %v: %v (win%% %.1f → %.1f), want %v", c.before, c.after, mv.Judgment, mv.WinBefore, mv.WinAfter, c.want)
			}
			if j := Judge(mv.Color, c.before, c.after); j != c.want {
				t.Errorf("Judge(%v, %v, %v) = %v, want %v", mv.Color, c.before, c.after, j, c.want)
			}
			if mv.CPLoss < 0 || mv.Accuracy < 0 || mv.Accuracy > 100 {
				t.Errorf("cp loss %d, accuracy %v", mv.CPLoss, mv.Accuracy)
			}
		})
	}
}

// fool is Fool's mate: 1. f3 e5 2. g4 Qh4#.
func fool(t *testing.T) (*chess.Position, []chess.Move) {
	g := enginetest.Game(t, "f3 e5 g4 Qh4#")
	return g.Start, g.Moves
}

// TestAnalyzeFoolsMate runs the whole review with a scripted engine: scores
// arrive from the side to move's view and are turned to White's; 2. g4 is
// judged a blunder with the engine's better line; the mate ends without a
// search.
func TestAnalyzeFoolsMate(t *testing.T) {
	start, moves := fool(t)
	eng := scripted(map[int]engine.Score{
		0: {CP: 20},  // White to move
		1: {CP: 60},  // Black to move: +0.60 for Black after 1. f3
		2: {CP: -30}, // White to move: -0.30
		3: {Mate: 1}, // Black to move: mate in 1 for Black
	}, map[int]string{0: "e4", 2: "Nc3"})
	var seen []int
	r, err := Analyze(context.Background(), eng, start, moves, engine.Limits{Nodes: 1000}, func(p Progress) {
		seen = append(seen, p.Done)
		if p.Total != 5 {
			t.Errorf("progress total %d, want 5", p.Total)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if eng.Searches() != 4 || eng.NewGames() != 1 || len(seen) != 5 {
		t.Errorf("%d searches, %d new games, progress %v; want 4, 1, 5 reports", eng.Searches(), eng.NewGames(), seen)
	}
	wantEval := []string{"+0.20", "-0.60", "-0.30", "#-1", "0-1"}
	for i, pe := range r.Positions {
		if pe.Eval.String() != wantEval[i] {
			t.Errorf("position %d eval %s, want %s", i, pe.Eval, wantEval[i])
		}
	}
	want := []Judgment{Inaccuracy, Good, Blunder, Good}
	for i, mv := range r.Moves {
		if mv.Judgment != want[i] {
			t.Errorf("%d. %s: %v, want %v", i+1, mv.SAN, mv.Judgment, want[i])
		}
	}
	if g4 := r.Moves[2]; g4.BestLine != "2. Nc3 Ke7" || g4.Reason == "" ||
		g4.Comment() != "Checkmate is now unavoidable. Best was 2. Nc3 Ke7." {
		t.Errorf("2. g4: best %q, comment %q", g4.BestLine, g4.Comment())
	}
	if f3 := r.Moves[0]; f3.Comment() != "Inaccuracy. Best was 1. e4 a6." {
		t.Errorf("1. f3 comment %q", f3.Comment())
	}
	w, b := r.Players[chess.White], r.Players[chess.Black]
	if w.Moves != 2 || w.Inaccuracies != 1 || w.Blunders != 1 || b.Moves != 2 || b.Mistakes+b.Blunders+b.Inaccuracies != 0 {
		t.Errorf("players %+v %+v", w, b)
	}
	// White lost 80 cp with f3 (+20 → -60) and 970 with g4 (-30 → mate,
	// ceiled at -1000); Black 30 with e5 and nothing with the mate.
	if w.ACPL != 525 || b.ACPL != 15 {
		t.Errorf("ACPL white %d black %d", w.ACPL, b.ACPL)
	}
	if b.Accuracy < 90 || w.Accuracy > 60 || w.Accuracy < 1 {
		t.Errorf("accuracy white %.1f black %.1f", w.Accuracy, b.Accuracy)
	}
	if r.NextMistake(-1) != 0 || r.NextMistake(0) != 2 || r.NextMistake(2) != -1 {
		t.Errorf("NextMistake: %d %d %d", r.NextMistake(-1), r.NextMistake(0), r.NextMistake(2))
	}
}

func TestAnalyzeCancelled(t *testing.T) {
	start, moves := fool(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Analyze(ctx, scripted(nil, nil), start, moves, engine.Limits{}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled review: %v", err)
	}
}

func TestBuildChecks(t *testing.T) {
	start, moves := fool(t)
	if _, err := Build(start, moves, make([]PositionEval, 3)); err == nil {
		t.Error("Build accepted too few evaluations")
	}
	bad := append([]chess.Move{moves[1]}, moves[1:]...)
	if _, err := Build(start, bad, make([]PositionEval, 5)); err == nil || !strings.Contains(err.Error(), "illegal") {
		t.Errorf("Build with an illegal move: %v", err)
	}
}

// TestAnnotate writes the review into a PGN game and reads it back: NAGs,
// comments and evals survive the round trip.
func TestAnnotate(t *testing.T) {
	var g *pgn.Game
	for gg, err := range pgn.Games(strings.NewReader("[White \"a\"]\n\n1. f3 e5 2. g4! {sharp} Qh4# 0-1\n")) {
		if err != nil {
			t.Fatal(err)
		}
		g = gg
	}
	start, moves, err := GameLine(g)
	if err != nil {
		t.Fatal(err)
	}
	eng := scripted(map[int]engine.Score{0: {CP: 20}, 1: {CP: 60}, 2: {CP: -30}, 3: {Mate: 1}}, nil)
	r, err := Analyze(context.Background(), eng, start, moves, engine.Limits{Nodes: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Annotate(g); err != nil {
		t.Fatal(err)
	}
	var back *pgn.Game
	for gg, err := range pgn.Games(strings.NewReader(g.String())) {
		if err != nil {
			t.Fatalf("re-reading %s: %v", g, err)
		}
		back = gg
	}
	line := back.Mainline()
	wantNAGs := [][]uint8{{6}, nil, {4}, nil}
	wantEval := []pgn.Eval{{Kind: pgn.Centipawns, Value: -60, Depth: 7}, {Kind: pgn.Centipawns, Value: -30, Depth: 7},
		{Kind: pgn.Mate, Value: -1, Depth: 7}, {}}
	for i, n := range line {
		if !slicesEqual(n.NAGs, wantNAGs[i]) {
			t.Errorf("%s NAGs %v, want %v (the ! of g4 replaced)", n.SAN, n.NAGs, wantNAGs[i])
		}
		var got pgn.Eval
		if n.Commands != nil {
			got = n.Commands.Eval
		}
		if got != wantEval[i] {
			t.Errorf("%s eval %+v, want %+v", n.SAN, got, wantEval[i])
		}
	}
	if c := strings.Join(line[2].After, " | "); c != "sharp | Checkmate is now unavoidable. Best was 2. Kf2 Ke7." {
		t.Errorf("g4 comments %q", c)
	}
	// A different game is refused.
	other := pgn.NewGame()
	if err := r.Annotate(other); err == nil {
		t.Error("Annotate accepted a game with another line")
	}
}

func slicesEqual(a, b []uint8) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTotalsInWords: moves are counted by their numbers (a line starting
// with Black's move too), counts take their plural only when not 1, and a
// side without a move has no ACPL or accuracy.
func TestTotalsInWords(t *testing.T) {
	if got := (Player{Moves: 3, Inaccuracies: 1, Mistakes: 2, Blunders: 1}).Counts(); got != "1 inaccuracy, 2 mistakes, 1 blunder" {
		t.Errorf("Counts: %q", got)
	}
	if p := (Player{}); p.ACPLText() != None || p.AccuracyText() != None {
		t.Errorf("no moves: ACPL %q, accuracy %q", p.ACPLText(), p.AccuracyText())
	}
	if p := (Player{Moves: 1, ACPL: 12, Accuracy: 86.6}); p.ACPLText() != "12" || p.AccuracyText() != "87%" {
		t.Errorf("one move: ACPL %q, accuracy %q", p.ACPLText(), p.AccuracyText())
	}
}
