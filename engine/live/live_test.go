package live

import (
	"errors"
	"math/rand"
	"runtime"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// patience bounds every wait for something that must happen (a search
// ending after it was stopped): generous, since a loaded machine is slow,
// and never reached when the code is right.
const patience = 15 * time.Second

// game is the start position and the first n moves of a fixed line, so that
// each job's reports can be told apart by the game they are about.
func game(t testing.TB, n int) engine.Game {
	t.Helper()
	line := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"}
	return enginetest.Game(t, line[:n]...)
}

// readAll reads a search to its end within patience.
func readAll(t testing.TB, s *Search, frame time.Duration) (infos []engine.Info, end Batch) {
	t.Helper()
	deadline := time.After(patience)
	for {
		got := make(chan Batch, 1)
		go func() { got <- s.Next(frame) }()
		select {
		case b := <-got:
			if b.Gen != s.Gen {
				t.Fatalf("batch of generation %d from search %d", b.Gen, s.Gen)
			}
			infos = append(infos, b.Infos...)
			if b.Done {
				return infos, b
			}
		case <-deadline:
			t.Fatalf("search %d did not end within %v", s.Gen, patience)
		}
	}
}

func TestSearchReportsAndResult(t *testing.T) {
	e := &enginetest.Engine{}
	r := New(e)
	defer r.Close()
	s := r.Start(Job{Game: game(t, 2), Limits: engine.Limits{Depth: 4, MultiPV: 2}})
	infos, end := readAll(t, s, 0)
	if len(infos) != 8 {
		t.Errorf("%d reports, want 4 depths × 2 lines", len(infos))
	}
	if end.Err != nil || end.Result.BestMove == chess.NullMove || end.Result.Last.Depth != 4 {
		t.Errorf("end %+v", end)
	}
	// After the end, Next keeps answering Done at once.
	if b := s.Next(time.Hour); !b.Done || len(b.Infos) != 0 {
		t.Errorf("Next after the end: %+v", b)
	}
}

// TestFrameBatches: a search that has ended hands over everything it
// reported in one batch, whatever the frame.
func TestFrameBatches(t *testing.T) {
	e := &enginetest.Engine{}
	r := New(e)
	defer r.Close()
	s := r.Start(Job{Game: game(t, 0), Limits: engine.Limits{Depth: 6}})
	<-s.Done()
	b := s.Next(time.Hour)
	if !b.Done || len(b.Infos) != 6 {
		t.Errorf("one batch of %d reports (done %v), want all 6 and the end", len(b.Infos), b.Done)
	}
}

// TestPVOwnership: the reports of an engine that reuses its PV slice keep
// their PVs.
func TestPVOwnership(t *testing.T) {
	r := New(&enginetest.Engine{ReusePV: true})
	defer r.Close()
	infos, _ := readAll(t, r.Start(Job{Game: game(t, 0), Limits: engine.Limits{Depth: 3}}), 0)
	for _, in := range infos {
		if len(in.PV) == 0 || in.PV[0] == chess.NullMove {
			t.Fatalf("report at depth %d lost its PV: %v", in.Depth, in.PV)
		}
	}
}

// TestStartReplaces: a new search cancels the running infinite one and
// starts only after it has returned; Setup runs then too.
func TestStartReplaces(t *testing.T) {
	e := &enginetest.Engine{Tick: time.Millisecond, WaitForStop: true}
	r := New(e)
	defer r.Close()
	first := r.Start(Job{Game: game(t, 0), Limits: engine.Limits{Infinite: true}})
	first.Next(0) // it runs
	setupActive := -1
	second := r.Start(Job{Game: game(t, 1), Limits: engine.Limits{Depth: 2}, Setup: func(a engine.Analyzer) error {
		setupActive = e.Active()
		return a.NewGame()
	}})
	_, end1 := readAll(t, first, 0)
	if !end1.Done {
		t.Fatal("first search did not end")
	}
	_, end2 := readAll(t, second, 0)
	if end2.Err != nil || end2.Result.Last.Depth != 2 {
		t.Errorf("second search: %+v", end2)
	}
	if setupActive != 0 {
		t.Errorf("Setup ran with %d searches active, want 0", setupActive)
	}
	if err := e.Misuse(); err != nil {
		t.Error(err)
	}
	if second.Gen != first.Gen+1 || r.Gen() != second.Gen {
		t.Errorf("generations %d, %d, runner %d", first.Gen, second.Gen, r.Gen())
	}
}

// TestSearchStop: stopping a search that has been replaced leaves the
// newer one running; stopping the current one ends it.
func TestSearchStop(t *testing.T) {
	e := &enginetest.Engine{Tick: time.Millisecond, WaitForStop: true}
	r := New(e)
	defer r.Close()
	old := r.Start(Job{Game: game(t, 0), Limits: engine.Limits{Infinite: true}})
	cur := r.Start(Job{Game: game(t, 1), Limits: engine.Limits{Infinite: true}})
	readAll(t, old, 0)
	cur.Next(0) // the newer search runs
	old.Stop()
	select {
	case <-cur.Done():
		t.Fatal("stopping a replaced search ended the newer one")
	case <-time.After(20 * time.Millisecond):
	}
	cur.Stop()
	if _, end := readAll(t, cur, 0); !end.Done {
		t.Error("the current search did not end on its Stop")
	}
}

func TestSetupError(t *testing.T) {
	e := &enginetest.Engine{}
	r := New(e)
	defer r.Close()
	bad := errors.New("no such option")
	_, end := readAll(t, r.Start(Job{Game: game(t, 0), Setup: func(engine.Analyzer) error { return bad }}), 0)
	if !errors.Is(end.Err, bad) || e.Searches() != 0 {
		t.Errorf("end %v after %d searches, want the setup error and no search", end.Err, e.Searches())
	}
}

func TestClose(t *testing.T) {
	e := &enginetest.Engine{Tick: time.Millisecond, WaitForStop: true}
	r := New(e)
	s := r.Start(Job{Game: game(t, 0), Limits: engine.Limits{Infinite: true}})
	s.Next(0)
	r.Close() // returns only once the search has
	if e.Active() != 0 {
		t.Errorf("%d searches still active after Close", e.Active())
	}
	_, end := readAll(t, r.Start(Job{Game: game(t, 0)}), 0)
	if !errors.Is(end.Err, ErrClosed) {
		t.Errorf("search after Close ended with %v", end.Err)
	}
}

// TestNewWithoutAnalyzer: no engine, no Runner. The board and the rooms
// keep a nil Runner when they have no engine (they wrote this check each).
func TestNewWithoutAnalyzer(t *testing.T) {
	if r := New(nil); r != nil {
		t.Errorf("New(nil) = %v, want nil", r)
	}
}

// TestRandomStartStop starts and stops searches 1,000 times with random
// timing, reading each as a screen does, and checks that every report
// belongs to the search it came from (the game it is about is encoded in its
// score), that searches never overlap, and that no goroutine is left.
func TestRandomStartStop(t *testing.T) {
	base := runtime.NumGoroutine()
	e := &enginetest.Engine{
		Tick: 50 * time.Microsecond, WaitForStop: true,
		Score: func(g engine.Game, depth, k int) engine.Score {
			return engine.Score{CP: 1000*len(g.Moves) + depth}
		},
	}
	r := New(e)
	rng := rand.New(rand.NewSource(1))
	games := make([]engine.Game, 8)
	for i := range games {
		games[i] = game(t, i)
	}
	var cur *Search
	moves := map[*Search]int{} // the game each search is about
	reports := 0
	check := func(s *Search, infos []engine.Info) {
		t.Helper()
		for _, in := range infos {
			reports++
			if got := int(in.Score.CP / 1000); got != moves[s] {
				t.Fatalf("search %d (a game of %d moves) delivered a report about a game of %d moves", s.Gen, moves[s], got)
			}
		}
	}
	for i := 0; i < 1000; i++ {
		if rng.Intn(4) == 0 {
			r.Stop()
		} else {
			lim := engine.Limits{Infinite: true}
			if rng.Intn(3) == 0 {
				lim = engine.Limits{Depth: 1 + rng.Intn(4)}
			}
			n := rng.Intn(len(games))
			prev := cur
			cur = r.Start(Job{Game: games[n], Limits: lim})
			moves[cur] = n
			if prev != nil {
				// The replaced search still ends, and all it delivers
				// is its own.
				infos, _ := readAll(t, prev, 0)
				check(prev, infos)
				delete(moves, prev)
			}
		}
		// A screen reads a few batches of the current search.
		for k := rng.Intn(3); k > 0 && cur != nil; k-- {
			if b, ok := cur.Poll(); ok {
				check(cur, b.Infos)
			} else {
				time.Sleep(time.Duration(rng.Intn(200)) * time.Microsecond)
			}
		}
	}
	if cur != nil {
		r.Stop()
		infos, _ := readAll(t, cur, 0)
		check(cur, infos)
	}
	r.Close()
	if err := e.Misuse(); err != nil {
		t.Error(err)
	}
	if reports == 0 {
		t.Error("no report was ever read: the test tested nothing")
	}
	deadline := time.Now().Add(patience)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines after Close, %d before", n, base)
	}
	t.Logf("%d searches, %d reports read", e.Searches(), reports)
}

// TestNewAfter: a Runner that replaces another numbers its searches after
// the other's, so a late batch of the old engine never carries a
// generation of the new one's.
func TestNewAfter(t *testing.T) {
	old := New(&enginetest.Engine{})
	defer old.Close()
	for range 3 {
		old.Start(Job{Game: game(t, 0)}).Next(0)
	}
	r := NewAfter(&enginetest.Engine{}, old)
	defer r.Close()
	if s := r.Start(Job{Game: game(t, 0)}); s.Gen != 4 {
		t.Fatalf("first search of the new Runner: generation %d; want 4, after the old one's 3", s.Gen)
	}
	if NewAfter(nil, old) != nil {
		t.Fatal("NewAfter(nil) is a Runner; want nil, as New")
	}
}
