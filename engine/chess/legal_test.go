package chess

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGenerateTo checks GenerateTo and CastlingMove against the full
// generator on the perft positions and on positions a few random moves
// away from them (which reach checks, pins, en passant and promotions).
func TestGenerateTo(t *testing.T) {
	var fens []string
	for _, c := range loadEPDPerft(t, "testdata/perft/standard.epd") {
		fens = append(fens, c.fen)
	}
	for _, c := range loadTrickyPerft(t, "testdata/perft/tricky.perft") {
		fens = append(fens, c.fen)
	}
	for i, c := range loadEPDPerft(t, "testdata/perft/fischer960.epd") {
		if i%16 == 0 {
			fens = append(fens, c.fen)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	checked, moves := 0, 0
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for walk := 0; walk < 8; walk++ {
			q := p.Clone()
			var u Undo
			for ply := 0; ply < 40; ply++ {
				var all MoveList
				q.GenerateLegal(&all)
				moves += compareGenerateTo(t, q, &all)
				checked++
				if all.N == 0 {
					break
				}
				q.MakeMove(all.Moves[rng.IntN(all.N)], &u)
			}
		}
	}
	if checked < 1000 || moves < 10000 {
		t.Fatalf("only %d positions and %d moves checked", checked, moves)
	}
}

// compareGenerateTo reports positions where GenerateTo disagrees with all
// (the legal moves) and returns how many moves it matched.
func compareGenerateTo(t *testing.T, p *Position, all *MoveList) int {
	t.Helper()
	var ml MoveList
	matched := 0
	for pt := Pawn; pt <= King; pt++ {
		for to := Square(0); to < 64; to++ {
			var want []Move
			for _, m := range all.Slice() {
				if !m.IsCastle() && m.Piece().Type() == pt && m.To() == to {
					want = append(want, m)
				}
			}
			p.GenerateTo(&ml, pt, to)
			got := slices.Clone(ml.Slice())
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: GenerateTo(%c, %s) = %v, want %v", p.FEN(), pt.Letter(), to, got, want)
			}
			matched += len(got)
		}
	}
	for _, kingside := range [2]bool{true, false} {
		want := NullMove
		for _, m := range all.Slice() {
			if m.IsCastle() && (m.To() > m.From()) == kingside {
				want = m
			}
		}
		got, ok := p.CastlingMove(kingside)
		if ok != (want != NullMove) || (ok && got != want) {
			t.Fatalf("%s: CastlingMove(%v) = %v, %v; want %v", p.FEN(), kingside, got, ok, want)
		}
	}
	if matched != all.N-countCastles(all) {
		t.Fatalf("%s: GenerateTo found %d moves, want %d", p.FEN(), matched, all.N)
	}
	return matched
}

func countCastles(ml *MoveList) int {
	n := 0
	for _, m := range ml.Slice() {
		if m.IsCastle() {
			n++
		}
	}
	return n
}
