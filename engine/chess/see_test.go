package chess

import "testing"

func TestSEE(t *testing.T) {
	cases := []struct {
		fen, move string
		value     int // exact exchange result for the mover
	}{
		// Pawn takes an undefended knight.
		{"4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320},
		// Queen takes a pawn defended by a pawn: loses queen for pawn.
		{"4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100 - 900},
		// Rook takes a rook-defended pawn with a rook behind it (x-ray): R x p, r x R, R x r.
		{"3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},
		// Knight takes a pawn defended by a bishop: loses N for p.
		{"4k3/8/4b3/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 100 - 320},
		// Quiet move to an attacked square.
		{"4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "c1e3", 0},
		{"4k3/8/8/3p4/8/8/8/1B2K3 w - - 0 1", "b1e4", -330},
		// En passant.
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},
		// Promotion to a guarded square.
		{"3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", 500 + 800 - 900},
	}
	for _, c := range cases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseUCI(c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		if !p.SEE(m, c.value) {
			t.Errorf("%s %s: SEE >= %d false", c.fen, c.move, c.value)
		}
		if p.SEE(m, c.value+1) {
			t.Errorf("%s %s: SEE >= %d true", c.fen, c.move, c.value+1)
		}
	}
}

func BenchmarkSEE(b *testing.B) {
	p, _ := ParseFEN(kiwipete)
	var ml MoveList
	p.GenerateCaptures(&ml)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range ml.Slice() {
			p.SEE(m, 0)
		}
	}
}
