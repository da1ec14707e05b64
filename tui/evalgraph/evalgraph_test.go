package evalgraph

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/review"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/internal/tuitest"
	"github.com/squall-chess/squall/tui/view"
)

func styles() *view.Styles {
	return view.NewStyles(tuitest.Renderer(termenv.Ascii), themes.Monochrome(), false)
}

func cp(v int) Point { return Point{CP: v, Known: true} }

// TestRender: eight heights a row of bars, 0 in the middle,
// ±5 pawns and beyond at the cap, the lowest still drawn (▁) so that the
// unknown ply, blank, stands apart; the marker under the shown ply.
func TestRender(t *testing.T) {
	points := []Point{cp(0), cp(500), cp(900), {}, cp(-500), cp(-2000)}
	got := Render(styles(), points, 4, 6, 2)
	want := []string{"▄██ ▁▁", "────▲─"}
	if !slices.Equal(got, want) {
		t.Errorf("Render = %q, want %q", got, want)
	}
	// Two rows of bars: 0 fills the lower row, the zero line (▁) is drawn
	// over it where no bar rises through it, the unknown ply too.
	got = Render(styles(), []Point{cp(0), cp(500), cp(-500), {}}, 0, 4, 3)
	want = []string{"▁█▁▁", "██▁ ", "▲───"}
	if !slices.Equal(got, want) {
		t.Errorf("Render, two rows = %q, want %q", got, want)
	}
}

// TestRenderStretchAndSqueeze: a short game takes up to three columns a
// ply, marked in the middle one; a long one is squeezed into the width,
// each column its plies' last known point, the shown ply marked.
func TestRenderStretchAndSqueeze(t *testing.T) {
	got := Render(styles(), []Point{cp(0), cp(500)}, 1, 10, 2)
	if want := []string{"▄▄▄███    ", "────▲─    "}; !slices.Equal(got, want) {
		t.Errorf("stretched = %q, want %q", got, want)
	}
	var long []Point
	for i := range 40 {
		long = append(long, cp([]int{-500, 500}[i/20]))
	}
	long[39] = Point{} // the last column's last ply is unknown: its other is shown
	got = Render(styles(), long, 25, 4, 2)
	if want := []string{"▁▁██", "──▲─"}; !slices.Equal(got, want) {
		t.Errorf("squeezed = %q, want %q", got, want)
	}
	for _, l := range Render(styles(), long, 25, 100, 5) {
		if w := ansi.StringWidth(l); w != 100 {
			t.Errorf("line %q is %d cells, want 100", l, w)
		}
	}
}

// TestSwings: the biggest change of win% first, a change across an
// unknown ply not counted, small ones left out; NextSwing goes round them
// from the biggest.
func TestSwings(t *testing.T) {
	points := []Point{cp(0), cp(20), cp(-300), {}, cp(300), cp(900), cp(880), cp(-1000)}
	if got, want := Swings(points), []int{7, 2, 5}; !slices.Equal(got, want) {
		t.Fatalf("Swings = %v, want %v", got, want)
	}
	ply := 0
	var seen []int
	for range 4 {
		var ok bool
		if ply, ok = NextSwing(points, ply); !ok {
			t.Fatal("no swing")
		}
		seen = append(seen, ply)
	}
	if want := []int{7, 2, 5, 7}; !slices.Equal(seen, want) {
		t.Errorf("NextSwing from the start: %v, want %v", seen, want)
	}
	if _, ok := NextSwing([]Point{cp(0), cp(10), {}}, 0); ok {
		t.Error("a swing in a quiet game")
	}
}

// TestConversions: [%eval] and engine scores become White's view, mates
// at the review's ceiling; a bound is no score.
func TestConversions(t *testing.T) {
	if p := FromPGN(pgn.Eval{Kind: pgn.Mate, Value: -3}); p != (Point{CP: -review.Ceiling, Known: true}) {
		t.Errorf("#-3 = %+v", p)
	}
	if p := FromPGN(pgn.Eval{}); p.Known {
		t.Errorf("no eval is known: %+v", p)
	}
	if p := FromReview(review.Eval{CP: -1000, Over: true}); p.CP != -review.Ceiling {
		t.Errorf("0-1 = %+v", p)
	}
	e, ok := PGNEval(engine.Score{CP: 35}, chess.Black, 12)
	if !ok || e != (pgn.Eval{Kind: pgn.Centipawns, Value: -35, Depth: 12}) {
		t.Errorf("Black's +0.35 = %+v %v", e, ok)
	}
	if e, ok = PGNEval(engine.Score{Mate: 2}, chess.White, 5); !ok || e.Kind != pgn.Mate || e.Value != 2 {
		t.Errorf("White's #2 = %+v %v", e, ok)
	}
	if _, ok = PGNEval(engine.Score{CP: 50, Bound: engine.Lower}, chess.White, 5); ok {
		t.Error("a lower bound was taken for a score")
	}
}

// TestRenderEmpty: nothing to draw in no room; an empty game is one blank
// ply.
func TestRenderEmpty(t *testing.T) {
	if got := Render(styles(), nil, 0, 0, 3); got != nil {
		t.Errorf("width 0: %q", got)
	}
	if got := Render(styles(), nil, 0, 5, 2); strings.TrimSpace(got[0]) != "" || len(got) != 2 {
		t.Errorf("no points: %q", got)
	}
}
