package pgn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/squall-chess/squall/engine/chess"
)

// fileCounts are the games read without error and the games with an error
// in each test file, counted by reading the files: black2move.pgn castles
// queenside with the queen still on d8, corrupted.pgn stops mid-move ("Kx"),
// the first game of each malformed/ file is broken (a tag value or a
// variation never closed), every other game is legal.
var fileCounts = map[string][2]int{
	"chess-library/backslash_header.pgn":                                    {1, 0},
	"chess-library/basic.pgn":                                               {1, 0},
	"chess-library/black2move.pgn":                                          {0, 1},
	"chess-library/book.pgn":                                                {1, 0},
	"chess-library/castling.pgn":                                            {1, 0},
	"chess-library/comment_before_moves.pgn":                                {1, 0},
	"chess-library/corrupted.pgn":                                           {0, 1},
	"chess-library/empty_body.pgn":                                          {2, 0},
	"chess-library/multiple.pgn":                                            {4, 0},
	"chess-library/newline.pgn":                                             {1, 0},
	"chess-library/no_moves.pgn":                                            {1, 0},
	"chess-library/no_moves_but_comment_followed_by_termination_marker.pgn": {2, 0},
	"chess-library/no_moves_but_game_termination.pgn":                       {1, 0},
	"chess-library/no_moves_but_game_termination_2.pgn":                     {1, 0},
	"chess-library/no_moves_but_game_termination_3.pgn":                     {1, 0},
	"chess-library/no_moves_but_game_termination_multiple.pgn":              {2, 0},
	"chess-library/no_moves_but_game_termination_multiple_2.pgn":            {3, 0},
	"chess-library/no_moves_two_games.pgn":                                  {2, 0},
	"chess-library/no_result.pgn":                                           {1, 0},
	"chess-library/non_ascii.pgn":                                           {1, 0},
	"chess-library/skip.pgn":                                                {2, 0},
	"chess-library/square_bracket_in_header.pgn":                            {1, 0},
	"chess-library/threefold_repetition.pgn":                                {1, 0},
	"chess-library/unescaped_quote_header.pgn":                              {1, 0},
	"chess-library/variations.pgn":                                          {1, 0},
	"encoding/latin1.pgn":                                                   {1, 0},
	"malformed/unclosed_tag.pgn":                                            {1, 1},
	"malformed/unclosed_variation.pgn":                                      {1, 1},
	"notnil-chess/0001.pgn":                                                 {1, 0},
	"notnil-chess/0002.pgn":                                                 {1, 0},
	"notnil-chess/0003.pgn":                                                 {1, 0},
	"notnil-chess/0004.pgn":                                                 {1, 0},
	"notnil-chess/0005.pgn":                                                 {1, 0},
	"notnil-chess/0006.pgn":                                                 {5, 0},
	"notnil-chess/0007.pgn":                                                 {5, 0},
	"notnil-chess/0008.pgn":                                                 {1, 0},
	"notnil-chess/0009.pgn":                                                 {1, 0},
	"notnil-chess/0010.pgn":                                                 {1, 0},
	"notnil-chess/0011.pgn":                                                 {1, 0},
	"notnil-chess/0012.pgn":                                                 {1, 0},
	"notnil-chess/0013.pgn":                                                 {3, 0},
	"notnil-chess/0014.pgn":                                                 {5, 0},
	"notnil-chess/0015.pgn":                                                 {1, 0},
	"pgn-parser/32games.pgn":                                                {32, 0},
	"pgn-parser/twic-01-232games.pgn":                                       {232, 0},
}

func testFiles(t testing.TB) []string {
	files, err := filepath.Glob("testdata/*/*.pgn")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	return files
}

func readAll(t testing.TB, name string, data []byte) (games []*Game, errs []error) {
	t.Helper()
	for g, err := range NewReader(bytes.NewReader(data), name).All() {
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%s: read error %v", name, err)
			}
			errs = append(errs, err)
			continue
		}
		games = append(games, g)
	}
	return games, errs
}

