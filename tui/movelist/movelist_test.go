package movelist

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/internal/tuitest"
)

// longPGN is a 60-ply game (Kasparov–Topalov, Wijk aan Zee 1999, to
// 30... Qc4) with comments and variations, some nested, one on the last
// move.
const longPGN = `[Event "Hoogovens"]
[White "Kasparov"]
[Black "Topalov"]

{Kasparov's immortal.} 1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5
7. Nge2 Nbd7 8. Bh6 Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 12. Kb1 a6
13. Nc1 O-O-O 14. Nb3 exd4 15. Rxd4 c5 16. Rd1 Nb6 17. g3 Kb8 18. Na5 Ba8
19. Bh3 d5 20. Qf4+ Ka7 21. Rhe1 d4 22. Nd5 Nbxd5 23. exd5 Qd6
24. Rxd4 $3 {The rook is given up, for an attack that lasts to the end.}
(24. Bf1 {was quieter} Kb8 (24... Rhe8 25. Rxe8) 25. Bg2) 24... cxd4 25. Re7+ Kb6
26. Qxd4+ Kxa5 27. b4+ Ka4 28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 Qc4 (30... Rhe8 31. Rb6) *
`

// readGame reads the one game in text.
func readGame(t testing.TB, text string) *pgn.Game {
	t.Helper()
	g, err := pgn.NewReader(strings.NewReader(text), "test.pgn").Next()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func testStyles(p termenv.Profile) Styles {
	r := tuitest.Renderer(p)
	return Styles{Text: r.NewStyle(), Muted: r.NewStyle().Faint(true), Selected: r.NewStyle().Reverse(true)}
}

// checkFits fails the test if a row is wider than width or there are more
// than height rows.
func checkFits(t *testing.T, what string, rows []string, width, height int) {
	t.Helper()
	if len(rows) > height {
		t.Errorf("%s: %d rows, want at most %d", what, len(rows), height)
	}
	for _, r := range rows {
		if w := lipgloss.Width(r); w > width {
			t.Errorf("%s: a row %d cells wide: %q", what, w, ansi.Strip(r))
		}
	}
}

// TestNewestMoveAlwaysShown: with no current move given, both layouts
// show the newest move, whatever the width (20 to 200 cells) and height
// (1 to 10 rows), also after the list was scrolled elsewhere.
func TestNewestMoveAlwaysShown(t *testing.T) {
	g := readGame(t, longPGN)
	st := testStyles(termenv.Ascii)
	for width := 20; width <= 200; width++ {
		for height := 1; height <= 10; height++ {
			for _, layout := range []struct {
				name string
				draw func(*List, Styles, Game, int, int) []string
			}{{"Columns", (*List).Columns}, {"Running", (*List).Running}} {
				var l List
				// Scrolled to the start first, as a list that showed the
				// first move and then got the rest would be.
				layout.draw(&l, st, Game{Root: g.Root, Current: g.Root.Next()}, width, height)
				rows := layout.draw(&l, st, Game{Root: g.Root}, width, height)
				what := fmt.Sprintf("%s at %d×%d", layout.name, width, height)
				checkFits(t, what, rows, width, height)
				if v := strings.Join(rows, "\n"); !strings.Contains(v, "Qc4◂") {
					t.Fatalf("%s: the newest move, Qc4, is not shown:\n%s", what, v)
				}
			}
		}
	}
}

// TestCurrentMoveShown: a current move that is not the newest (in the main
// line and in a variation) is shown and marked, and the list goes back
// to the newest when asked.
func TestCurrentMoveShown(t *testing.T) {
	g := readGame(t, longPGN)
	st := testStyles(termenv.Ascii)
	main := g.Mainline()
	bf1 := main[45].Children[1] // 24. Bf1, the variation's first move
	for width := 20; width <= 120; width += 7 {
		for height := 1; height <= 10; height++ {
			var cols, run List
			for _, c := range []struct {
				node *pgn.Node
				want string
			}{{main[11], "b5◂"}, {main[0], "e4◂"}, {main[40], "Rhe1◂"}, {nil, "Qc4◂"}, {nil, "Bf1"}} {
				if c.want == "Bf1" {
					c.node = bf1
				}
				game := Game{Root: g.Root, Current: c.node}
				what := fmt.Sprintf("%s at %d×%d", c.want, width, height)
				rows := cols.Columns(st, game, width, height)
				checkFits(t, "Columns, "+what, rows, width, height)
				wantCol := c.want
				if c.want == "Bf1" {
					wantCol = "▸24. Bf1"
				}
				if v := strings.Join(rows, "\n"); !strings.Contains(v, wantCol) {
					t.Errorf("Columns, %s: not shown:\n%s", what, v)
				}
				if c.want == "Bf1" {
					continue // Running draws the main line only
				}
				rows = run.Running(st, game, width, height)
				checkFits(t, "Running, "+what, rows, width, height)
				if v := strings.Join(rows, "\n"); !strings.Contains(v, c.want) {
					t.Errorf("Running, %s: not shown:\n%s", what, v)
				}
			}
		}
	}
}

// TestRunningText: the running layout numbers White's moves and a row
// that begins with Black's ("23… Qd6"), marks rows left out with "…", and
// keeps the current move's row in view.
func TestRunningText(t *testing.T) {
	g := readGame(t, longPGN)
	st := testStyles(termenv.Ascii)
	var l List
	got := l.Running(st, Game{Root: g.Root}, 40, 3)
	want := []string{
		"… 23… Qd6 24. Rxd4!! cxd4 25. Re7+ Kb6",
		"26. Qxd4+ Kxa5 27. b4+ Ka4 28. Qc3",
		"28… Qxd5 29. Ra7 Bb7 30. Rxb7 Qc4◂",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the newest rows at 40×3:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A current move before them: the rows that hold it, "…" on both sides.
	mid := l.Running(st, Game{Root: g.Root, Current: g.Mainline()[29]}, 40, 1)
	if len(mid) != 1 || !strings.HasPrefix(mid[0], "… ") || !strings.HasSuffix(mid[0], " …") || !strings.Contains(mid[0], "c5◂") {
		t.Errorf("15... c5 at 40×1: %q", mid)
	}
	all := l.Running(st, Game{Root: g.Root}, 1000, 3)
	if len(all) != 1 || !strings.HasPrefix(all[0], "1. e4 d6 2. d4") || strings.Contains(all[0], "…") {
		t.Errorf("the whole game on one row: %q", all)
	}
	for _, r := range l.Running(st, Game{Root: g.Root}, 40, 3) {
		if f := strings.Fields(r); f[0] != "…" && !strings.HasSuffix(f[0], ".") && !strings.HasSuffix(f[0], "…") {
			t.Errorf("a row begins without a move number: %q", r)
		}
	}
	start := l.Running(st, Game{Root: g.Root, Current: g.Root}, 40, 2)
	if !strings.HasPrefix(start[0], "1. e4 d6") || !strings.HasSuffix(start[1], "…") {
		t.Errorf("the start position: %q", start)
	}
	if got := l.Running(st, Game{Root: &pgn.Node{}, Empty: "start position"}, 40, 3); len(got) != 1 || got[0] != "start position" {
		t.Errorf("no moves: %q", got)
	}
}

// TestNumbers: one numbering rule, the lists' and the lines'.
func TestNumbers(t *testing.T) {
	if a, b := Number(0), Number(23); a != "1." || b != "12…" {
		t.Errorf("Number: %q %q", a, b)
	}
	p := chess.NewPosition()
	var line []chess.Move
	q := p.Clone()
	var u chess.Undo
	for _, s := range []string{"e4", "e5", "Nf3"} {
		m, err := q.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		line = append(line, m)
		q.MakeMove(m, &u)
	}
	if got := strings.Join(Line(p, line), " "); got != "1. e4 e5 2. Nf3" {
		t.Errorf("Line from the start: %q", got)
	}
	if got := strings.Join(Line(q, []chess.Move{line[0]}), " "); got != "" {
		t.Errorf("an illegal line: %q", got)
	}
	p.MakeMove(line[0], &u)
	fen := p.FEN()
	if got := strings.Join(Line(p, line[1:]), " "); got != "1… e5 2. Nf3" {
		t.Errorf("Line from Black's move: %q", got)
	}
	if p.FEN() != fen {
		t.Errorf("Line changed the position: %s, was %s", p.FEN(), fen)
	}
	sans := []string{"e5", "Nf3"}
	if got := strings.Join(Numbered(1, sans), " "); got != "1… e5 2. Nf3" || sans[0] != "e5" {
		t.Errorf("Numbered from Black's move: %q (its input now %q)", got, sans)
	}
	root := FromSANs([]string{"e4", "e5"})
	if At(root, 2).SAN != "e5" || At(root, 0) != root || At(root, 9).SAN != "e5" {
		t.Error("FromSANs/At")
	}
}

// TestColumnsGolden: the board's layout of a game with comments and
// variations, the current move in a variation.
func TestColumnsGolden(t *testing.T) {
	g := readGame(t, longPGN)
	main := g.Mainline()
	var l List
	game := Game{Root: g.Root, Current: main[45].Children[1].Next(),
		Tail: func(w int) []string { return []string{"(the tail)"} }}
	rows := l.Columns(testStyles(termenv.TrueColor), game, 36, 12)
	tuitest.Golden(t, tuitest.GoldenDir(), "columns", strings.Join(rows, "\n"))
	rows = l.Columns(testStyles(termenv.TrueColor), Game{Root: g.Root, Tail: game.Tail}, 36, 40)
	tuitest.Golden(t, tuitest.GoldenDir(), "columns-all", strings.Join(rows, "\n"))
}

// TestAnnotationsShown: the glyphs of the move's and the position's
// assessment after the move, comments as text (no braces) after a move,
// before a variation's first move and before the first move, wrapped, and
// a file's control characters in a comment never reach the terminal.
func TestAnnotationsShown(t *testing.T) {
	g := readGame(t, "{Before the first move.} 1. e4 $1 $14 {A comment long enough to wrap in a narrow list.} e5 $6 $19 "+
		"(1... c5 {the Sicilian\x1b[2J} 2. Nf3 $5) ({Also} 1... e6 $13) 2. Nf3 $18 $10 *")
	rows := new(List).Columns(testStyles(termenv.Ascii), Game{Root: g.Root, Current: g.Root}, 30, 20)
	text := ansi.Strip(strings.Join(rows, "\n"))
	for _, want := range []string{"Before the first move.", "e4!⩲", "A comment long enough", "e5?!−+", "c5 the Sicilian", "Nf3!?", "Also 1… e6∞", "Nf3+−="} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.ContainsAny(text, "{}\x1b") {
		t.Errorf("braces or an escape in\n%s", text)
	}
	checkFits(t, "annotated", rows, 30, 20)
}

func TestNAGSymbol(t *testing.T) {
	if got := NAGSymbol([]uint8{5, 16, 22}); got != "!?±" {
		t.Errorf("NAGSymbol = %q", got)
	}
	for _, g := range Glyphs {
		if NAGSymbol([]uint8{g.NAG}) != g.Symbol || g.ASCII == "" || g.Name == "" {
			t.Errorf("glyph %+v", g)
		}
	}
}
