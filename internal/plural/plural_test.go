package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "game", "0 games"},
		{1, "game", "1 game"},
		{2, "game", "2 games"},
		{1, "ply", "1 ply"},
		{40, "ply", "40 plies"},
		{2, "day", "2 days"},
		{3, "epoch", "3 epochs"},
		{2, "time loss", "2 time losses"},
		{2, "try", "2 tries"},
		{2, "illegal move", "2 illegal moves"},
		{-1, "point", "-1 points"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := Count(uint64(1), "node"); got != "1 node" {
		t.Errorf("Count(uint64(1), node) = %q", got)
	}
	if got := Noun(5, "game"); got != "games" {
		t.Errorf("Noun(5, game) = %q", got)
	}
}