func TestFiles(t *testing.T) {
	files := testFiles(t)
	if len(files) != len(fileCounts) {
		t.Errorf("%d files in testdata, %d in the table", len(files), len(fileCounts))
	}
	for _, f := range files {
		key := filepath.ToSlash(strings.TrimPrefix(f, "testdata"+string(filepath.Separator)))
		want, ok := fileCounts[key]
		if !ok {
			t.Errorf("%s: not in the table", key)
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, errs := readAll(t, key, data)
		if len(games) != want[0] || len(errs) != want[1] {
			t.Errorf("%s: %d games, %d errors; want %d, %d (%v)", key, len(games), len(errs), want[0], want[1], errs)
		}
		for _, err := range errs {
			var pe *Error
			errors.As(err, &pe)
			// A broken move names the move; a malformed file's problem
			// is in no move.
			if pe.File != key || pe.Line < 1 || pe.Col < 1 || (pe.Move == "") != strings.HasPrefix(key, "malformed/") {
				t.Errorf("%s: error lacks position or move: %#v", key, pe)
			}
			if !strings.HasPrefix(err.Error(), key+":") {
				t.Errorf("%s: error text %q", key, err)
			}
		}
	}
}

func TestCorruptedPositions(t *testing.T) {
	data, err := os.ReadFile("testdata/chess-library/corrupted.pgn")
	if err != nil {
		t.Fatal(err)
	}
	_, errs := readAll(t, "corrupted.pgn", data)
	if len(errs) != 1 || errs[0].Error() != "corrupted.pgn:57:25: move 63. Kx: not a move in SAN" {
		t.Fatalf("errors %v", errs)
	}
	// The broken game between good ones: the good ones all survive.
	good, _ := os.ReadFile("testdata/notnil-chess/0001.pgn")
	var buf bytes.Buffer
	buf.Write(good)
	buf.WriteString("\n\n")
	buf.Write(data)
	buf.WriteString("\n\n")
	buf.Write(good)
	var got []string
	for g, err := range Games(&buf) {
		switch {
		case err != nil:
			got = append(got, "error")
			if g == nil || len(g.Mainline()) != 124 {
				t.Errorf("partial game should keep the 124 plies before the error")
			}
		default:
			got = append(got, g.Tag("White"))
		}
	}
	if want := []string{"Kasparov", "error", "Kasparov"}; !reflect.DeepEqual(got, want) {
		t.Errorf("games %v, want %v", got, want)
	}
}

func TestTolerance(t *testing.T) {
	const in = "\xEF\xBB\xBF[Event \"A\"]\r\n[White \"Smith, John \"The King\"\"]\r\n\r\n" +
		"% escape line 1. e4\r\n" +
		"1.e4 e5 2.Nf3?! ; line comment }\r\n" +
		"2...Nc6!! 3.Bc4 Nf6 4.0-0 {a {nested? no} $7 Be7 (4...Bc5!? $1 5.c3) e7e8Q\n\n" +
		"[Event \"B\"]\n\n1. e4 *\n"
	var games []*Game
	var errs []error
	for g, err := range Games(strings.NewReader(in)) {
		games = append(games, g)
		errs = append(errs, err)
	}
	if len(games) != 2 || errs[1] != nil {
		t.Fatalf("got %d games, errors %v", len(games), errs)
	}
	g := games[0]
	if g.Tag("Event") != "A" || g.Tag("White") != `Smith, John "The King"` {
		t.Errorf("tags %q", g.Tags)
	}
	var pe *Error
	if !errors.As(errs[0], &pe) || pe.Move != "5. e7e8Q" || pe.Col != 70 || pe.Line != 6 {
		t.Errorf("want the illegal e7e8Q on line 6 reported, got %v", errs[0])
	}
	line := g.Mainline()
	var sans []string
	for _, n := range line {
		sans = append(sans, n.SAN)
	}
	if want := "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7"; strings.Join(sans, " ") != want {
		t.Errorf("mainline %q, want %q", sans, want)
	}
	if !reflect.DeepEqual(line[2].NAGs, []uint8{6}) || line[2].After[0] != "line comment }" {
		t.Errorf("Nf3: NAGs %v, comments %q", line[2].NAGs, line[2].After)
	}
	if !reflect.DeepEqual(line[3].NAGs, []uint8{3}) {
		t.Errorf("Nc6 NAGs %v", line[3].NAGs)
	}
	if !reflect.DeepEqual(line[6].NAGs, []uint8{7}) || line[6].After[0] != "a {nested? no" {
		t.Errorf("O-O: NAGs %v, comments %q", line[6].NAGs, line[6].After)
	}
	vars := line[6].Children
	if len(vars) != 2 || vars[1].SAN != "Bc5" || !reflect.DeepEqual(vars[1].NAGs, []uint8{5, 1}) || vars[1].Next().SAN != "c3" {
		t.Errorf("variation after O-O wrong: %+v", vars)
	}
	if games[1].Tag("Event") != "B" || len(games[1].Mainline()) != 1 {
		t.Errorf("second game %v", games[1])
	}
}

func TestCommandsAndChess960(t *testing.T) {
	const in = `[Variant "Chess960"]
[FEN "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"]

1. g3 {[%clk 0:03:00.5] [%eval -0.35,18] good [%cal Ra1a8]} g6 {[%eval #-3] [%emt 0:00:02]}
2. O-O O-O 1/2-1/2
`
	games, errs := readAll(t, "960", []byte(in))
	if len(errs) != 0 || len(games) != 1 {
		t.Fatalf("games %d errors %v", len(games), errs)
	}
	g := games[0]
	line := g.Mainline()
	c := line[0].Commands
	if !c.HasClock || c.Clock != 3*time.Minute+500*time.Millisecond || c.Eval != (Eval{Centipawns, -35, 18}) ||
		!reflect.DeepEqual(c.Other, []string{"[%cal Ra1a8]"}) || !reflect.DeepEqual(line[0].After, []string{"good"}) {
		t.Errorf("commands %+v, comments %q", c, line[0].After)
	}
	if c := line[1].Commands; c.Eval != (Eval{Mate, -3, 0}) || !c.HasEMT || c.EMT != 2*time.Second {
		t.Errorf("black commands %+v", c)
	}
	if line[2].SAN != "O-O" || !line[2].Move.IsCastle() {
		t.Errorf("Chess960 castling read as %q", line[2].SAN)
	}
	p, err := g.PositionAfter(line[len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	if p.Piece(chess.G1) != chess.MakePiece(chess.White, chess.King) || p.Piece(chess.F1) != chess.MakePiece(chess.White, chess.Rook) {
		t.Errorf("after castling: %s", p.FEN())
	}
	if g.Result != Draw || g.Tag("Result") != Draw {
		t.Errorf("result %q", g.Result)
	}
}

func TestBadInputsReported(t *testing.T) {
	for _, tc := range []struct{ in, reason string }{
		{"1. e4 e5 2. Ke3 *", "move 2. Ke3"},
		{"1. e4 {never closed\n[Event \"x\"]\n1. d4 *", "comment not closed"},
		{"[Variant \"Atomic\"]\n\n1. e4 *", "unsupported variant"},
		{"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *", "FEN tag"},
		{"1. e4 e5 2. Nc3 Nc6 3. N3e2 *", "3. N3e2"}, // no knight on the 3rd rank? c3 is: not ambiguous
		{"( 1. e4 ) *", "variation"},
		{"1. e4 $999 *", "NAG"},
	} {
		_, errs := readAll(t, "x.pgn", []byte(tc.in))
		if tc.reason == "3. N3e2" {
			if len(errs) != 0 {
				t.Errorf("%q: %v", tc.in, errs)
			}
			continue
		}
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), tc.reason) {
			t.Errorf("%q: errors %v, want one mentioning %q", tc.in, errs, tc.reason)
		}
	}
	// The game after an unclosed comment is still read.
	games, _ := readAll(t, "x.pgn", []byte("1. e4 {never closed\n[Event \"x\"]\n1. d4 *"))
	if len(games) != 1 || games[0].Tag("Event") != "x" {
		t.Errorf("game after the unclosed comment lost")
	}
}

// TestIndexMatchesGames checks that skimming finds the same games at the
// same places as full parsing, and that ReadGameAt reopens each of them.
func TestIndexMatchesGames(t *testing.T) {
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := Index(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var all []*Game
		var bad []bool
		for g, err := range NewReader(bytes.NewReader(data), f).All() {
			if g == nil {
				t.Fatalf("%s: %v", f, err)
			}
			all = append(all, g)
			bad = append(bad, err != nil)
		}
		if len(entries) != len(all) {
			t.Fatalf("%s: %d entries, %d games", f, len(entries), len(all))
		}
		for i, e := range entries {
			g := all[i]
			if e.Offset != g.Offset || e.Line != g.Line || e.Result != g.Result || e.Tag("White") != g.Tag("White") && e.Tag("White") != "" {
				t.Errorf("%s game %d: entry %+v, game at %d line %d result %s", f, i, e, g.Offset, g.Line, g.Result)
			}
			// A game read whole counts its main line's moves as skimming
			// did (one with a problem stops at it; skimming does not).
			if plies := len(g.Mainline()); !bad[i] && e.Plies != plies {
				t.Errorf("%s game %d (line %d): skimmed %d plies, read %d", f, i, g.Line, e.Plies, plies)
			}
			g2, err2 := ReadGameAt(bytes.NewReader(data), e, f)
			if g2 == nil || !sameGame(g, g2) {
				t.Errorf("%s game %d: ReadGameAt differs (%v)", f, i, err2)
			}
		}
	}
}

func sameGame(a, b *Game) bool {
	return reflect.DeepEqual(a.Tags, b.Tags) && a.Result == b.Result && a.Line == b.Line && a.Offset == b.Offset && sameTree(a.Root, b.Root)
}

func sameTree(a, b *Node) bool {
	if a.SAN != b.SAN || a.Move != b.Move || !reflect.DeepEqual(a.NAGs, b.NAGs) ||
		!reflect.DeepEqual(a.Before, b.Before) || !reflect.DeepEqual(a.After, b.After) ||
		!reflect.DeepEqual(a.Commands, b.Commands) || len(a.Children) != len(b.Children) {
		return false
	}
	for i := range a.Children {
		if a.Children[i].Parent != a || b.Children[i].Parent != b || !sameTree(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}

// TestRoundTrip: parse → write → parse gives the same tree, and
// write → parse → write the same bytes, for every game in the test files.
func TestRoundTrip(t *testing.T) {
	n := 0
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, _ := readAll(t, f, data)
		for i, g := range games {
			out, err := AppendGame(nil, g)
			if err != nil {
				t.Fatalf("%s game %d: %v", f, i, err)
			}
			back, errs := readAll(t, "out", out)
			if len(back) != 1 || len(errs) != 0 {
				t.Fatalf("%s game %d: rereading gave %d games, %v\n%s", f, i, len(back), errs, out)
			}
			g2 := back[0]
			g2.Offset, g2.Line = g.Offset, g.Line
			if !sameGame(g, g2) {
				t.Errorf("%s game %d: tree changed after write\n%s", f, i, out)
			}
			out2, _ := AppendGame(nil, g2)
			if !bytes.Equal(out, out2) {
				t.Errorf("%s game %d: second write differs:\n%s\n---\n%s", f, i, out, out2)
			}
			for _, l := range strings.Split(string(out), "\n") {
				if len(l) > lineWidth && !strings.HasPrefix(l, "[") && !strings.Contains(l, ";") {
					t.Errorf("%s game %d: line over 80 columns: %q", f, i, l)
				}
			}
			n++
		}
	}
	if n < 300 {
		t.Errorf("only %d games round-tripped", n)
	}
}

func TestWriteFormat(t *testing.T) {
	const in = `[Black "B"] [White "W \\ \"x\""] [Foo "bar"]

{start} 1. e4 $1 {[%clk 0:01:00]} e5 (1... c5 {sicilian} 2. Nf3) (1... e6) 2. Nf3 {a} 2... Nc6 *`
	games, errs := readAll(t, "w", []byte(in))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	g := games[0]
	g.Root.Next().After = append(g.Root.Next().After, "has } brace")
	want := `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "W \\ \"x\""]
[Black "B"]
[Result "*"]
[Foo "bar"]

{start} 1. e4 $1 ;[%clk 0:01:00] has } brace
1... e5 (1... c5 {sicilian} 2. Nf3) (1... e6) 2. Nf3 {a} 2... Nc6 *

`
	if got := g.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back, _ := readAll(t, "w", []byte(g.String()))
	if !sameTree(back[0].Root, g.Root) {
		t.Errorf("';' comment did not read back")
	}
}

func TestReadErrorStops(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("1. e4 e5 *\n1. d4"), &failReader{boom}), "f.pgn")
	g, err := r.Next()
	if err != nil || len(g.Mainline()) != 2 {
		t.Fatalf("first game: %v", err)
	}
	if g, err := r.Next(); g != nil || !errors.Is(err, boom) {
		t.Fatalf("want the read error, got %v, %v", g, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("read error not sticky: %v", err)
	}
}

type failReader struct{ err error }

func (f *failReader) Read([]byte) (int, error) { return 0, f.err }

// TestCanonicalSAN checks the reader's SAN against chess.Position.SAN for
// every move, variations included, of every test game.
func TestCanonicalSAN(t *testing.T) {
	n := 0
	for _, f := range testFiles(t) {
		data, _ := os.ReadFile(f)
		games, _ := readAll(t, f, data)
		for _, g := range games {
			n += checkSAN(t, f, g)
		}
	}
	if n < 20000 {
		t.Errorf("only %d moves checked", n)
	}
}

// checkSAN replays every move of g and checks its SAN is what
// chess.Position.SAN writes and parses back to the move; it returns the
// number of moves checked.
func checkSAN(t testing.TB, name string, g *Game) int {
	t.Helper()
	p, err := g.StartPosition()
	if err != nil {
		return 0
	}
	n := 0
	var walk func(*Node)
	walk = func(node *Node) {
		for _, c := range node.Children {
			var u chess.Undo
			if c.Move == chess.NullMove {
				if c.SAN != "--" {
					t.Errorf("%s: null move written %q", name, c.SAN)
				}
				p.MakeNullMove(&u)
				walk(c)
				p.UnmakeNullMove(&u)
				continue
			}
			if want := p.SAN(c.Move); c.SAN != want {
				t.Errorf("%s: %q, want %q", name, c.SAN, want)
			} else if m, err := p.ParseSAN(c.SAN); err != nil || m != c.Move {
				t.Errorf("%s: %q parses as %v, %v", name, c.SAN, m, err)
			}
			p.MakeMove(c.Move, &u)
			walk(c)
			p.UnmakeMove(c.Move, &u)
			n++
		}
	}
	walk(g.Root)
	return n
}

// TestEditingKeepsNeighbours: the reader hands out NAG, comment and child
// lists carved from shared chunks; growing one of them (as an editor does)
// must not write into another node or game.
func TestEditingKeepsNeighbours(t *testing.T) {
	const in = "1. e4 $1 {a} (1. d4 $2 {b}) e5 {[%cal Ra1a8] c} *\n\n" +
		"1. d4 $3 {d} (1. c4 $4 {e}) d5 {[%csl Ga1] f} *\n"
	orig, _ := readAll(t, "x", []byte(in))
	games, _ := readAll(t, "x", []byte(in))
	for _, g := range games {
		for _, n := range []*Node{g.Root.Children[0], g.Root.Children[1], g.Root.Next().Next()} {
			n.NAGs = append(n.NAGs, 99)
			n.After = append(n.After, "edited")
			if n.Commands != nil {
				n.Commands.Other = append(n.Commands.Other, "[%x]")
			}
		}
		g.Root.AddChild(chess.NullMove, "--")
		g.Root.Next().AddChild(chess.NullMove, "--")
	}
	for i, g := range games {
		o := orig[i]
		for j, n := range []*Node{g.Root.Children[0], g.Root.Children[1], g.Root.Next().Next()} {
			on := []*Node{o.Root.Children[0], o.Root.Children[1], o.Root.Next().Next()}[j]
			if !reflect.DeepEqual(n.NAGs, append(on.NAGs[:len(on.NAGs):len(on.NAGs)], 99)) ||
				!reflect.DeepEqual(n.After, append(on.After[:len(on.After):len(on.After)], "edited")) {
				t.Errorf("game %d node %d: NAGs %v, comments %q", i, j, n.NAGs, n.After)
			}
			if n.Commands != nil && len(n.Commands.Other) != len(on.Commands.Other)+1 {
				t.Errorf("game %d node %d: commands %v", i, j, n.Commands.Other)
			}
		}
		if len(g.Root.Children) != 3 || g.Root.Children[2].SAN != "--" || g.Root.Children[1].SAN != o.Root.Children[1].SAN {
			t.Errorf("game %d: root children %v", i, g.Root.Children)
		}
	}
}

// TestAllocationsPerGame: reading allocates per game (the Game, its tags
// and its text) and per chunk of moves, not per move, comment, NAG,
// clock or variation.
func TestAllocationsPerGame(t *testing.T) {
	for _, f := range []string{"testdata/pgn-parser/twic-01-232games.pgn", "testdata/notnil-chess/0005.pgn", "testdata/chess-library/variations.pgn"} {
		one, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		one = append(one, "\n\n"...)
		games, _ := readAll(t, f, one)
		moves := 0
		for _, g := range games {
			var count func(*Node)
			count = func(n *Node) {
				for _, c := range n.Children {
					moves++
					count(c)
				}
			}
			count(g.Root)
		}
		reps := max(2, (50+len(games)-1)/len(games)) // warm-up is per reader, not per game
		data := bytes.Repeat(one, reps)
		allocs := testing.AllocsPerRun(3, func() {
			for range NewReader(bytes.NewReader(data), "").All() {
			}
		})
		// A budget that allocating once a move, or even once every
		// few moves, would break.
		budget := float64(reps) * float64(10*len(games)+moves/16)
		t.Logf("%s: %d games, %d moves: %.0f allocations (budget %.0f)", f, len(games)*reps, moves*reps, allocs, budget)
		if allocs > budget {
			t.Errorf("%s: %.0f allocations for %d games and %d moves", f, allocs, len(games)*reps, moves*reps)
		}
	}
}

// TestReaderKeepsOneGame: once a game has been read and dropped, nothing
// the reader holds may keep it alive, or memory would grow with the file
// (storage chunks shared between games once chained every game to the one
// before). Each game must be collectable once the next one is read.
func TestReaderKeepsOneGame(t *testing.T) {
	var data []byte
	for _, f := range []string{"testdata/notnil-chess/0005.pgn", "testdata/chess-library/variations.pgn", "testdata/pgn-parser/32games.pgn"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = append(append(data, b...), "\n\n"...)
	}
	data = bytes.Repeat(data, 2)
	var seen []weak.Pointer[Node]
	for g, err := range NewReader(bytes.NewReader(data), "").All() {
		if err != nil {
			t.Fatal(err)
		}
		last := g.Root
		for last.Next() != nil {
			last = last.Next()
		}
		seen = append(seen, weak.Make(last))
		if k := len(seen) - 2; k >= 0 {
			runtime.GC()
			if seen[k].Value() != nil {
				t.Fatalf("game %d still alive after reading game %d", k+1, k+2)
			}
		}
	}
	if len(seen) < 60 {
		t.Fatalf("only %d games", len(seen))
	}
}

// TestCommandForms: embedded commands are read whatever their spacing;
// unknown, malformed and repeated ones are kept verbatim (collapsed).
func TestCommandForms(t *testing.T) {
	for _, tc := range []struct {
		comment string
		want    Commands
		text    []string
	}{
		{"[%clk 0:01:02]", Commands{Clock: 62 * time.Second, HasClock: true}, nil},
		{"[% clk  0:01:02 ] x", Commands{Clock: 62 * time.Second, HasClock: true}, []string{"x"}},
		{"a [%clk\n1:00:00.25]\tb", Commands{Clock: time.Hour + 250*time.Millisecond, HasClock: true}, []string{"a b"}},
		{"[%eval -0.5] [%eval 1.0]", Commands{Eval: Eval{Centipawns, -50, 0}, Other: []string{"[%eval 1.0]"}}, nil},
		{"[%clks 1] [%clk x] [%cal  Ra1a8,Rb2b4,Rc3c5,Rd4d6,Re5e7,Rf6f8]", Commands{Other: []string{
			"[%clks 1]", "[%clk x]", "[%cal Ra1a8,Rb2b4,Rc3c5,Rd4d6,Re5e7,Rf6f8]"}}, nil},
		{"[%emt 0:00:05] [%eval #-3,20]", Commands{EMT: 5 * time.Second, HasEMT: true, Eval: Eval{Mate, -3, 20}}, nil},
	} {
		games, errs := readAll(t, "c", []byte("1. e4 {"+tc.comment+"} *"))
		if len(errs) != 0 {
			t.Fatalf("%q: %v", tc.comment, errs)
		}
		n := games[0].Root.Next()
		if n.Commands == nil || !reflect.DeepEqual(*n.Commands, tc.want) || !reflect.DeepEqual(n.After, tc.text) {
			t.Errorf("%q: commands %+v, text %q; want %+v, %q", tc.comment, n.Commands, n.After, tc.want, tc.text)
		}
	}
}

// TestCommentWhitespace: a comment is trimmed and each run of ASCII
// whitespace becomes one space; other spaces (U+00A0 in French text) are
// text, kept through a write and a read.
func TestCommentWhitespace(t *testing.T) {
	const in = "1. e4 {  Très\u00a0bien :\r\n\t le\u00a0 centre } ( {\n avant } 1. d4 {} ) *"
	games, errs := readAll(t, "w", []byte(in))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	g := games[0]
	e4, d4 := g.Root.Children[0], g.Root.Children[1]
	if want := []string{"Très\u00a0bien : le\u00a0 centre"}; !reflect.DeepEqual(e4.After, want) {
		t.Errorf("comment %q, want %q", e4.After, want)
	}
	if !reflect.DeepEqual(d4.Before, []string{"avant"}) || !reflect.DeepEqual(d4.After, []string{""}) {
		t.Errorf("variation comments %q, %q", d4.Before, d4.After)
	}
	back, _ := readAll(t, "w", []byte(g.String()))
	if !sameTree(back[0].Root, g.Root) {
		t.Errorf("comments changed by a write:\n%s", g.String())
	}
}

// TestLeadingCommentWithoutTags: a game with no tags that begins with a
// comment lost the comment's text (the first token was read before the
// game was begun and its text dropped).
func TestLeadingCommentWithoutTags(t *testing.T) {
	g, err := NewReader(strings.NewReader("{Before it all.} 1. e4 e5 *\n"), "c.pgn").Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Root.After; len(got) != 1 || got[0] != "Before it all." {
		t.Errorf("the leading comment read as %q", got)
	}
}
