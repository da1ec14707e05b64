package chess

import (
	"strings"
	"testing"
)

// TestChess960 checks Scharnagl's numbering against positions listed for
// it (Wikipedia's "Chess960 numbering scheme" and the perft suite's).
func TestChess960(t *testing.T) {
	cases := []struct {
		n    int
		rank string
	}{
		{0, "BBQNNRKR"},
		{1, "BQNBNRKR"},
		{518, "RNBQKBNR"},
		{519, "RNBQKNRB"},
		{959, "RKRNNQBB"},
	}
	for _, c := range cases {
		p, err := Chess960(c.n)
		if err != nil {
			t.Fatalf("%d: %v", c.n, err)
		}
		fen := p.FEN()
		want := strings.ToLower(c.rank) + "/pppppppp/8/8/8/8/PPPPPPPP/" + c.rank + " w "
		if !strings.HasPrefix(fen, want) {
			t.Errorf("Chess960(%d) = %s, want %s…", c.n, fen, want)
		}
		if p.Chess960() != (c.n != 518) {
			t.Errorf("Chess960(%d).Chess960() = %v", c.n, p.Chess960())
		}
		if p.Castling() != AllCastling {
			t.Errorf("Chess960(%d): castling %v, want all four", c.n, p.Castling())
		}
	}
	if NewPosition().FEN() != mustChess960(t, 518).FEN() {
		t.Error("518 is not the standard start")
	}
	// Every number gives a different position, each with its bishops on
	// squares of both colours and its king between its rooks.
	seen := map[string]int{}
	for n := range 960 {
		fen := mustChess960(t, n).FEN()
		back := strings.Fields(fen)[0][strings.LastIndexByte(strings.Fields(fen)[0], '/')+1:]
		if prev, ok := seen[back]; ok {
			t.Fatalf("%d and %d are both %s", prev, n, back)
		}
		seen[back] = n
		b1, b2 := strings.IndexByte(back, 'B'), strings.LastIndexByte(back, 'B')
		r1, k, r2 := strings.IndexByte(back, 'R'), strings.IndexByte(back, 'K'), strings.LastIndexByte(back, 'R')
		if (b1+b2)%2 == 0 || !(r1 < k && k < r2) {
			t.Fatalf("%d: %s", n, back)
		}
	}
	for _, n := range []int{-1, 960} {
		if _, err := Chess960(n); err == nil {
			t.Errorf("Chess960(%d): no error", n)
		}
	}
}

func mustChess960(t *testing.T, n int) *Position {
	t.Helper()
	p, err := Chess960(n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSetupIllegal: each rule a set-up position can break is named by its
// Illegal, for a Setup and for a FEN alike (one judge).
func TestSetupIllegal(t *testing.T) {
	cases := []struct {
		fen  string
		why  Illegal
		text string
	}{
		{"8/8/8/4k3/8/8/4K3/4R3 w - - 0 1", Legal, ""},
		{"8/8/8/8/8/8/4K3/4R3 w - - 0 1", KingCount, "black has 0 kings"},
		{"8/8/8/4k3/4K3/8/8/4R3 w - - 0 1", KingsAdjacent, "side by side (e4 and e5)"},
		{"8/8/8/4k3/8/8/4K3/P3R3 w - - 0 1", PawnOnBackRank, "pawn on the first"},
		{"8/8/8/4k3/8/8/4K3/4R3 b - - 0 1", Legal, ""},
		{"4k3/8/8/8/8/8/8/K3R3 w - - 0 1", OpponentInCheck, "the side not to move (black) is in check"},
		{"4k3/8/8/8/8/8/3K4/R3R3 w Q - 0 1", BadCastling, "the white king is not on its back rank"},
		{"4k3/8/8/8/8/8/8/4K3 w K - 0 1", BadCastling, "no white rook"},
		{"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", BadEnPassant, "not behind a black pawn"},
		{"4k3/8/8/8/8/8/8/QQQQKQQQ/QQQQQQQQ w - - 0 1", Legal, "8 ranks"},
		{"4k3/8/3N1N2/1B6/8/8/8/4R1K1 b - - 0 1", ImpossibleCheck, "in check from 4 pieces"},
	}
	for _, c := range cases {
		_, err := ParseFEN(c.fen)
		if got := WhyIllegal(err); got != c.why || (c.text != "" && (err == nil || !strings.Contains(err.Error(), c.text))) {
			t.Errorf("%s: %v (%v), want %v mentioning %q", c.fen, err, got, c.why, c.text)
		}
	}
	// A Setup is judged by the same rules.
	s := EmptySetup()
	s.Board[E1] = MakePiece(White, King)
	s.Board[MakeSquare(4, 1)] = MakePiece(Black, King)
	if _, err := s.Position(); WhyIllegal(err) != KingsAdjacent {
		t.Errorf("kings on e1 and e2: %v", err)
	}
	s.Board[MakeSquare(4, 1)] = NoPiece
	s.Board[MakeSquare(4, 4)] = MakePiece(Black, King)
	p, err := s.Position()
	if err != nil {
		t.Fatal(err)
	}
	if got := SetupOf(p); got != s {
		t.Errorf("SetupOf(%s) = %+v, want %+v", p.FEN(), got, s)
	}
	if pc, ok := ParsePiece('q'); !ok || pc != MakePiece(Black, Queen) {
		t.Errorf("ParsePiece('q') = %v %v", pc, ok)
	}
	if _, ok := ParsePiece('x'); ok {
		t.Error("ParsePiece('x') ok")
	}
}
