package tune

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/eval"
)

// greedy is a test double for the searcher: it plays the move whose
// resulting position evaluates best after one ply, with a little noise so
// games differ.
type greedy struct {
	e   *eval.Evaluator
	rng *rand.Rand
}

func (g *greedy) Name() string                   { return "greedy" }
func (g *greedy) Options() []engine.Option       { return nil }
func (g *greedy) SetOption(string, string) error { return nil }
func (g *greedy) NewGame() error                 { return nil }
func (g *greedy) PonderHit()                     {}
func (g *greedy) Close() error                   { return nil }
func (g *greedy) Search(ctx context.Context, game engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	p, err := game.Position()
	if err != nil {
		return engine.Result{}, err
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	best, bestV := chess.NullMove, math.MinInt
	for _, m := range ml.Slice() {
		var u chess.Undo
		p.MakeMove(m, &u)
		v := -g.e.Evaluate(p) + g.rng.Intn(30)
		p.UnmakeMove(m, &u)
		if v > bestV {
			best, bestV = m, v
		}
	}
	return engine.Result{BestMove: best, Last: engine.Info{Score: engine.Score{CP: bestV}}}, nil
}

func openings(t testing.TB) []*chess.Position {
	var ps []*chess.Position
	for _, f := range []string{chess.StartFEN, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"} {
		p, err := chess.ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestDatagenWritesLoadableResumableData(t *testing.T) {
	var out bytes.Buffer
	n := 0
	d := &Datagen{Openings: openings(t), Games: 4, Nodes: 1, Threads: 2, RandomPlies: 4, MaxPlies: 120, Seed: 1,
		Progress: func(g, p int) { n = g }}
	newEngine := func() (engine.Analyzer, error) {
		return &greedy{e: eval.New(), rng: rand.New(rand.NewSource(2))}, nil
	}
	if err := d.Run(context.Background(), newEngine, &out); err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Fatalf("progress reported %d games, want 4", n)
	}
	done, err := ReadDone(bytes.NewReader(out.Bytes()))
	if err != nil || len(done) != 4 {
		t.Fatalf("done = %v, %v; want 4 games", done, err)
	}
	ds, err := Load(bytes.NewReader(out.Bytes()), "datagen")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Samples) < 20 {
		t.Fatalf("only %d positions from 4 games", len(ds.Samples))
	}
	// Resuming with every game done plays nothing more.
	var more bytes.Buffer
	d.Done, d.Games = done, 4
	if err := d.Run(context.Background(), newEngine, &more); err != nil || more.Len() != 0 {
		t.Fatalf("resume wrote %d bytes (%v), want nothing", more.Len(), err)
	}
}

func TestLoadReportsBadLines(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"8/8/8/8/8/8/8/K6k w - - c9 \"2-0\";\n", "f:1: result"},
		{"# comment\nxx w - - c9 \"1-0\";\n", "f:2:"},
		{"8/8/8/8/8/8/8/K6k w - - bm Ka2;\n", "f:1: no c9"},
		{"8/8/8/8/8/8/8/K6k w -\n", "f:1: want 4"},
	} {
		_, err := Load(strings.NewReader(c.in), "f")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// randomPositions walks random games from the openings for test data.
func randomPositions(t testing.TB, n int, rng *rand.Rand) []*chess.Position {
	var ps []*chess.Position
	for len(ps) < n {
		p := openings(t)[rng.Intn(2)]
		var ml chess.MoveList
		for ply := 0; ply < 80 && len(ps) < n; ply++ {
			ml.N = 0
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			var u chess.Undo
			p.MakeMove(ml.Moves[rng.Intn(ml.N)], &u)
			if ply > 6 && !p.InCheck() {
				ps = append(ps, p.Clone())
			}
		}
	}
	return ps
}

// teacherData labels random positions with results drawn from a win
// probability of a "teacher" evaluation whose weights differ from the seed,
// so the tuner has something real to find.
func teacherData(t *testing.T, n int) (*Dataset, eval.Weights) {
	rng := rand.New(rand.NewSource(3))
	teacher := eval.SeedWeights()
	teacher[eval.WMaterial+int(chess.Knight)] = eval.S(520, 500) // knights worth much more
	teacher[eval.WMobility+23+14] = eval.S(60, 90)               // mobile rooks
	te := eval.NewWithWeights(&teacher)
	var b strings.Builder
	for _, p := range randomPositions(t, n, rng) {
		v := te.Evaluate(p)
		if p.SideToMove() == chess.Black {
			v = -v
		}
		res := "0-1"
		if u := rng.Float64(); u < sigmoid(1.2, float64(v)) {
			res = "1-0"
		}
		fmt.Fprintf(&b, "%s c9 \"%s\";\n", epdFields(p.FEN()), res)
	}
	ds, err := Load(strings.NewReader(b.String()), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	return ds, teacher
}

func TestLinearMatchesEvaluate(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	seed := eval.SeedWeights()
	e := eval.NewWithWeights(&seed)
	p := FromWeights(&seed)
	checked := 0
	for _, pos := range randomPositions(t, 300, rng) {
		ds, err := Load(strings.NewReader(epdFields(pos.FEN())+` c9 "1-0";`), "one")
		if err != nil {
			t.Fatal(err)
		}
		if len(ds.Samples) == 0 {
			continue // decided by endgame knowledge
		}
		v := e.Evaluate(pos)
		if pos.SideToMove() == chess.Black {
			v = -v
		}
		// The engine rounds once, the tuner not at all.
		if lin := ds.linear(&ds.Samples[0], p); math.Abs(lin-float64(v)) > 1 {
			t.Fatalf("%s: tuner's linear eval %.2f, engine %d", pos.FEN(), lin, v)
		}
		checked++
	}
	if checked < 250 {
		t.Fatalf("only %d positions checked", checked)
	}
}

func TestGradientMatchesFiniteDifference(t *testing.T) {
	ds, _ := teacherData(t, 400)
	seed := eval.SeedWeights()
	p := FromWeights(&seed)
	g := ds.gradient(ds.Samples, p, 1.1)
	for _, i := range []int{2 * (eval.WMaterial + 2), 2*(eval.WMaterial+4) + 1, 2 * (eval.WMobility + 3), 2*eval.WTempo + 0} {
		const h = 0.5
		p[i] += h
		up := ds.MSE(ds.Samples, p, 1.1)
		p[i] -= 2 * h
		down := ds.MSE(ds.Samples, p, 1.1)
		p[i] += h
		fd := (up - down) / (2 * h)
		if math.Abs(fd-g[i]) > 1e-3*math.Abs(fd)+1e-9 {
			t.Errorf("param %d (%s): gradient %g, finite difference %g", i, eval.WeightName(i/2), g[i], fd)
		}
	}
}

func TestTuningReducesValidationError(t *testing.T) {
	ds, teacher := teacherData(t, 30000)
	seed := eval.SeedWeights()
	p := FromWeights(&seed)
	r := ds.Tune(p, Options{Epochs: 60, Rate: 0.5})
	if !(r.ValidAfter < r.ValidBefore) || !(r.TrainAfter < r.TrainBefore) {
		t.Fatalf("error did not fall: %+v", r)
	}
	w := p.Weights()
	n := eval.WMaterial + int(chess.Knight)
	// The knight moved from the seed towards the teacher's value.
	if w[n].MG() <= seed[n].MG() || teacher[n].MG() <= seed[n].MG() {
		t.Errorf("knight %d → %d, teacher %d", seed[n].MG(), w[n].MG(), teacher[n].MG())
	}
	t.Logf("%+v", r)
}

func TestGoSourceRoundTrip(t *testing.T) {
	w := eval.SeedWeights()
	src, err := GoSource(&w, []string{"test"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	if !strings.HasPrefix(s, "// Code generated by squall tune; DO NOT EDIT.") || !strings.Contains(s, "// tempo") ||
		strings.Count(s, "\tS(") != eval.NumWeights {
		t.Errorf("generated source looks wrong:\n%.400s", s)
	}
}

// TestLoadOrdersGames: datagen's threads append games in whatever order
// they finish; Load puts them in game order, so the same games give the
// same fit, and holds whole games out for validation.
func TestLoadOrdersGames(t *testing.T) {
	games := []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1-0\";\n# game 0 1-0\n",
		"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - c9 \"0-1\";\nrnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - c9 \"0-1\";\n# game 1 0-1\n",
		"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - c9 \"1/2-1/2\";\n# game 9 1/2-1/2\n",
	}
	in := func(order ...int) *Dataset {
		var b strings.Builder
		for _, i := range order {
			b.WriteString(games[i])
		}
		ds, err := Load(strings.NewReader(b.String()), "f")
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	a, b := in(0, 1, 2), in(2, 0, 1)
	if len(a.Samples) != 4 || len(b.Samples) != 4 {
		t.Fatalf("loaded %d and %d samples, want 4", len(a.Samples), len(b.Samples))
	}
	for i := range a.Samples {
		sa, sb := a.Samples[i], b.Samples[i]
		if sa.Game != sb.Game || sa.Result != sb.Result || sa.N != sb.N ||
			!slices.Equal(a.Index[sa.Start:sa.Start+int32(sa.N)], b.Index[sb.Start:sb.Start+int32(sb.N)]) {
			t.Fatalf("sample %d differs by file order: %+v vs %+v", i, sa, sb)
		}
	}
	train, valid := b.Split()
	if len(valid) != 1 || valid[0].Game != 9 || len(train) != 3 {
		t.Fatalf("split %d/%d (valid %+v), want game 9 alone held out", len(train), len(valid), valid)
	}
}

// TestLoadReadsSearchScores: ce is from the side to move's view in EPD;
// the sample keeps it from White's, clamped, and NoCE when absent.
func TestLoadReadsSearchScores(t *testing.T) {
	in := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce -40; c9 \"1-0\";\n" +
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - ce 9000; c9 \"1-0\";\n" +
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - c9 \"1-0\";\n"
	ds, err := Load(strings.NewReader(in), "f")
	if err != nil {
		t.Fatal(err)
	}
	var got []int16
	for _, s := range ds.Samples {
		got = append(got, s.CE)
	}
	if want := []int16{40, 3000, NoCE}; !slices.Equal(got, want) {
		t.Fatalf("CE = %v, want %v", got, want)
	}
	if _, err := Load(strings.NewReader("8/8/8/8/8/8/8/K6k w - - ce x; c9 \"1-0\";\n"), "f"); err == nil || !strings.Contains(err.Error(), "f:1: ce") {
		t.Fatalf("bad ce: err %v", err)
	}
}
