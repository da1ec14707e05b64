package gamelist

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/view"
)

// positionAfter is the position after the moves of a game's text.
func positionAfter(t *testing.T, moves string) *chess.Position {
	t.Helper()
	g, err := pgn.NewReader(strings.NewReader(moves+" *\n"), "").Next()
	if err != nil {
		t.Fatal(err)
	}
	line := g.Mainline()
	p, err := g.PositionAfter(line[len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// reaching replays every game of data and returns the numbers of those
// whose main line reaches p, with the SAN each played next ("end": none),
// and whose tags f's other criteria select: the brute force the list must
// equal.
func reaching(t *testing.T, data []byte, p *chess.Position, f pgn.Filter) ([]int, []string) {
	t.Helper()
	var nums []int
	var next []string
	num := 0
	for g, err := range pgn.Games(bytes.NewReader(data)) {
		num++
		if err != nil {
			continue
		}
		n, ok := g.ReachesAt(p)
		if !ok || !f.MatchTags(g.Tag, g.Result) {
			continue
		}
		nums = append(nums, num)
		if n == nil {
			next = append(next, "end")
		} else {
			next = append(next, n.SAN)
		}
	}
	return nums, next
}

// TestListPosition (issue 36, find by position): the board's Y filters the
// list to the games that reach its position, any move order, each with the
// move it played next: the games a replay of the whole file finds by
// pgn.Game.ReachesAt. It holds whether the list's rows or the replay's
// verdicts arrive first, with a tag criterion beside the position, and
// after a game was opened and the list shown again.
func TestListPosition(t *testing.T) {
	path, data := copyTWIC(t)
	l := open(t, path, testEnv())
	for _, c := range []struct{ moves, query string }{
		{"1. e4 e5 2. Nf3 Nc6", ""},
		{"1. d4 Nf6 2. c4 e6", ""},
		{"1. Nf3 Nf6 2. c4", ""}, // reached by 1. c4 Nf6 2. Nf3 as well
		{"1. e4 c5", "carlsen "},
	} {
		p := positionAfter(t, c.moves)
		if c.query == "" {
			_, cmd := l.Update(view.PositionMsg{FEN: p.FEN()})
			run(t, l, cmd)
		} else {
			press(t, l, "/", "ctrl+u")
			l.input.SetValue(c.query + "fen=" + p.FEN())
			press(t, l, "enter")
		}
		if l.err != nil || l.pos.running {
			t.Fatalf("%s: err %v, running %v", c.moves, l.err, l.pos.running)
		}
		want, wantNext := reaching(t, data, p, l.filter)
		if len(want) < 2 || len(want) == 232 {
			t.Fatalf("%s: %d games reach it: the test proves little", c.moves, len(want))
		}
		got := l.Shown()
		var gotNext []string
		for _, num := range got {
			gotNext = append(gotNext, l.nextMove(&l.rows[num-1]))
		}
		if !slices.Equal(got, want) || !slices.Equal(gotNext, wantNext) {
			t.Errorf("%s %q: list shows %v %v, want %v %v", c.moves, c.query, got, gotNext, want, wantNext)
		}
		screen := l.View(100, 30)
		if !strings.Contains(screen, "Next") || !strings.Contains(screen, wantNext[0]) {
			t.Errorf("%s: the Next column is not on the screen:\n%s", c.moves, screen)
		}
	}

	// The replay's verdicts first, then the rows.
	p := positionAfter(t, "1. e4 e5 2. Nf3 Nc6")
	want, _ := reaching(t, data, p, pgn.Filter{})
	l2 := New(testEnv(), path)
	_, cmd := l2.Update(view.PositionMsg{FEN: p.FEN()})
	run(t, l2, cmd)
	if len(l2.rows) != 0 || len(l2.pos.reached) != len(want) {
		t.Fatalf("replay alone: %d rows, %d found, want 0 and %d", len(l2.rows), len(l2.pos.reached), len(want))
	}
	run(t, l2, l2.Init())
	if got := l2.Shown(); !slices.Equal(got, want) {
		t.Errorf("verdicts before rows: %v, want %v", got, want)
	}

	// Opening a game stops the search; shown again, the list searches on.
	l2.pos.running, l2.pos.done = false, false
	l2.pos.reached = map[int64]uint16{}
	l2.refilter()
	run(t, l2, l2.Init())
	if got := l2.Shown(); !slices.Equal(got, want) {
		t.Errorf("after a search left unfinished: %v, want %v", got, want)
	}
	l2.Close()

	// esc clears the position, and the Next column goes.
	press(t, l, "esc")
	if l.filter.Position != nil || len(l.Shown()) != 232 || strings.Contains(l.View(100, 30), "Next") {
		t.Errorf("esc: position %v, %d shown", l.filter.Position, len(l.Shown()))
	}
}
