package search

import (
	"fmt"
	"slices"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Varied positions: opening, Kiwipete (castling, en passant, pins),
// promotions, a pawn endgame, a Chess960-free position with a game history.
var pvPositions = []struct {
	fen   string
	moves []string
}{
	{chess.StartFEN, nil},
	{chess.StartFEN, []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"}},
	{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10", nil},
	{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", nil},
	{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", nil},
	{"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", nil},
	{"8/8/1k6/8/2pP4/8/5K2/8 b - d3 0 1", nil},
	{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", nil},
}

// TestPVLegal: every PV reported, at every depth, is legal from the root,
// and so are the best and ponder moves.
func TestPVLegal(t *testing.T) {
	for _, c := range pvPositions {
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s%v/threads=%d", c.fen, c.moves, threads), func(t *testing.T) {
				g := game(t, c.fen, c.moves...)
				root := rootOf(t, g)
				s := New()
				if err := s.SetOption("Threads", fmt.Sprint(threads)); err != nil {
					t.Fatal(err)
				}
				res, infos := run(t, s, g, engine.Limits{Depth: 9, MultiPV: 2})
				checkResult(t, root, res, infos)
				depths := 0
				for _, in := range infos {
					if in.MultiPV == 1 && in.CurrMove == chess.NullMove {
						depths++
					}
				}
				if depths != 9 {
					t.Fatalf("%d completed depths reported, want 9", depths)
				}
			})
		}
	}
}

// TestMultiPV: three lines with distinct first moves, ordered by score.
func TestMultiPV(t *testing.T) {
	for _, c := range pvPositions[:5] {
		g := game(t, c.fen, c.moves...)
		root := rootOf(t, g)
		res, infos := run(t, New(), g, engine.Limits{Depth: 7, MultiPV: 3})
		checkResult(t, root, res, infos)
		var last []engine.Info
		for _, in := range infos {
			if in.Depth == 7 && in.CurrMove == chess.NullMove {
				last = append(last, in)
			}
		}
		if len(last) != 3 {
			t.Fatalf("%s: %d lines at depth 7, want 3", c.fen, len(last))
		}
		seen := map[chess.Move]bool{}
		for i, in := range last {
			if in.MultiPV != i+1 {
				t.Fatalf("%s: line %d has MultiPV %d", c.fen, i+1, in.MultiPV)
			}
			if seen[in.PV[0]] {
				t.Fatalf("%s: first move %v repeated in lines %v", c.fen, in.PV[0], last)
			}
			seen[in.PV[0]] = true
			if i > 0 && scoreOrder(in.Score) > scoreOrder(last[i-1].Score) {
				t.Fatalf("%s: line %d (%v) scores above line %d (%v)", c.fen, i+1, in.Score, i, last[i-1].Score)
			}
		}
		if res.BestMove != last[0].PV[0] {
			t.Fatalf("%s: bestmove %v is not line 1's %v", c.fen, res.BestMove, last[0].PV[0])
		}
	}
	// The MultiPV option is used when Limits.MultiPV is not set, and
	// clipped to the number of legal moves.
	s := New()
	if err := s.SetOption("MultiPV", "5"); err != nil {
		t.Fatal(err)
	}
	g := game(t, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1") // in check: Kd2, Ke2, Kf2
	var ml chess.MoveList
	rootOf(t, g).GenerateLegal(&ml)
	_, infos := run(t, s, g, engine.Limits{Depth: 3})
	lines := 0
	for _, in := range infos {
		if in.Depth == 3 {
			lines = max(lines, in.MultiPV)
		}
	}
	if lines != ml.N || ml.N != 3 {
		t.Fatalf("%d lines with %d legal moves and MultiPV 5", lines, ml.N)
	}
}

// TestSearchMoves: searchmoves restricts the root, even to moves the
// engine would not play. The restriction leaves out the unrestricted best
// move, whichever it is (that depends on the evaluation), so a search that
// ignored searchmoves would be caught playing or reporting it.
func TestSearchMoves(t *testing.T) {
	g := game(t, "3qk3/8/8/8/8/8/PP6/3QK3 w - - 0 1")
	root := rootOf(t, g)
	free, _ := run(t, New(), g, engine.Limits{Depth: 5})
	var ml chess.MoveList
	root.GenerateLegal(&ml)
	var allowed []chess.Move
	for _, m := range ml.Moves[:ml.N] {
		if m != free.BestMove && len(allowed) < 2 {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) != 2 || !root.IsLegal(free.BestMove) {
		t.Fatalf("unrestricted bestmove %v, %d legal moves: no two others to restrict to", free.BestMove, ml.N)
	}
	res, infos := run(t, New(), g, engine.Limits{Depth: 5, MultiPV: 3, SearchMoves: allowed})
	checkResult(t, root, res, infos)
	if !slices.Contains(allowed, res.BestMove) {
		t.Fatalf("bestmove %v outside searchmoves %v (unrestricted best %v)", res.BestMove, allowed, free.BestMove)
	}
	lines := map[int]bool{}
	for _, in := range infos {
		if in.MultiPV > 2 {
			t.Fatalf("line %d reported with 2 searchmoves", in.MultiPV)
		}
		if !slices.Contains(allowed, in.PV[0]) {
			t.Fatalf("PV %v starts outside searchmoves %v", in.PV, allowed)
		}
		if in.Depth == 5 && in.CurrMove == chess.NullMove {
			lines[in.MultiPV] = true
		}
	}
	if len(lines) != 2 {
		t.Fatalf("%d lines at depth 5 with MultiPV 3 and 2 searchmoves, want 2", len(lines))
	}
	// A searchmoves list with no legal move: no move to play.
	res, err := New().Search(t.Context(), g, engine.Limits{Depth: 3, SearchMoves: []chess.Move{chess.NullMove}}, nil)
	if err != nil || res.BestMove != chess.NullMove {
		t.Fatalf("no legal searchmove: bestmove %v err %v, want none", res.BestMove, err)
	}
}

// TestDeterministic: a single-threaded depth-limited search from a fresh
// table gives the same nodes and move every time (the bench relies on it).
func TestDeterministic(t *testing.T) {
	g := game(t, pvPositions[2].fen)
	s := New()
	a, _ := run(t, s, g, engine.Limits{Depth: 8})
	if err := s.NewGame(); err != nil {
		t.Fatal(err)
	}
	b, _ := run(t, s, g, engine.Limits{Depth: 8})
	c, _ := run(t, New(), g, engine.Limits{Depth: 8})
	if a.Last.Nodes != b.Last.Nodes || a.Last.Nodes != c.Last.Nodes || a.BestMove != b.BestMove || a.BestMove != c.BestMove {
		t.Fatalf("nodes %d/%d/%d moves %v/%v/%v", a.Last.Nodes, b.Last.Nodes, c.Last.Nodes, a.BestMove, b.BestMove, c.BestMove)
	}
}
