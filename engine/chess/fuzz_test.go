package chess

import (
	"strings"
	"testing"
)

// Fuzz targets: no input may panic; whatever parses must be usable (the
// parsed position generates moves, formats and re-parses to the same FEN).
// Seed corpora live in testdata/fuzz/<FuzzName>/ and include the broken
// suite lines listed in ../shared/data/README.md.

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{StartFEN, kiwipete, "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq -"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			if p != nil {
				t.Fatal("error with a position")
			}
			return
		}
		var ml MoveList
		p.GenerateLegal(&ml)
		if c := p.countLegal(); c != ml.N {
			t.Fatalf("countLegal %d != %d", c, ml.N)
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil {
			t.Fatalf("formatted FEN %q does not parse: %v", out, err)
		}
		if q.FEN() != out || q.Key() != p.Key() {
			t.Fatalf("FEN round trip changed %q to %q", out, q.FEN())
		}
		var u Undo
		for _, m := range ml.Slice() {
			p.MakeMove(m, &u)
			p.UnmakeMove(m, &u)
		}
		if p.FEN() != out {
			t.Fatal("make/unmake changed the position")
		}
	})
}

// fuzzPositions are the positions SAN/UCI fuzzing parses moves in.
func fuzzPositions(t *testing.T) []*Position {
	var ps []*Position
	for _, fen := range []string{StartFEN, kiwipete,
		"7k/P7/8/8/8/8/8/4K3 w - - 0 1",
		"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
		"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func FuzzParseSAN(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "exd6e.p.", "a8=Q+", "a8Q", "Ng1-f3", "Nbd2", "Qh4#", "e4!?", "Bc8-f5", "Ne6+ g4", "Kxe8??"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range fuzzPositions(t) {
			m, err := p.ParseSAN(s)
			if err != nil {
				if !strings.Contains(err.Error(), "move") {
					t.Fatalf("error %q does not say what failed", err)
				}
				continue
			}
			if !p.IsLegal(m) {
				t.Fatalf("ParseSAN(%q) returned illegal move %v", s, m)
			}
			if back, err := p.ParseSAN(p.SAN(m)); err != nil || back != m {
				t.Fatalf("SAN of %v does not round trip: %v", m, err)
			}
		}
	})
}

func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "e1g1", "e1h1", "0000", "a7a8n", "h9h1", "e2e4qq"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range fuzzPositions(t) {
			m, err := p.ParseUCI(s)
			if err != nil {
				continue
			}
			if !p.IsLegal(m) {
				t.Fatalf("ParseUCI(%q) returned illegal move %v", s, m)
			}
			if back, err := p.ParseUCI(m.UCI(p.Chess960())); err != nil || back != m {
				t.Fatalf("UCI of %v does not round trip: %v", m, err)
			}
		}
	})
}
