package book

import (
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// The test positions of the Polyglot book format specification, each
// reached by the moves given (keys are the published values).
var keyVectors = []struct {
	moves string
	fen   string
	key   uint64
}{
	{"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c},
	{"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196},
	{"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0},
	{"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4},
	{"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78},
	{"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1},
	{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9},
	{"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637},
	{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560},
}

func TestKeyVectors(t *testing.T) {
	for _, v := range keyVectors {
		// From the FEN.
		p, err := chess.ParseFEN(v.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := Key(p); got != v.key {
			t.Errorf("Key(%s) = %016x, want %016x", v.fen, got, v.key)
		}
		// And by playing the moves, so incremental state agrees too.
		q := playUCI(t, v.moves)
		if got := Key(q); got != v.key {
			t.Errorf("Key after %q = %016x, want %016x", v.moves, got, v.key)
		}
	}
}

// A double push nobody can capture en passant keys like the same position
// without the en-passant square (Polyglot's rule), while a capturable one
// does not.
func TestKeyEnPassantOnlyWhenCapturable(t *testing.T) {
	with := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	without := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if Key(with) != Key(without) {
		t.Errorf("uncapturable ep square changed the key")
	}
	with = mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	without = mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
	if Key(with) == Key(without) {
		t.Errorf("capturable ep square did not change the key")
	}
}

func mustFEN(t testing.TB, fen string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// playUCI plays space-separated UCI moves from the start position.
func playUCI(t testing.TB, moves string) *chess.Position {
	t.Helper()
	p := chess.NewPosition()
	for _, s := range strings.Fields(moves) {
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		var u chess.Undo
		p.MakeMove(m, &u)
	}
	return p
}
