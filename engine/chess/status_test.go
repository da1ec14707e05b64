package chess

import "testing"

// TestCanMate: the material that can mate by some series of legal moves,
// which decides whether a flag loses (FIDE 6.9).
func TestCanMate(t *testing.T) {
	for _, c := range []struct {
		fen          string
		white, black bool
	}{
		{StartFEN, true, true},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false},  // bare kings
		{"4k3/8/8/8/8/8/8/3NK3 w - - 0 1", false, false}, // a knight against a bare king
		{"4k3/8/8/8/8/8/8/3BK3 w - - 0 1", false, false}, // a bishop likewise
		{"4k3/4p3/8/8/8/8/8/3NK3 w - - 0 1", true, true}, // a knight, and a pawn to block with
		{"4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", true, false}, // two knights: a helpmate exists
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", true, false}, // a pawn may promote
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, false},
		{"4k3/8/8/8/8/8/8/3QK2q w - - 0 1", true, true},
	} {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if p.CanMate(White) != c.white || p.CanMate(Black) != c.black {
			t.Errorf("%s: White %v, Black %v; want %v, %v", c.fen, p.CanMate(White), p.CanMate(Black), c.white, c.black)
		}
	}
	if White.Name() != "White" || Black.Name() != "Black" {
		t.Error("colour names")
	}
}
