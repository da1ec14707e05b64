package eval

import (
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// coef returns White's and Black's counts of weight i in fen.
func coef(t *testing.T, fen string, i int) (int, int) {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var f Features
	New().Features(p, &f)
	return int(f.Coef[0][i]), int(f.Coef[1][i])
}

// Each term fires where a chess player would say it applies.
func TestTermsFire(t *testing.T) {
	for _, c := range []struct {
		name string
		fen  string
		i    int
		w, b int
	}{
		{"passed d5 pawn (rank 5)", "4k3/7p/8/3P4/8/8/7P/4K3 w - - 0 1", WPassed + 4, 1, 0},
		{"no passer: opposed", "4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1", WPassed + 4, 0, 0},
		{"isolated a-pawn", "4k3/8/8/8/8/8/P5PP/4K3 w - - 0 1", WPawnIsolated, 1, 0},
		{"doubled c-pawns", "4k3/8/8/8/8/2P5/1PP5/4K3 w - - 0 1", WPawnDoubled, 1, 0},
		{"backward d3 pawn", "4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1", WPawnBackwardOpen, 1, 0},
		{"backward and opposed", "4k3/3p4/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1", WPawnBackward, 1, 0},
		{"phalanx d4 e4", "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", WPawnPhalanx + 3, 2, 0},
		{"knight outpost d5", "4k3/p7/8/3N4/4P3/8/8/4K3 w - - 0 1", WKnightOutpost, 1, 0},
		{"no outpost: c6 pawn can chase it", "4k3/8/2p5/3N4/4P3/8/8/4K3 w - - 0 1", WKnightOutpost, 0, 0},
		{"rook on open file", "4k3/p7/8/8/8/8/P7/3RK3 w - - 0 1", WRookOpen, 1, 0},
		{"rook on 7th", "4k3/R6p/8/8/8/8/8/4K3 w - - 0 1", WRookSeventh, 1, 0},
		{"trapped bishop a7", "4k3/B7/1p6/8/8/8/8/4K3 w - - 0 1", WBishopTrapped, 1, 0},
		{"bishop pair", "2b1kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", WBishopPair, 0, 1},
		{"hanging black knight", "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", WHanging + int(chess.Knight), 1, 0},
		{"pawn attacks rook", "4k3/8/8/8/3r4/4P3/8/4K3 w - - 0 1", WPawnThreat + int(chess.Rook), 1, 0},
		{"unstoppable a-pawn", "7k/8/8/P7/8/8/7P/K7 w - - 0 1", WPassedUnstoppable, 1, 0},
		{"catchable a-pawn", "2k5/8/8/P7/8/8/7P/K7 w - - 0 1", WPassedUnstoppable, 0, 0},
		{"tempo", chess.StartFEN, WTempo, 1, 0},
	} {
		w, b := coef(t, c.fen, c.i)
		if w != c.w || b != c.b {
			t.Errorf("%s: %s counts %d/%d, want %d/%d", c.name, WeightName(c.i), w, b, c.w, c.b)
		}
	}
}

// MadChess's drawish pawnless endings and the other drawish patterns are
// scaled towards zero; winning material edges are not.
func TestDrawishScaling(t *testing.T) {
	e := New()
	for _, c := range []struct {
		fen      string
		maxScale int
		minScale int
	}{
		{"4k3/8/8/8/8/8/8/1Q1qK3 w - - 0 1", 8, 0},           // KQkq
		{"4k3/8/8/8/8/8/1r1r4/Q3K3 w - - 0 1", 8, 0},         // KQkrr
		{"4k3/8/8/8/8/8/r7/R1B1K3 w - - 0 1", 8, 0},          // KRBkr
		{"4k3/8/8/8/8/8/r7/R1N1K3 w - - 0 1", 8, 0},          // KRNkr
		{"4k3/8/8/8/8/8/b7/R3K3 w - - 0 1", 8, 0},            // KRkb
		{"4k3/8/8/8/8/8/n7/R3K3 w - - 0 1", 8, 0},            // KRkn
		{"4k3/8/8/8/8/8/b7/N1N1K3 w - - 0 1", 8, 0},          // KNNkb
		{"4k3/8/8/8/8/8/r7/R3K3 w - - 0 1", 8, 0},            // KRkr
		{"4k3/8/8/8/8/8/r7/Q3K3 w - - 0 1", 64, 64},          // KQkr: a win
		{"4k3/5p2/8/8/8/2B5/1P3P2/4K3 w - - 0 1", 64, 64},    // a bishop up with pawns
		{"4k3/5p2/4b3/8/8/2B5/1P3PP1/4K3 w - - 0 1", 22, 22}, // opposite bishops (c3 dark, e6 light)
		{"1k6/8/8/8/8/8/P7/2B1K3 w - - 0 1", 0, 0},           // wrong (dark) bishop for a8, rook pawn
		{"1k6/8/8/8/8/8/P7/1B2K3 w - - 0 1", 64, 64},         // the right (light) bishop wins
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var f Features
		e.Features(p, &f)
		if f.Special || f.Scale > c.maxScale || f.Scale < c.minScale {
			t.Errorf("%s: scale %d (special %v), want %d…%d", c.fen, f.Scale, f.Special, c.minScale, c.maxScale)
		}
	}
}
