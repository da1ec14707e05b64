package search

import (
	"context"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

func game(t testing.TB, fen string, moves ...string) engine.Game {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := engine.Game{Start: p.Clone()}
	var u chess.Undo
	for _, s := range moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &u)
	}
	return g
}

func TestSearchStartDepth(t *testing.T) {
	s := New()
	var infos []engine.Info
	res, err := s.Search(context.Background(), game(t, chess.StartFEN), engine.Limits{Depth: 8}, func(in engine.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove == chess.NullMove || len(infos) != 8 {
		t.Fatalf("best %v infos %d", res.BestMove, len(infos))
	}
	for _, in := range infos {
		t.Logf("depth %d score %v nodes %d pv %v", in.Depth, in.Score, in.Nodes, in.PV)
	}
}

func BenchmarkSearchKiwipete(b *testing.B) {
	s := New()
	g := game(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10")
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		s.NewGame()
		res, err := s.Search(context.Background(), g, engine.Limits{Depth: 9}, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Last.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nps")
}

// TestGivesCheck: givesCheck agrees with making the move, for every legal
// move of every position within three plies of positions rich in direct
// and discovered checks, castling, en passant and promotions.
func TestGivesCheck(t *testing.T) {
	fens := []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"1B6/3K3p/5p2/pp2pr2/N2k3q/1Q5p/2R2b2/5N2 w - - 0 1",
		"5k2/8/8/8/8/8/8/4K2R w K - 0 1",     // castling gives check
		"8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1",  // en passant uncovers a rook
		"8/8/2k5/8/3pP3/8/8/B3K3 b - e3 0 1", // en passant uncovers nothing
	}
	checks, total := 0, 0
	var walk func(p *chess.Position, depth int)
	walk = func(p *chess.Position, depth int) {
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		var u chess.Undo
		for _, m := range ml.Moves[:ml.N] {
			want := givesCheck(p, m)
			p.MakeMove(m, &u)
			if got := p.InCheck(); got != want {
				p.UnmakeMove(m, &u)
				t.Fatalf("%s: givesCheck(%v) = %v, making it: %v", p.FEN(), m, want, got)
			}
			total++
			checks += b2i(want)
			if depth > 1 {
				walk(p, depth-1)
			}
			p.UnmakeMove(m, &u)
		}
	}
	for _, fen := range fens {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		walk(p, 3)
	}
	if checks == 0 || checks == total {
		t.Fatalf("%d checks in %d moves", checks, total)
	}
	t.Logf("%d checks in %d moves", checks, total)
}

// TestThreatenedPieces: pieces attacked by a lesser piece, or attacked and
// undefended, are threatened; pawns and the king are not counted.
func TestThreatenedPieces(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want string // the threatened square, if any
	}{
		{"8/8/6k1/8/6K1/8/N1r5/8 w - - 0 1", "a2"}, // an undefended knight, attacked by a rook
		{"8/8/6k1/8/8/1K6/N1r5/8 w - - 0 1", ""},   // the king defends it
		{"8/8/6k1/8/8/1Kn5/N7/8 w - - 0 1", ""},    // defended, attacked by an equal
		{"8/8/6k1/8/8/3n4/8/2RK4 w - - 0 1", "c1"}, // defended, but attacked by a knight
		{"7k/8/8/4p3/3Q4/8/8/K7 w - - 0 1", "d4"},  // a queen attacked by a pawn
		{"7k/8/8/p7/1P6/8/8/K6r w - - 0 1", ""},    // pawns and the king are not counted
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var want chess.Bitboard
		if c.want != "" {
			sq, ok := chess.ParseSquare(c.want)
			if !ok {
				t.Fatalf("bad square %q", c.want)
			}
			want = chess.SquareBB(sq)
		}
		if got := threatenedPieces(p); got != want {
			t.Errorf("%s: threatened %#x, want %s", c.fen, uint64(got), c.want)
		}
	}
}

// TestThreatEscapeOrder: the quiet move that takes a threatened piece to a
// safe square comes before a quiet move with the best history, and an
// escape to an attacked square gets no preference.
func TestThreatEscapeOrder(t *testing.T) {
	p, err := chess.ParseFEN("8/8/6k1/8/6K1/8/N1r5/8 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	h := new(history)
	favourite, err := p.ParseUCI("g4h4")
	if err != nil {
		t.Fatal(err)
	}
	h.butterfly[chess.White][favourite.From()][favourite.To()] = historyMax
	ch := &h.cont[0][0]
	var mp picker
	mp.init(p, h, chess.NullMove, 0, chess.NullMove, [2]*pieceTo{ch, ch})
	var order []string
	for m := mp.next(); m != chess.NullMove; m = mp.next() {
		order = append(order, m.UCI(false))
	}
	if len(order) < 2 || order[0] != "a2b4" || order[1] != "g4h4" {
		t.Fatalf("move order %v, want a2b4 (the safe escape), then g4h4 (the best history)", order)
	}
}
