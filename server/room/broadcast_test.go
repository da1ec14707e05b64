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

// fakeRooms is a set of rooms that get fake engines, kept for inspection.
func fakeRooms(t *testing.T, maxEngines int) (*Rooms, *[]*enginetest.Engine) {
	var engines []*enginetest.Engine
	h := NewRooms(func() (engine.Analyzer, error) {
		fe := &enginetest.Engine{Tick: 5 * time.Millisecond}
		engines = append(engines, fe)
		return fe, nil
	}, maxEngines)
	t.Cleanup(func() { h.Close("test over") })
	return h, &engines
}

func mustBroadcast(t *testing.T, h *Rooms, name string) *Broadcast {
	t.Helper()
	b, err := h.Broadcast(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBroadcastMirrorsPublishedGame: the room shows what is published and
// analyses it; publishing the same game again does not restart the search,
// nor does a change after the shown ply.
func TestBroadcastMirrorsPublishedGame(t *testing.T) {
	h, engines := fakeRooms(t, 2)
	b := mustBroadcast(t, h, "live")
	r := b.Room()
	fe := (*engines)[0]
	r.Subscribe() // a room searches while somebody watches
	if !r.ReadOnly() || !r.Analysing() {
		t.Fatalf("broadcast room: read-only %v, analysing %v; want both", r.ReadOnly(), r.Analysing())
	}
	g := enginetest.Game(t, "e4", "e5", "Nf3")
	if err := b.Publish(g, 3); err != nil {
		t.Fatal(err)
	}
	s := r.Snapshot()
	if s.Ply != 3 || strings.Join(s.SANs, " ") != "e4 e5 Nf3" || s.Position.FEN() != "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" {
		t.Fatalf("after publishing: ply %d, %q, %s", s.Ply, s.SANs, s.Position.FEN())
	}
	waitUntil(t, "analysis of the published position", func() bool {
		s := r.Snapshot()
		return len(s.Lines) > 0 && s.Lines[0].Depth >= 2
	})
	searches := fe.Searches()

	// The same game again, and the game extended beyond the shown ply.
	if err := b.Publish(enginetest.Game(t, "e4", "e5", "Nf3"), 3); err != nil {
		t.Fatal(err)
	}
	longer := enginetest.Game(t, "e4", "e5", "Nf3", "Nc6")
	if err := b.Publish(longer, 3); err != nil {
		t.Fatal(err)
	}
	if s := r.Snapshot(); len(s.Moves) != 4 || strings.Join(s.SANs, " ") != "e4 e5 Nf3 Nc6" || s.Ply != 3 || len(s.Lines) == 0 {
		t.Fatalf("extended game: %d moves (%q) at ply %d, %d lines; want 4 at 3, lines kept", len(s.Moves), s.SANs, s.Ply, len(s.Lines))
	}
	if n := fe.Searches(); n != searches {
		t.Fatalf("republishing the shown position started %d new searches", n-searches)
	}

	// Stepping back is a new position: new search, old lines gone.
	if err := b.Publish(longer, 1); err != nil {
		t.Fatal(err)
	}
	if s := r.Snapshot(); s.Ply != 1 || strings.Join(s.SANs, " ") != "e4 e5 Nf3 Nc6" || len(s.Lines) != 0 {
		t.Fatalf("after stepping back: ply %d, %q, %d lines", s.Ply, s.SANs, len(s.Lines))
	}
	waitUntil(t, "a new search", func() bool { return fe.Searches() > searches })

	// A different start position with the same ply is a different game.
	other, _ := chess.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
	if err := b.Publish(engine.Game{Start: other}, 0); err != nil {
		t.Fatal(err)
	}
	if s := r.Snapshot(); s.Position.FEN() != other.FEN() || len(s.Moves) != 0 {
		t.Fatalf("new start not shown: %s, %d moves", s.Position.FEN(), len(s.Moves))
	}
}

func TestBroadcastPublishRejectsBadGames(t *testing.T) {
	h, _ := fakeRooms(t, 2)
	b := mustBroadcast(t, h, "live")
	g := enginetest.Game(t, "e4", "e5")
	for name, c := range map[string]struct {
		g   engine.Game
		ply int
	}{
		"ply past the end":  {g, 3},
		"negative ply":      {g, -1},
		"no start position": {engine.Game{Moves: g.Moves}, 0},
		"illegal move":      {engine.Game{Start: g.Start, Moves: []chess.Move{g.Moves[1]}}, 1},
	} {
		if err := b.Publish(c.g, c.ply); err == nil {
			t.Errorf("%s: published", name)
		}
	}
	if s := b.Room().Snapshot(); s.Ply != 0 || len(s.Moves) != 0 {
		t.Errorf("a rejected game changed the room: ply %d, %d moves", s.Ply, len(s.Moves))
	}
}

// TestBroadcastIsReadOnly: no change reaches a broadcast room except
// through its Broadcast, an owner's included.
func TestBroadcastIsReadOnly(t *testing.T) {
	h, _ := fakeRooms(t, 2)
	b := mustBroadcast(t, h, "live")
	if err := b.Publish(enginetest.Game(t, "d4", "d5"), 2); err != nil {
		t.Fatal(err)
	}
	r := b.Room()
	m, _ := r.Snapshot().Position.ParseMove("c4")
	for name, change := range map[string]func() error{
		"Move":          func() error { return r.Move(m) },
		"MoveText":      func() error { return r.MoveText("c4") },
		"Goto":          func() error { return r.Goto(0) },
		"Step":          func() error { return r.Step(-1) },
		"Load":          func() error { return r.Load(engine.Game{Start: chess.NewPosition()}) },
		"LoadFEN":       func() error { return r.LoadFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 1") },
		"StartAnalysis": r.StartAnalysis,
	} {
		if err := change(); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: err = %v, want ErrReadOnly", name, err)
		}
	}
	r.StopAnalysis()
	if s := r.Snapshot(); s.Ply != 2 || len(s.Moves) != 2 || !s.Analysing {
		t.Errorf("the room changed: ply %d, %d moves, analysing %v", s.Ply, len(s.Moves), s.Analysing)
	}
	// Joining by name (as an owner's `room live` does) finds the same
	// read-only room rather than making another.
	if same, err := h.Create("live"); err != nil || same != r {
		t.Errorf("Create of the broadcast's name: %v, same room %v", err, same == r)
	}
	if _, err := h.Broadcast("live"); err == nil {
		t.Error("a second broadcast took over the room")
	}
	if _, err := h.Broadcast("no spaces"); err == nil {
		t.Error("bad room name accepted")
	}
}

// TestBroadcastClose: the room goes, its engine stops, its viewers are
// told why, and a later room of the same name is not the old handle's.
func TestBroadcastClose(t *testing.T) {
	h, engines := fakeRooms(t, 2)
	b := mustBroadcast(t, h, "live")
	_, updates := b.Room().Subscribe()
	b.Close()
	if _, ok := h.Room("live"); ok {
		t.Error("the room is still listed")
	}
	if !(*engines)[0].Closed() {
		t.Error("the room's engine was not closed")
	}
	for s := range updates { // drained until closed
		if s.Closing != "" {
			t.Errorf("viewers told the server is closing (%q): only the broadcast ended", s.Closing)
		}
	}
	if got := b.Room().EndReason(); !strings.Contains(got, "broadcast has ended") {
		t.Errorf("end reason %q", got)
	}
	if err := b.Publish(enginetest.Game(t, "e4"), 1); err == nil {
		t.Error("published to a closed broadcast")
	}
	again, err := h.Create("live")
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	if r, ok := h.Room("live"); !ok || r != again {
		t.Error("closing the old broadcast again removed the new room")
	}
}

func TestBroadcastLimits(t *testing.T) {
	h, _ := fakeRooms(t, 1)
	if _, err := h.Create("busy"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Broadcast("live"); err == nil {
		t.Error("a broadcast went past the engine cap")
	}
	h.Close("shutting down")
	if _, err := h.Broadcast("late"); err == nil {
		t.Error("a broadcast opened on a closed server")
	}
}

// TestBroadcastEndsWithServer: after the server's shutdown, publishing
// fails instead of reaching a dead room.
func TestBroadcastEndsWithServer(t *testing.T) {
	h, _ := fakeRooms(t, 2)
	b := mustBroadcast(t, h, "live")
	h.Close("shutting down")
	if err := b.Publish(enginetest.Game(t, "e4"), 1); err == nil {
		t.Error("published after the server closed")
	}
	b.Close() // harmless after the shutdown
}
