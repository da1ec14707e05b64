package room

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// patience bounds every wait for something the room will do: generous,
// since a loaded machine is slow, and never reached when the code is right.
const patience = 15 * time.Second

// waitUntil waits up to patience for cond.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRoomMovesAndNavigation(t *testing.T) {
	r := NewRoom("t", nil)
	defer r.Close("test over")
	for _, mv := range []string{"e4", "e5", "Nf3"} {
		if err := r.MoveText(mv); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.MoveText("Ke3"); err == nil {
		t.Fatal("illegal move accepted")
	}
	s := r.Snapshot()
	if s.Ply != 3 || len(s.Moves) != 3 {
		t.Fatalf("ply %d, %d moves; want 3, 3", s.Ply, len(s.Moves))
	}
	if err := r.Step(-2); err != nil {
		t.Fatal(err)
	}
	// A move in the middle replaces the rest of the game.
	if err := r.MoveText("c5"); err != nil {
		t.Fatal(err)
	}
	s = r.Snapshot()
	if s.Ply != 2 || len(s.Moves) != 2 || s.Position.FEN() != "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2" {
		t.Fatalf("after c5: ply %d, %d moves, %s", s.Ply, len(s.Moves), s.Position.FEN())
	}
	if err := r.LoadFEN("8/8/8/8/8/8/8/8 w - - 0 1"); err == nil {
		t.Fatal("bad FEN accepted")
	}
}

// TestRoomFanOut: the engine runs once for the room, and two viewers get
// the same lines at nearly the same moment.
func TestRoomFanOut(t *testing.T) {
	fe := &enginetest.Engine{Tick: 10 * time.Millisecond}
	r := NewRoom("fan", fe)
	id1, c1 := r.Subscribe()
	id2, c2 := r.Subscribe()
	if err := r.StartAnalysis(); err != nil {
		t.Fatal(err)
	}
	type arrival struct {
		seq   uint64
		depth int
		at    time.Time
	}
	collect := func(ch <-chan *Snapshot, out chan<- []arrival) {
		var got []arrival
		deadline := time.After(2 * time.Second)
		for len(got) < 10 {
			select {
			case s, ok := <-ch:
				if !ok {
					out <- got
					return
				}
				if len(s.Lines) > 0 {
					got = append(got, arrival{s.Seq, s.Lines[0].Depth, time.Now()})
				}
			case <-deadline:
				out <- got
				return
			}
		}
		out <- got
	}
	o1, o2 := make(chan []arrival), make(chan []arrival)
	go collect(c1, o1)
	go collect(c2, o2)
	a1, a2 := <-o1, <-o2
	if len(a1) < 5 || len(a2) < 5 {
		t.Fatalf("viewers got %d and %d updates, want at least 5 each", len(a1), len(a2))
	}
	bySeq := map[uint64]time.Time{}
	for _, a := range a1 {
		bySeq[a.seq] = a.at
	}
	common := 0
	for _, a := range a2 {
		if at, ok := bySeq[a.seq]; ok {
			common++
			if d := a.at.Sub(at).Abs(); d > 250*time.Millisecond {
				t.Errorf("snapshot %d reached the viewers %v apart", a.seq, d)
			}
		}
	}
	if common == 0 {
		t.Error("the two viewers never saw the same snapshot")
	}
	if n := fe.Searches(); n != 1 {
		t.Errorf("engine searched %d times for one position and two viewers, want 1", n)
	}
	r.Unsubscribe(id1)
	r.Unsubscribe(id2)
	if r.Viewers() != 0 {
		t.Errorf("%d viewers left after unsubscribing", r.Viewers())
	}
	r.Close("done")
	if !fe.Closed() {
		t.Error("room did not close its engine")
	}
}

