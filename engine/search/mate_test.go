package search

import (
	"fmt"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Mate positions are from ../shared/data/mate (mates2000.epd: vondele/
// matetrack; zurichess/mateInN.epd: zurichess), copied as facts. The
// "being mated" cases are also made by playing the key move of a mate.
var mateCases = []struct {
	fen   string
	moves []string
	mate  int // mate in N moves; negative: the side to move is mated
}{
	{"7n/BBP2P1P/8/P1PpK3/P5RR/5k2/Pn2NPN1/3Q2b1 w - d6 0 1", nil, 1},
	{"1kqr4/2n2r2/1Np3pp/2p1pp2/4P3/Q2PP3/P5PP/1R4K1 w - - 0 1", nil, 1},
	{"1n4rk/1bp2Q1p/p2p4/1p2p3/5N1N/1P1P3P/1PP2p1K/8 b - - 0 1", nil, 1}, // f1=N#, an underpromotion
	{"r5r1/1R4b1/1Q6/4nk1p/2p1R3/2P3PK/2BB4/q7 w - - 0 1", nil, 2},
	{"1B6/3K3p/5p2/pp2pr2/N2k3q/1Q5p/2R2b2/5N2 w - - 0 1", nil, 2},
	{"1k1r4/pp5R/2p5/P5p1/7b/4Pq2/1PQ2P2/3NK3 b - - 0 1", nil, 2},
	{"1k6/3K4/P7/8/4B3/B5bp/4p3/5b2 w - - 0 1", nil, 2},
	{"1R6/p7/kpp1p3/6n1/PPPP1Brp/8/2K5/8 w - - 0 1", nil, 3},
	{"1k1r4/ppnr2pp/4p3/4Q3/1q6/6P1/PP3PBP/2RR2K1 w - - 0 1", nil, 3},
	{"1k4r1/1p3b2/p4P2/5n2/8/8/4Q1PP/4N1RK b - - 0 1", nil, 3},
	{"6Qk/PP1PP1np/1N1BN2P/7R/4B3/2Q5/P3KP2/6R1 b - - 0 1", nil, -1},
	{"8/8/8/8/4Q3/8/5Rb1/R3K2k b Q - 0 1", nil, -1},
	{"1k6/3K4/P7/8/4B3/B5bp/4p3/5b2 w - - 0 1", []string{"a3c5"}, -1},
	{"1r4Rk/4NP1b/7K/8/8/8/8/8 b - - 0 1", nil, -2},
	{"1R6/p7/kpp1p3/6n1/PPPP1Brp/8/2K5/8 w - - 0 1", []string{"f4d2"}, -2},
	{"1k1r4/ppnr2pp/4p3/4Q3/1q6/6P1/PP3PBP/2RR2K1 w - - 0 1", []string{"e5c7"}, -2},
}

func TestMates(t *testing.T) {
	for _, c := range mateCases {
		t.Run(fmt.Sprintf("%+d/%s%v", c.mate, c.fen, c.moves), func(t *testing.T) {
			g := game(t, c.fen, c.moves...)
			root := rootOf(t, g)
			// The depth at which "go mate N" gives up must find it.
			depth := mateSearchDepth(abs(c.mate))
			res, infos := run(t, New(), g, engine.Limits{Depth: depth})
			checkResult(t, root, res, infos)
			if got := res.Last.Score; got.Mate != c.mate || got.Bound != engine.Exact {
				t.Fatalf("score %v (bound %d) at depth %d, want #%d exact", got, got.Bound, res.Last.Depth, c.mate)
			}
			// A mate line is played out in full: 2N-1 plies for the
			// winner, 2N for the loser, ending in checkmate.
			plies := 2*c.mate - 1
			if c.mate < 0 {
				plies = -2 * c.mate
			}
			pv := res.Last.PV
			if len(pv) != plies {
				t.Fatalf("PV %v has %d plies, want %d", pv, len(pv), plies)
			}
			if end := playLine(t, root, pv, "mate pv"); !end.IsCheckmate() {
				t.Fatalf("PV %v does not end in checkmate: %s", pv, end.FEN())
			}
		})
	}
}

// TestMateLimit: "go mate N" stops as soon as a mate in N is proved rather
// than searching to the depth limit.
func TestMateLimit(t *testing.T) {
	g := game(t, "8/7B/2R5/4Nr1p/4kb1Q/8/1B6/4K2R w K - 0 1")
	res, _ := run(t, New(), g, engine.Limits{Mate: 2, Depth: 40})
	if res.Last.Score.Mate != 2 {
		t.Fatalf("score %v, want #2", res.Last.Score)
	}
	if res.Last.Depth >= 40 {
		t.Fatalf("searched to depth %d: the mate limit did not stop the search", res.Last.Depth)
	}
}

// TestMateLimitNoMate: "go mate N" where there is no mate ends by itself
// (a GUI or a piped script waits for its bestmove) with a legal move, after
// searching deep enough that a mate in N would have been found.
func TestMateLimitNoMate(t *testing.T) {
	g := game(t, chess.StartFEN)
	root := rootOf(t, g)
	res, infos := run(t, New(), g, engine.Limits{Mate: 2})
	checkResult(t, root, res, infos)
	if res.Last.Score.Mate != 0 {
		t.Fatalf("score %v in the start position", res.Last.Score)
	}
	if res.Last.Depth < 3 {
		t.Fatalf("stopped at depth %d, before a mate in 2 could be seen", res.Last.Depth)
	}
}

// TestPerpetual: White is a rook down and faces mate; the only way out is
// the perpetual check Qh5+ Kg8 Qe8+ Kh7, which the search must find through
// a repetition inside its tree and score as a draw.
func TestPerpetual(t *testing.T) {
	g := game(t, "4Q3/6pk/8/8/8/2q5/rr3PPP/6K1 w - - 0 1")
	root := rootOf(t, g)
	res, infos := run(t, New(), g, engine.Limits{Depth: 10})
	checkResult(t, root, res, infos)
	if s := res.Last.Score; s.Mate != 0 || s.CP != 0 {
		t.Fatalf("score %v, want a draw (0.00); pv %v", s, res.Last.PV)
	}
	if got := res.BestMove.UCI(false); got != "e8h5" {
		t.Fatalf("bestmove %s, want the perpetual e8h5", got)
	}
	// Without the perpetual (no queen check from h5: a black pawn on h6)
	// White is lost: the draw score comes from the repetition, not the eval.
	g = game(t, "4Q3/6pk/7p/8/8/2q5/rr3PPP/6K1 w - - 0 1")
	res, _ = run(t, New(), g, engine.Limits{Depth: 10})
	if scoreOrder(res.Last.Score) > -300 {
		t.Fatalf("without the perpetual: score %v, want clearly lost", res.Last.Score)
	}
}

// TestFiftyMoveRule: with the halfmove clock at 99, any move that neither
// mates, captures nor moves a pawn ends the game in a draw.
func TestFiftyMoveRule(t *testing.T) {
	// K+Q v K, no mate in one: every move draws by the 50-move rule.
	g := game(t, "8/8/8/3k4/8/8/8/Q3K3 w - - 99 150")
	res, _ := run(t, New(), g, engine.Limits{Depth: 6})
	if s := res.Last.Score; s.Mate != 0 || s.CP != 0 {
		t.Fatalf("halfmove 99, no mate in one: score %v, want 0.00", s)
	}
	// The same material at halfmove 0 is a win.
	g = game(t, "8/8/8/3k4/8/8/8/Q3K3 w - - 0 150")
	res, _ = run(t, New(), g, engine.Limits{Depth: 6})
	if scoreOrder(res.Last.Score) < 500 {
		t.Fatalf("halfmove 0: score %v, want winning", res.Last.Score)
	}
	// A mate delivered on the 100th ply is still mate, found at every
	// depth (also depth 1, where the mated position is reached in
	// quiescence).
	g = game(t, "k7/8/1K6/8/8/8/8/2Q5 w - - 99 150")
	for depth := 1; depth <= 4; depth++ {
		res, _ = run(t, New(), g, engine.Limits{Depth: depth})
		if res.Last.Score.Mate != 1 {
			t.Fatalf("depth %d: mate in one on the 100th ply scored %v, want #1", depth, res.Last.Score)
		}
	}
}

func TestInsufficientMaterial(t *testing.T) {
	for _, fen := range []string{
		"8/8/4k3/8/8/3NK3/8/8 w - - 0 1",   // K+N v K
		"8/8/4k3/8/8/3BK3/8/8 b - - 0 1",   // K+B v K
		"8/8/2b1k3/8/8/3BK3/8/8 w - - 0 1", // bishops on one colour
	} {
		res, _ := run(t, New(), game(t, fen), engine.Limits{Depth: 8})
		if s := res.Last.Score; s.Mate != 0 || s.CP != 0 {
			t.Errorf("%s: score %v, want 0.00", fen, s)
		}
	}
	// Mating material is not a draw.
	res, _ := run(t, New(), game(t, "8/8/4k3/8/8/3RK3/8/8 w - - 0 1"), engine.Limits{Depth: 8})
	if scoreOrder(res.Last.Score) < 300 {
		t.Errorf("K+R v K: score %v, want winning", res.Last.Score)
	}
}

// TestNoStalemate: the winning side has stalemating moves at hand (in the
// second position the tempting capture of Black's last mobile piece); it
// must mate instead.
func TestNoStalemate(t *testing.T) {
	for _, fen := range []string{
		"k7/2Q5/1K6/8/8/8/8/8 w - - 0 1",
		"k7/2K5/8/2n5/8/8/8/2Q5 w - - 0 1", // Qxc5, winning the knight, stalemates
	} {
		g := game(t, fen)
		root := rootOf(t, g)
		// The test means something only if a stalemating move exists.
		var ml chess.MoveList
		root.GenerateLegal(&ml)
		stalemates := 0
		for _, m := range ml.Slice() {
			if playLine(t, root, []chess.Move{m}, "probe").IsStalemate() {
				stalemates++
			}
		}
		if stalemates == 0 {
			t.Fatalf("%s: no stalemating move; the test proves nothing", fen)
		}
		res, infos := run(t, New(), g, engine.Limits{Depth: 8})
		checkResult(t, root, res, infos)
		if playLine(t, root, []chess.Move{res.BestMove}, "best").IsStalemate() {
			t.Fatalf("%s: bestmove %v stalemates", fen, res.BestMove)
		}
		if res.Last.Score.Mate <= 0 {
			t.Fatalf("%s: score %v, want a mate", fen, res.Last.Score)
		}
	}
}
