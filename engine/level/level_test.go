package level

import (
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
)

// TestHasElo: an engine limits its strength by Elo when it offers both
// UCI_LimitStrength (which switches the limit on) and UCI_Elo, whatever
// their case (UCI: option names are not case sensitive) — the board's
// rule, which the server's seats now share (issue 34, R5).
func TestHasElo(t *testing.T) {
	limit, elo := engine.Option{Name: "UCI_LimitStrength", Type: "check"}, engine.Option{Name: "UCI_Elo", Type: "spin", Min: 500, Max: 3000}
	for _, c := range []struct {
		name string
		opts []engine.Option
		want bool
	}{
		{"both", []engine.Option{limit, elo}, true},
		{"lower case", []engine.Option{{Name: "uci_limitstrength", Type: "check"}, {Name: "uci_elo", Type: "spin"}}, true},
		{"no switch", []engine.Option{elo}, false},
		{"no Elo", []engine.Option{limit}, false},
		{"none", nil, false},
	} {
		if got := HasElo(&enginetest.Engine{Opts: c.opts}); got != c.want {
			t.Errorf("%s: HasElo %v, want %v", c.name, got, c.want)
		}
	}
}
