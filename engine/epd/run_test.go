package epd

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// step is one report of a scripted search: its PV's first move in SAN,
// the depth, the engine's clock and the score in centipawns.
type step struct {
	san   string
	depth int
	at    time.Duration
	cp    int
}

const fakeSuite = `2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";
8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";
4k3/8/8/8/8/8/4P3/4K3 w - - am Kd1; id "am.1";
3k4/8/8/8/8/8/4P3/4K3 w - - bm e4; c0 "e4=10, e3=4, Kd2=1"; id "sts.1";
`

// fakeScripts is how the fake engine searches each record of fakeSuite,
// by id.
var fakeScripts = map[string][]step{
	// found at depth 2, lost at 3, found again at 4 and kept: solve
	// time is depth 4's.
	"WAC.001": {{"Qh4", 1, 10 * time.Millisecond, 20}, {"Qg6", 2, 20 * time.Millisecond, 300},
		{"Qh4", 3, 30 * time.Millisecond, 50}, {"Qg6", 4, 40 * time.Millisecond, 900}, {"Qg6", 5, 80 * time.Millisecond, 950}},
	"WAC.002": {{"Rxb2", 1, 5 * time.Millisecond, 100}, {"Kg6", 2, 9 * time.Millisecond, -20}},
	"am.1":    {{"Kd1", 1, time.Millisecond, 0}, {"e4", 2, 2 * time.Millisecond, 10}},
	"sts.1":   {{"e3", 1, time.Millisecond, 10}},
}

// newFake reads fakeSuite and returns its records with an engine that
// searches each of them by scripts[id]: one report a step, the last of
// which is its best move.
func newFake(t *testing.T, scripts map[string][]step) (*enginetest.Engine, []*Record) {
	t.Helper()
	recs, errs := Read(strings.NewReader(fakeSuite))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	byFEN := map[string][]engine.Info{}
	for _, r := range recs {
		p := r.Position
		for _, s := range scripts[r.ID()] {
			m, err := p.ParseSAN(s.san)
			if err != nil {
				t.Fatalf("%s: %v", r.ID(), err)
			}
			byFEN[p.FEN()] = append(byFEN[p.FEN()], engine.Info{Depth: s.depth, Time: s.at,
				Score: engine.Score{CP: s.cp}, PV: []chess.Move{m}, Nodes: uint64(s.depth) * 1000})
		}
	}
	script := func(g engine.Game) []engine.Info { return byFEN[g.Start.FEN()] }
	return &enginetest.Engine{ID: "fake", Script: script}, recs
}

func TestRunSolveTimes(t *testing.T) {
	f, recs := newFake(t, fakeScripts)
	var seen []string
	out := Run(context.Background(), f, recs, engine.Limits{Depth: 5}, func(o Outcome) { seen = append(seen, o.ID) })
	if len(out) != 4 || strings.Join(seen, ",") != "WAC.001,WAC.002,am.1,sts.1" {
		t.Fatalf("outcomes %d, callbacks %v", len(out), seen)
	}
	if lim := f.Limits(); len(lim) != 4 || lim[0].Depth != 5 {
		t.Errorf("limits not passed: %+v", lim)
	}
	if f.NewGames() != 4 || f.Misuse() != nil {
		t.Errorf("%d new games for 4 positions, misuse %v", f.NewGames(), f.Misuse())
	}
	w1 := out[0]
	if !w1.Solved || w1.Move != "Qg6" || time.Duration(w1.SolveTime) != 40*time.Millisecond || w1.SolveDepth != 4 ||
		w1.Depth != 5 || w1.Score != "+9.50" || w1.Expected[0] != "Qg6" {
		t.Errorf("WAC.001: %+v", w1)
	}
	if w2 := out[1]; w2.Solved || w2.Move != "Kg6" || w2.Expected[0] != "Rxb2" {
		t.Errorf("WAC.002 should fail with Kg6: %+v", w2)
	}
	if a := out[2]; !a.Solved || time.Duration(a.SolveTime) != 2*time.Millisecond || a.Avoid[0] != "Kd1" {
		t.Errorf("am.1: %+v", a)
	}
	if s := out[3]; s.Solved || s.Points != 4 || s.MaxPoints != 10 {
		t.Errorf("sts.1: %+v", s)
	}
	sum := Summarize(out)
	if sum != (Summary{Solved: 2, Total: 4, Points: 4, MaxPoints: 10}) {
		t.Errorf("summary %+v", sum)
	}
}