// TestRoomRestartsOnMove: a new position restarts the search, and reports
// about the old position never show up for the new one.
func TestRoomRestartsOnMove(t *testing.T) {
	fe := &enginetest.Engine{Tick: 5 * time.Millisecond}
	r := NewRoom("mv", fe)
	defer r.Close("")
	r.Subscribe() // a room searches while somebody watches
	if err := r.StartAnalysis(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if err := r.MoveText("d4"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		s := r.Snapshot()
		if len(s.Lines) > 0 {
			if !s.Position.IsLegal(s.Lines[0].PV[0]) {
				t.Fatalf("line %v is not legal in the shown position", s.Lines[0].PV)
			}
			if fe.Searches() < 2 {
				t.Fatal("position changed but the search was not restarted")
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no analysis after the move")
}

func TestRoomsLimits(t *testing.T) {
	h := NewRooms(func() (engine.Analyzer, error) { return &enginetest.Engine{Tick: time.Second}, nil }, 1)
	defer h.Close("")
	if _, err := h.Create("one"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Create("two"); err == nil {
		t.Error("second engine room created past the cap of 1")
	}
	if _, err := h.Create("bad name!"); err == nil {
		t.Error("bad room name accepted")
	}
	if r, err := h.Create("one"); err != nil || r.Name() != "one" {
		t.Errorf("re-creating an existing room: %v", err)
	}
	if got := h.List(); len(got) != 1 || got[0].Name != "one" {
		t.Errorf("List = %+v", got)
	}
}

// TestRoomProgressBetweenLines: reports without a PV (nodes, time, the root
// move being searched) reach viewers and do not replace the lines.
func TestRoomProgressBetweenLines(t *testing.T) {
	p := chess.NewPosition()
	e4, err := p.ParseMove("e4")
	if err != nil {
		t.Fatal(err)
	}
	d4, _ := p.ParseMove("d4")
	// An engine deep in a long iteration: one line, then progress, then
	// nothing until it is stopped.
	infos := []engine.Info{
		{Depth: 20, MultiPV: 1, Nodes: 1000, Time: time.Second, PV: []chess.Move{e4}},
		{Nodes: 5000, Time: 3 * time.Second, CurrMove: d4, CurrMoveNumber: 2},
	}
	se := &enginetest.Engine{WaitForStop: true, Script: func(engine.Game) []engine.Info { return infos }}
	r := NewRoom("p", se)
	defer r.Close("")
	r.Subscribe() // a room searches while somebody watches
	if err := r.StartAnalysis(); err != nil {
		t.Fatal(err)
	}
	var s *Snapshot
	waitUntil(t, "progress report", func() bool {
		s = r.Snapshot()
		return s.Progress.Nodes == 5000
	})
	if len(s.Lines) != 1 || strings.Join(s.LinesSAN[0], " ") != "e4" {
		t.Fatalf("lines replaced by a progress report: %+v %q", s.Lines, s.LinesSAN)
	}
	if s.CurrMoveSAN != "d4" {
		t.Errorf("current move %q, want d4", s.CurrMoveSAN)
	}
	// A new position forgets the old search's progress (stopped first, so
	// that the scripted engine does not report again for the new one).
	r.StopAnalysis()
	if err := r.MoveText("e4"); err != nil {
		t.Fatal(err)
	}
	if s := r.Snapshot(); s.Progress.Nodes != 0 || s.CurrMoveSAN != "" {
		t.Errorf("progress kept after a move: %+v", s.Progress)
	}
}

// TestRoomSearchesOnlyWhileWatched is issue 18's B8: `squall serve` analysed
// its default room with nobody connected (0.6–1.0 core, forever). Analysis
// is a setting of the room; the engine searches only while the room has a
// subscriber, stops when the last one leaves and resumes with the next.
func TestRoomSearchesOnlyWhileWatched(t *testing.T) {
	fe := &enginetest.Engine{Tick: time.Millisecond, WaitForStop: true}
	r := NewRoom("main", fe)
	defer r.Close("")
	if err := r.StartAnalysis(); err != nil {
		t.Fatal(err)
	}
	if err := r.MoveText("e4"); err != nil {
		t.Fatal(err)
	}
	if !r.Analysing() {
		t.Fatal("analysis is not on")
	}
	r.mu.Lock()
	started := r.search != nil
	r.mu.Unlock()
	if started || fe.Searches() != 0 {
		t.Fatalf("an empty room started a search (%d searches)", fe.Searches())
	}
	id, _ := r.Subscribe()
	waitUntil(t, "a search once a viewer came", func() bool { return fe.Active() == 1 })
	r.Unsubscribe(id)
	waitUntil(t, "the search to stop when the last viewer left", func() bool { return fe.Active() == 0 })
	n := fe.Searches()
	if err := r.MoveText("e5"); err != nil {
		t.Fatal(err)
	}
	if fe.Searches() != n || !r.Analysing() {
		t.Errorf("a move in the empty room started a search, or turned analysis off")
	}
	id, _ = r.SubscribeOwner()
	waitUntil(t, "a search for an owner", func() bool { return fe.Active() == 1 })
	if v := r.Viewers(); v != 0 {
		t.Errorf("an owner counted as %d viewers", v)
	}
	r.Unsubscribe(id)
	waitUntil(t, "the search to stop", func() bool { return fe.Active() == 0 })
	if err := fe.Misuse(); err != nil {
		t.Error(err)
	}
}

// TestRoomEngineError: an engine that fails shows its error in place of
// the lines and turns analysis off; analysis started again shows lines
// again, and so does a new position.
func TestRoomEngineError(t *testing.T) {
	fe := &enginetest.Engine{MaxDepth: 2, Err: errors.New("the engine fell over")}
	r := NewRoom("e", fe)
	defer r.Close("")
	r.Subscribe()
	if err := r.StartAnalysis(); err != nil {
		t.Fatal(err)
	}
	var s *Snapshot
	waitUntil(t, "the engine's error", func() bool { s = r.Snapshot(); return !s.Analysing })
	if len(s.Lines) != 1 || s.Lines[0].String != "engine error: the engine fell over" {
		t.Fatalf("lines %+v, want the engine's error alone", s.Lines)
	}
	fe.Err = nil // no search runs: analysis went off with the error
	if err := r.StartAnalysis(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "lines after the error", func() bool {
		s = r.Snapshot()
		return len(s.Lines) > 0 && s.Lines[0].Kind() == engine.Line
	})
	for _, l := range s.Lines {
		if l.Kind() != engine.Line {
			t.Errorf("%+v beside the lines", l)
		}
	}
}
