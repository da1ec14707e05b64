package pgn

import (
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// TestSetClock: the time left is written as [%clk] after the move, beside
// the move's other commands, and reads back.
func TestSetClock(t *testing.T) {
	g := NewGame()
	p := chess.NewPosition()
	mv, err := p.ParseSAN("e4")
	if err != nil {
		t.Fatal(err)
	}
	n := g.Root.AddChild(mv, "e4")
	n.Commands = &Commands{Other: []string{"[%cal Ge2e4]"}}
	n.SetClock(3*time.Minute + 2*time.Second)
	n.SetClock(3*time.Minute + 1*time.Second) // the last one counts
	text := g.String()
	if !strings.Contains(text, "1. e4 {[%clk 0:03:01] [%cal Ge2e4]} *") {
		t.Fatalf("written as:\n%s", text)
	}
	var back *Game
	for g, err := range Games(strings.NewReader(text)) {
		if err != nil {
			t.Fatal(err)
		}
		back = g
	}
	c := back.Root.Children[0].Commands
	if c == nil || !c.HasClock || c.Clock != 3*time.Minute+time.Second {
		t.Errorf("read back %+v", c)
	}
}
