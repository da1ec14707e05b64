package pgn

import (
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// TestDeleteTag: a tag outside the Seven Tag Roster goes; a roster tag,
// which every game has, is reset to unknown, and Result with g.Result.
func TestDeleteTag(t *testing.T) {
	g := NewGame()
	g.SetTag("TimeControl", "300+3")
	g.SetTag("White", "Tal")
	g.SetTag("Date", "1960.03.15")
	g.SetTag("Result", WhiteWins)
	for _, name := range []string{"TimeControl", "White", "Date", "Result", "Absent"} {
		g.DeleteTag(name)
	}
	if len(g.Tags) != 7 || g.Tag("TimeControl") != "" || g.Tag("White") != "?" || g.Tag("Date") != "????.??.??" ||
		g.Tag("Result") != Unknown || g.Result != Unknown {
		t.Errorf("after deleting: %v, result %q", g.Tags, g.Result)
	}
}

func TestNodePly(t *testing.T) {
	g := NewGame()
	p := chess.NewPosition()
	n := g.Root
	for i, san := range []string{"e4", "e5", "Nf3"} {
		m, err := p.ParseMove(san)
		if err != nil {
			t.Fatal(err)
		}
		n = n.AddChild(m, san)
		var u chess.Undo
		p.MakeMove(m, &u)
		if n.Ply() != i+1 {
			t.Errorf("%s: ply %d, want %d", san, n.Ply(), i+1)
		}
	}
	if g.Root.Ply() != 0 {
		t.Errorf("root ply %d", g.Root.Ply())
	}
}
