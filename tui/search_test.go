package tui

import (
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/tui/livecmd"
)

// TestBoardSearchStop: stop is the one way the board's search stops —
// afterwards nothing runs, the engine is not thinking, the stopped
// search's last batch is dropped and a move held for the pace is not
// played.
func TestBoardSearchStop(t *testing.T) {
	s := newBoardSearch(&enginetest.Engine{Tick: time.Millisecond}, "squall")
	defer s.runner.Close()
	tree := NewTree(chess.NewPosition())
	wait := s.start(searchWant{kind: searchMove, node: tree.Root, game: tree.EngineGame(tree.Root), limits: engine.Limits{Infinite: true}})
	if !s.running() || !s.thinking() || s.kind() != searchMove {
		t.Fatalf("started: running %v, thinking %v, kind %v", s.running(), s.thinking(), s.kind())
	}
	run := s.run.s
	s.hold(&searchEnd{gen: run.Gen, node: tree.Root}, chess.NullMove, time.Hour)
	s.stop()
	if s.running() || s.thinking() || s.gen() != 0 {
		t.Fatalf("stopped: running %v, thinking %v, gen %d", s.running(), s.thinking(), s.gen())
	}
	if s.release(pacedMoveMsg{gen: run.Gen, node: tree.Root}) {
		t.Error("a move held by a stopped search was released")
	}
	for msg := wait(); ; msg = livecmd.Wait(run)() {
		b := msg.(livecmd.Msg)
		if _, _, ok := s.take(b.Batch); ok {
			t.Fatalf("a stopped search's batch was taken (done %v)", b.Done)
		}
		if b.Done {
			break
		}
	}
}
