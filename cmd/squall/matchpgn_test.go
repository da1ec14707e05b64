package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/match"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/referee"
)

// TestMatchGamePGN: a game from a Black-to-move opening lost on time is
// written numbered from the opening's move, with its setup, clock and
// termination tags, and its ending as a comment the pgn reader gives back,
// braces and all.
func TestMatchGamePGN(t *testing.T) {
	played := enginetest.GameFrom(t, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 7 40", "Kd7", "e4", "Kc6")
	start, moves := played.Start, played.Moves
	g := &match.Game{Number: 3, White: 1, Start: start, Moves: moves, Result: "0-1", Termination: referee.TimeForfeit,
		Detail: `White (Big "Q") loses by time forfeit: used 2s with 1s on the clock {sic}`,
		Date:   time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)}
	var b bytes.Buffer
	if err := writeMatchGame(&b, g, [2]string{"One", `Big "Q"`}, "", clock.TimeControl{Base: time.Second, Increment: 10 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	want := `[Event "Squall match"]
[Site "?"]
[Date "2024.05.06"]
[Round "3"]
[White "Big \"Q\""]
[Black "One"]
[Result "0-1"]
[SetUp "1"]
[FEN "4k3/4p3/8/8/8/8/4P3/4K3 b - - 7 40"]
[TimeControl "1+0.01"]
[PlyCount "3"]
[Termination "time forfeit"]

40... Kd7 41. e4 Kc6
;White (Big "Q") loses by time forfeit: used 2s with 1s on the clock {sic}
0-1

`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var read []*pgn.Game
	for pg, err := range pgn.NewReader(&b, "match.pgn").All() {
		if err != nil {
			t.Fatal(err)
		}
		read = append(read, pg)
	}
	if len(read) != 1 {
		t.Fatalf("%d games read back", len(read))
	}
	line := read[0].Mainline()
	if len(line) != 3 || line[2].Move != moves[2] || len(line[2].After) != 1 || line[2].After[0] != g.Detail {
		t.Errorf("read back %d moves, last comments %q", len(line), line[len(line)-1].After)
	}
}
