package tablebase

import (
	"math/rand/v2"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// randomPosition places material m (white = first side) on random squares,
// colours swapped when swap is set, and returns a legal position or nil.
func randomPosition(r *rand.Rand, m *material, swap bool) *chess.Position {
	var board [64]chess.Piece
	for c := 0; c < 2; c++ {
		for pt := 1; pt <= 6; pt++ {
			for n := 0; n < m.counts[c][pt]; n++ {
				for {
					s := r.IntN(64)
					if board[s] != chess.NoPiece || (pt == 1 && (s < 8 || s >= 56)) {
						continue
					}
					col := chess.Color(c)
					if swap {
						col = col.Other()
					}
					board[s] = chess.MakePiece(col, chess.PieceType(pt))
					break
				}
			}
		}
	}
	side := " w"
	if r.IntN(2) == 1 {
		side = " b"
	}
	p, err := chess.ParseFEN(chess.BoardFEN(&board) + side + " - - 0 1")
	if err != nil {
		return nil
	}
	return p
}

// TestWDLMinimax checks every table against the game tree: where no value
// is cursed or blessed, a position's WDL is the best of its children's
// (negated), mate is a loss and stalemate a draw. This exercises every
// table's index and decompression on random positions, both colourings.
func TestWDLMinimax(t *testing.T) {
	tb := openTables(t)
	r := rand.New(rand.NewPCG(1, 2))
	perTable := 60
	for _, name := range tb.Tables() {
		m, _ := parseMaterial(name)
		checked := 0
		for tries := 0; checked < perTable && tries < 20*perTable; tries++ {
			p := randomPosition(r, &m, tries%2 == 1)
			if p == nil {
				continue
			}
			v, ok := tb.ProbeWDL(p)
			if !ok {
				t.Fatalf("%s: %s: probe failed", name, p.FEN())
			}
			var ml chess.MoveList
			p.GenerateLegal(&ml)
			best, exact := -2, v != 1 && v != -1
			if ml.N == 0 {
				best = 0
				if p.InCheck() {
					best = -2
				}
			}
			for _, mv := range ml.Moves[:ml.N] {
				var u chess.Undo
				p.MakeMove(mv, &u)
				c, ok := tb.ProbeWDL(p)
				p.UnmakeMove(mv, &u)
				if !ok {
					t.Fatalf("%s: %s after %s: probe failed", name, p.FEN(), mv)
				}
				if c == 1 || c == -1 {
					exact = false
				}
				best = max(best, -c)
			}
			if !exact {
				continue
			}
			if best != v {
				t.Errorf("%s: %s: wdl %d, best child %d", name, p.FEN(), v, best)
			}
			checked++
		}
		if checked < perTable/2 {
			t.Errorf("%s: only %d positions checked", name, checked)
		}
	}
}

// TestDTZConsistent checks DTZ against the children's: a winning position's
// DTZ is 1 when a zeroing move keeps the win, else one more than the
// quickest non-zeroing win; a losing one's is the longest defence. Syzygy
// stores some DTZ in moves rather than plies, decoded as an odd ply count,
// so an even distance comes back one ply off (measured: wins one further
// from zero, losses one nearer); anything else is an error.
func TestDTZConsistent(t *testing.T) {
	tb := openTables(t)
	r := rand.New(rand.NewPCG(3, 4))
	exactCount, total := 0, 0
	for _, name := range tb.Tables() {
		m, _ := parseMaterial(name)
		for n := 0; n < 40; n++ {
			p := randomPosition(r, &m, n%2 == 1)
			if p == nil {
				continue
			}
			wdl, _ := tb.ProbeWDL(p)
			dtz, ok := tb.ProbeDTZ(p)
			if !ok {
				t.Fatalf("%s: %s: dtz probe failed", name, p.FEN())
			}
			if wdl != 2 && wdl != -2 {
				if (wdl == 0) != (dtz == 0) || (wdl > 0) != (dtz > 0) {
					t.Errorf("%s: %s: wdl %d but dtz %d", name, p.FEN(), wdl, dtz)
				}
				continue
			}
			var ml chess.MoveList
			p.GenerateLegal(&ml)
			want := 1 << 20
			if wdl < 0 {
				want = 0
			}
			if ml.N == 0 {
				want = -1 // mated: Syzygy's DTZ for a mated position
			}
			for _, mv := range ml.Moves[:ml.N] {
				zeroing := mv.IsCapture() || mv.Piece().Type() == chess.Pawn
				var u chess.Undo
				p.MakeMove(mv, &u)
				var d int
				if zeroing {
					c, _ := tb.ProbeWDL(p)
					d = wdlToDTZ[-c+2]
					if c == -2 && p.IsCheckmate() {
						d = 1
					}
				} else {
					c, _ := tb.ProbeDTZ(p)
					switch {
					case p.IsCheckmate():
						d = 1
					case c < 0:
						d = -c + 1
					case c > 0:
						d = -c - 1
					}
				}
				p.UnmakeMove(mv, &u)
				if wdl > 0 && d > 0 && d < want {
					want = d
				}
				if wdl < 0 && d < want {
					want = d
				}
			}
			total++
			if dtz == want {
				exactCount++
			} else if dtz%2 == 0 || (dtz-want != 1 && dtz-want != -1) {
				t.Errorf("%s: %s: dtz %d, children say %d", name, p.FEN(), dtz, want)
			}
		}
	}
	t.Logf("%d of %d decisive positions exact, the rest within one ply", exactCount, total)
}
