package play

import "testing"

// TestPlays: a player's handle is theirs in any case and look-alike
// spelling (as handles are told apart), no one else's; no handle plays.
func TestPlays(t *testing.T) {
	p := Players{White: "ann", Black: "Bob"}
	for h, want := range map[string]bool{"ann": true, "ANN": true, "bob": true, "B0b": true, "eve": false, "": false, "annie": false} {
		if got := p.Plays(h); got != want {
			t.Errorf("Plays(%q) = %v, want %v", h, got, want)
		}
	}
	if (Players{}).Plays("") {
		t.Error("no handle plays a game without players")
	}
}
