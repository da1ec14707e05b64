package chess

import "testing"

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func benchPositions(b *testing.B) []*Position {
	var ps []*Position
	for _, fen := range []string{StartFEN, kiwipete, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"} {
		p, err := ParseFEN(fen)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func BenchmarkPerftStart5(b *testing.B) {
	p := NewPosition()
	var n uint64
	for b.Loop() {
		n += p.Perft(5)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnps")
}

func BenchmarkPerftKiwipete4(b *testing.B) {
	p, _ := ParseFEN(kiwipete)
	var n uint64
	for b.Loop() {
		n += p.Perft(4)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnps")
}

func BenchmarkGenerateLegal(b *testing.B) {
	ps := benchPositions(b)
	var ml MoveList
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range ps {
			p.GenerateLegal(&ml)
		}
	}
}

func BenchmarkGenerateCaptures(b *testing.B) {
	ps := benchPositions(b)
	var ml MoveList
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range ps {
			p.GenerateCaptures(&ml)
		}
	}
}

func BenchmarkGenerateQuiets(b *testing.B) {
	ps := benchPositions(b)
	var ml MoveList
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range ps {
			p.GenerateQuiets(&ml)
		}
	}
}

func BenchmarkGenerateEvasions(b *testing.B) {
	p, err := ParseFEN("r1bqkbnr/pppp1Qpp/2n5/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
	if err != nil {
		b.Fatal(err)
	}
	q, _ := ParseFEN("4k3/8/8/8/8/8/4q3/R3K2R w KQ - 0 1")
	var ml MoveList
	b.ReportAllocs()
	for b.Loop() {
		p.GenerateEvasions(&ml)
		q.GenerateEvasions(&ml)
	}
}

func BenchmarkMakeUnmake(b *testing.B) {
	ps := benchPositions(b)
	var lists [3]MoveList
	for i, p := range ps {
		p.GenerateLegal(&lists[i])
	}
	var u Undo
	b.ReportAllocs()
	for b.Loop() {
		for i, p := range ps {
			for _, m := range lists[i].Slice() {
				p.MakeMove(m, &u)
				p.UnmakeMove(m, &u)
			}
		}
	}
}

func BenchmarkIsLegal(b *testing.B) {
	ps := benchPositions(b)
	var lists [3]MoveList
	for i, p := range ps {
		p.GenerateLegal(&lists[i])
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, p := range ps {
			for _, m := range lists[i].Slice() {
				if !p.IsLegal(m) {
					b.Fatal("legal move rejected")
				}
			}
		}
	}
}

// BenchmarkCopyMake measures the alternative design, copy-make (copy the
// position, make the move on the copy, drop it), against MakeUnmake.
func BenchmarkCopyMake(b *testing.B) {
	ps := benchPositions(b)
	var lists [3]MoveList
	for i, p := range ps {
		p.GenerateLegal(&lists[i])
	}
	var u Undo
	b.ReportAllocs()
	for b.Loop() {
		for i, p := range ps {
			for _, m := range lists[i].Slice() {
				q := *p
				q.MakeMove(m, &u)
			}
		}
	}
}