func TestRunCancelled(t *testing.T) {
	f, recs := newFake(t, fakeScripts)
	ctx, cancel := context.WithCancel(context.Background())
	out := Run(ctx, f, recs, engine.Limits{}, func(Outcome) { cancel() })
	if len(out) != 1 {
		t.Errorf("after cancel: %d outcomes, want 1", len(out))
	}
}

func TestResultsSaveCompare(t *testing.T) {
	f, recs := newFake(t, fakeScripts)
	out := Run(context.Background(), f, recs, engine.Limits{Depth: 5}, nil)
	dir := t.TempDir()
	res := &Results{Suite: "fake", Engine: "fake", Limits: "depth 5", Outcomes: out, Solved: 2, Total: 4}
	jp := filepath.Join(dir, "r.json")
	if err := res.Save(jp); err != nil {
		t.Fatal(err)
	}
	back, err := LoadResults(jp)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Outcomes) != 4 || time.Duration(back.Outcomes[0].SolveTime) != 40*time.Millisecond || back.Outcomes[0].Move != "Qg6" {
		t.Errorf("JSON round trip: %+v", back.Outcomes[0])
	}
	cp := filepath.Join(dir, "r.csv")
	if err := res.Save(cp); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cp)
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 5 || !strings.HasPrefix(lines[1], "1,WAC.001,") {
		t.Errorf("CSV:\n%s", data)
	}
	if err := res.Save(filepath.Join(dir, "r.txt")); err == nil {
		t.Error("saving to .txt should fail")
	}
	// A later run solves WAC.002 and loses WAC.001.
	later := maps.Clone(fakeScripts)
	later["WAC.002"] = []step{{"Rxb2", 3, time.Millisecond, 100}}
	later["WAC.001"] = []step{{"Qh4", 3, time.Millisecond, 100}}
	f, _ = newFake(t, later)
	now := Run(context.Background(), f, recs, engine.Limits{Depth: 5}, nil)
	solved, failed := Compare(back.Outcomes, now)
	if len(solved) != 1 || solved[0].Key != "WAC.002" || len(failed) != 1 || failed[0].Key != "WAC.001" {
		t.Errorf("compare: solved %v failed %v", solved, failed)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("temp files left behind: %v", ents)
	}
}

// A "bm #N" record is solved by the score, whatever the move: the tracker
// follows the mate as it appears and the outcome shows "#N" as expected.
func TestTrackerMate(t *testing.T) {
	r, err := ParseLine(`7n/BBP2P1P/8/P1PpK3/P5RR/5k2/Pn2NPN1/3Q2b1 w - d6 bm #1; id "m1"`)
	if err != nil {
		t.Fatal(err)
	}
	var ml chess.MoveList
	r.Position.GenerateLegal(&ml)
	m := ml.Moves[0]
	tr := NewTracker(r)
	if tr.Observe(engine.Info{Depth: 1, Time: time.Millisecond, Score: engine.Score{CP: 50}, PV: []chess.Move{m}}) {
		t.Error("a centipawn score solved a mate record")
	}
	last := engine.Info{Depth: 2, Time: 2 * time.Millisecond, Score: engine.Score{Mate: 1}, PV: []chess.Move{m}}
	if !tr.Observe(last) {
		t.Error("mate in 1 did not solve bm #1")
	}
	o := tr.Finish(0, engine.Result{BestMove: m, Last: last}, nil)
	if !o.Solved || o.SolveDepth != 2 || strings.Join(o.Expected, " ") != "#1" || o.Score != "#1" {
		t.Errorf("outcome %+v", o)
	}
	o = NewTracker(r).Finish(0, engine.Result{BestMove: m, Last: engine.Info{Depth: 9, Score: engine.Score{Mate: 3}, PV: []chess.Move{m}}}, nil)
	if o.Solved {
		t.Error("mate in 3 solved bm #1")
	}
}
