package chess

import (
	"errors"
	"strings"
	"testing"
)

// suiteFENs returns every position of the perft suites, as written there.
func suiteFENs(t *testing.T) []string {
	var fens []string
	for _, c := range loadEPDPerft(t, "testdata/perft/standard.epd") {
		fens = append(fens, c.fen)
	}
	for _, c := range loadEPDPerft(t, "testdata/perft/fischer960.epd") {
		fens = append(fens, c.fen)
	}
	return fens
}

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range suiteFENs(t) {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		if got := p.FEN(); got != fen {
			t.Errorf("round trip:\n got %s\nwant %s", got, fen)
		}
	}
}

func TestFENEPDDefaults(t *testing.T) {
	p, err := ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3")
	if err != nil {
		t.Fatal(err)
	}
	if p.HalfmoveClock() != 0 || p.FullmoveNumber() != 1 {
		t.Errorf("clocks = %d %d, want 0 1", p.HalfmoveClock(), p.FullmoveNumber())
	}
	if p.EnPassant() != MakeSquare(4, 2) {
		t.Errorf("ep = %v, want e3", p.EnPassant())
	}
}

func TestFENErrors(t *testing.T) {
	cases := []struct {
		fen   string
		field int
		words string
	}{
		{"", 0, "fields"},
		{"8/8/8/8/8/8/8/8 w - - 0", 0, "fields"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", 1, "8 ranks"},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, "bad piece letter"},
		{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, "rank 7 sums to 7"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, "bad piece letter"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", 1, "sums to 9"},
		{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 1, "black has 0 kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", 1, "white has 2 kings"},
		{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", 1, "pawn on the first or last rank"},
		{"4k3/8/8/8/8/8/8/4K2p w - - 0 1", 1, "pawn on the first or last rank"},
		{"QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/4K3 w - - 0 1", 1, "promoted"},
		{"4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", 1, "not to move (black) is in check"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", 2, "want w or b"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1", 3, "bad castling letter"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", 3, "no white rook"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", 1, "white has 0 kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", 3, "repeats"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", 1, "kings"},
		{"r2qr1k1/ppp2p1p/6p1/1NQp1b2/8/1P3p2/P2P1P2/n1BK1BR1 b KQkq - 0 1", 3, "no white rook to castle with"},
		{"rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kq - 0 1", 3, "not on its back rank"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", 4, "not on the 6th rank"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", 4, "not behind a black pawn"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", 4, "bad square"},
		{"3k4/1R6/1P2PNp1/7p/2n4P/8/4rPP1/6K1 w - -r1bk4/pp1p4/n2PpbN1/2P4B/4p2Q/8/Pq4PP/2R4K w - -", 0, "fields"},
		{"3k4/1R6/1P2PNp1/7p/2n4P/8/4rPP1/6K1 w - -r1bk4/pp1p4/n2PpbN1/2P4B/4p2Q/8/Pq4PP/2R4K", 4, "bad square"},
		{"[r1qr1b1k/5ppp/1p3N2/pPn1P3/P2p1PQ1/6RP/1B4P1/4R1K1 w - -", 1, "bad piece letter"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", 5, "want a number"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", 6, "want a number"},
	}
	for _, c := range cases {
		_, err := ParseFEN(c.fen)
		var fe *FENError
		if !errors.As(err, &fe) {
			t.Errorf("%q: got %v, want a FENError", c.fen, err)
			continue
		}
		if fe.Field != c.field || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%q: got %q (field %d), want field %d mentioning %q", c.fen, err, fe.Field, c.field, c.words)
		}
	}
}

func TestFENChess960Castling(t *testing.T) {
	// X-FEN: KQkq names the outermost rooks; an inner rook needs its file.
	p, err := ParseFEN("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Chess960() {
		t.Error("king on c1 should set up a Chess960 position")
	}
	if got := p.CastlingRook(White, true); got != E1 {
		t.Errorf("white kingside rook = %v, want e1", got)
	}
	if got := p.FEN(); !strings.Contains(got, " EAea ") {
		t.Errorf("FEN %s: want Shredder castling EAea", got)
	}
	// Standard squares with KQkq stay standard chess.
	if NewPosition().Chess960() {
		t.Error("start position reported as Chess960")
	}
}
