package boardview

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/themes"
)

func renderer(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(&strings.Builder{})
	r.SetColorProfile(p)
	r.SetHasDarkBackground(true)
	return r
}

func classic(t testing.TB) themes.Theme {
	t.Helper()
	th, ok := themes.ByName(themes.Default)
	if !ok {
		t.Fatal("no default theme")
	}
	return th
}

func fen(t testing.TB, s string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// play returns the position after the moves and the last of them.
func play(t testing.TB, p *chess.Position, moves ...string) (*chess.Position, chess.Move) {
	t.Helper()
	p = p.Clone()
	var last chess.Move
	var u chess.Undo
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m, &u)
		last = m
	}
	return p, last
}

// cellText is what Board drew in the middle line of square s (monochrome,
// so the text has no codes), found through SquareAt's geometry.
func cellText(t *testing.T, board string, flipped bool, sz Size, s chess.Square) string {
	t.Helper()
	lines := strings.Split(board, "\n")
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			x, y := col*sz.W, row*sz.H+sz.H/2
			if got, ok := SquareAt(flipped, sz, x, y); ok && got == s {
				r := []rune(lines[y])
				return string(r[RankLabelWidth+x : RankLabelWidth+x+sz.W])
			}
		}
	}
	t.Fatalf("square %v is not on the board", s)
	return ""
}

// TestBoardPiecesWhereTheyStand draws a position in every size and both
// orientations and reads every square back through SquareAt: each shows
// its own piece (FEN letter without colour) and nothing else.
func TestBoardPiecesWhereTheyStand(t *testing.T) {
	p := fen(t, "r3k2r/ppq2ppp/2n1bn2/3pp3/1b1PP3/2N1BN2/PPQ2PPP/R3KB1R b KQkq - 3 9")
	pt := New(renderer(termenv.Ascii), themes.Monochrome(), Glyphs)
	for _, sz := range Sizes() {
		for _, flipped := range []bool{false, true} {
			sc := NewScene(p)
			sc.Flipped = flipped
			board := pt.Board(sc, sz)
			if n := strings.Count(board, "\n") + 1; n != sz.Height() {
				t.Errorf("size %v: %d lines, want %d", sz, n, sz.Height())
			}
			for _, l := range strings.Split(board, "\n") {
				if w := lipgloss.Width(l); w != sz.Width() {
					t.Errorf("size %v: line %q is %d wide, want %d", sz, l, w, sz.Width())
				}
			}
			for s := chess.Square(0); s < 64; s++ {
				want := "." // empty dark squares are dotted
				if (s.File()+s.Rank())%2 == 1 {
					want = " "
				}
				if pc := p.Piece(s); pc != chess.NoPiece {
					want = string(pc.Letter())
				}
				got := cellText(t, board, flipped, sz, s)
				if mid := string([]rune(got)[sz.W/2]); mid != want {
					t.Errorf("size %v flipped %v: %v shows %q, want %q", sz, flipped, s, got, want)
				}
			}
		}
	}
}

// TestBoardCoordinates: rank labels down the side and file letters below,
// in the board's orientation.
func TestBoardCoordinates(t *testing.T) {
	pt := New(renderer(termenv.Ascii), themes.Monochrome(), Letters)
	sc := NewScene(chess.NewPosition())
	board := pt.Board(sc, Size{3, 1})
	lines := strings.Split(board, "\n")
	if lines[0][:2] != "8 " || lines[7][:2] != "1 " || lines[8] != "   a  b  c  d  e  f  g  h " {
		t.Errorf("white's view coordinates:\n%s", board)
	}
	sc.Flipped = true
	lines = strings.Split(pt.Board(sc, Size{3, 1}), "\n")
	if lines[0][:2] != "1 " || lines[7][:2] != "8 " || lines[8] != "   h  g  f  e  d  c  b  a " {
		t.Errorf("black's view coordinates:\n%s", strings.Join(lines, "\n"))
	}
}

// TestBoardMonochromeMarkers: without colour, markers around the piece
// stand for the highlights, the more urgent one winning a square.
func TestBoardMonochromeMarkers(t *testing.T) {
	// After 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#: Black is mated.
	p, last := play(t, chess.NewPosition(), "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
	pt := New(renderer(termenv.Ascii), themes.Monochrome(), Glyphs)
	sz := Size{5, 2}
	sq := func(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }

	sc := NewScene(p)
	sc.Last = last
	board := pt.Board(sc, sz)
	for s, want := range map[string]string{
		"h5": "{   }", // the move's origin
		"f7": "{ Q }", // its destination
		"e8": "> k <", // the king in check
		"e4": "  P  ",
		"a1": "..R..",
	} {
		if got := cellText(t, board, false, sz, sq(s)); got != want {
			t.Errorf("%s = %q, want %q", s, got, want)
		}
	}

	// White to move in a quiet position: select the knight and show its
	// targets, one of them a capture; the cursor beats every other marker.
	p, _ = play(t, chess.NewPosition(), "e4", "d5", "Nc3")
	p, last = play(t, p, "d4")
	sc = NewScene(p)
	sc.Last = last
	sc.Selected = sq("c3")
	for _, s := range []string{"b1", "a4", "b5", "d5", "e2"} {
		sc.Targets |= chess.SquareBB(sq(s))
	}
	sc.Cursor = sq("e4")
	board = pt.Board(sc, sz)
	for s, want := range map[string]string{
		"c3": ">.N.<", // selected
		"b5": "  ·  ", // an empty target (light square)
		"a4": "  ·  ",
		"d4": "{.p.}", // the last move's destination (dark square: dotted)
		"e4": "[ P ]", // the cursor, on a piece
		"d5": "{ · }", // the last move's origin, now a target
	} {
		if got := cellText(t, board, false, sz, sq(s)); got != want {
			t.Errorf("%s = %q, want %q", s, got, want)
		}
	}
	sc.Targets |= chess.SquareBB(sq("d4")) // as if the pawn could be taken
	board = pt.Board(sc, sz)
	if got := cellText(t, board, false, sz, sq("d4")); got != "(.p.)" {
		t.Errorf("a capture target that is also the last move: %q, want the capture marker", got)
	}
}

// drawn reports whether square s's middle line in the lines of a board
// (white at the bottom) of squares sz is text with background bg and
// foreground fg: after the rank label, each square is one styled run.
func drawn(pt *Painter, lines []string, sz Size, s chess.Square, bg, fg themes.Color, text string) bool {
	c := pt.cell(bg, fg)
	runs := strings.SplitAfter(lines[(7-s.Rank())*sz.H+sz.H/2], c.close)
	return len(runs) == 10 && runs[1+s.File()] == c.open+text+c.close
}

// TestBoardColours: each highlight draws its square in the theme's colour,
// with the piece in its side's colour, and the more urgent highlight wins.
func TestBoardColours(t *testing.T) {
	th := classic(t)
	pt := New(renderer(termenv.TrueColor), th, Glyphs)
	sq := func(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }
	p, last := play(t, chess.NewPosition(), "e4", "f5", "Qh5+")
	sc := NewScene(p)
	sc.Last = last
	sc.Hint, _ = p.ParseMove("g6")
	sc.Cursor = sq("g7") // the hint's origin: the cursor wins
	sz := Size{3, 1}
	board := pt.Board(sc, sz)
	lines := strings.Split(board, "\n")
	has := func(s string, bg, fg themes.Color, text string) bool {
		return drawn(pt, lines, sz, sq(s), bg, fg, text)
	}
	for _, c := range []struct {
		sq, text string
		bg, fg   themes.Color
	}{
		{"e8", " ♚ ", th.Check, th.BlackPiece},     // Black's king in check (light square)
		{"d1", "   ", th.LastLight, th.WhitePiece}, // the last move's origin
		{"h5", " ♛ ", th.LastLight, th.WhitePiece}, // and its destination
		{"g6", "   ", th.Hint, th.WhitePiece},      // the hint's destination
		{"g7", "[●]", th.Cursor, th.BlackPiece},    // cursor over the hint
		{"a1", " ♜ ", th.Dark, th.WhitePiece},
		{"b1", " ♞ ", th.Light, th.WhitePiece},
	} {
		if !has(c.sq, c.bg, c.fg, c.text) {
			t.Errorf("%s not drawn %q on %s in %s:\n%q", c.sq, c.text, c.bg, c.fg, lines[7-sq(c.sq).Rank()])
		}
	}
	if plain := ansi.Strip(board); strings.Contains(plain, "{") {
		t.Errorf("colour board draws monochrome markers:\n%s", plain)
	}
}

// TestBoardColourProfiles: the same board for two terminals differs only
// in the codes each profile allows.
func TestBoardColourProfiles(t *testing.T) {
	th := classic(t)
	sc := NewScene(chess.NewPosition())
	tc := New(renderer(termenv.TrueColor), th, Letters).Board(sc, Size{5, 2})
	c256 := New(renderer(termenv.ANSI256), th, Letters).Board(sc, Size{5, 2})
	if !strings.Contains(tc, ";48;2;") || strings.Contains(c256, ";48;2;") || !strings.Contains(c256, "48;5;") {
		t.Errorf("profiles not respected: true colour %t, 256 colours %t/%t",
			strings.Contains(tc, ";48;2;"), strings.Contains(c256, ";48;2;"), strings.Contains(c256, "48;5;"))
	}
	if ansi.Strip(tc) != ansi.Strip(c256) {
		t.Error("the text of the board depends on the colour profile")
	}
	// Letters in colour are in FEN case too (issue 18): the side reads
	// without telling colours apart.
	if plain := ansi.Strip(tc); !strings.Contains(plain, "R    N    B    Q    K") || !strings.Contains(plain, "r    n    b    q    k") {
		t.Errorf("letters in colour:\n%s", plain)
	}
}

// TestOutlineTheme: an Outline theme (high-contrast) draws both sides in
// its piece colour, White as outlines and Black filled.
func TestOutlineTheme(t *testing.T) {
	th, ok := themes.ByName("high-contrast")
	if !ok || !th.Outline {
		t.Fatal("high-contrast is not an outline theme")
	}
	plain := ansi.Strip(New(renderer(termenv.TrueColor), th, Glyphs).Board(NewScene(chess.NewPosition()), Size{5, 2}))
	for _, want := range []string{"♖", "♘", "♔", "○", "♜", "♞", "♚", "●"} {
		if !strings.Contains(plain, want) {
			t.Errorf("no %s on the board:\n%s", want, plain)
		}
	}
}

func TestSquareAtOutside(t *testing.T) {
	sz := Size{5, 2}
	for _, xy := range [][2]int{{-1, 0}, {0, -1}, {8 * 5, 0}, {0, 8 * 2}} {
		if _, ok := SquareAt(false, sz, xy[0], xy[1]); ok {
			t.Errorf("cell %v is off the board", xy)
		}
	}
	if s, ok := SquareAt(true, sz, 0, 0); !ok || s != chess.MakeSquare(7, 0) {
		t.Errorf("flipped top-left = %v, want h1", s)
	}
}

func TestLandingOfCastling(t *testing.T) {
	p := fen(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for mv, want := range map[string]string{"O-O": "g1", "O-O-O": "c1", "Ra2": "a2"} {
		m, err := p.ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		if got := Landing(m).String(); got != want {
			t.Errorf("%s lands on %s, want %s", mv, got, want)
		}
	}
}

// TestWinningChances checks the logistic against its tanh form:
// 2/(1+e^(−k·cp))−1 = tanh(k·cp/2).
func TestWinningChances(t *testing.T) {
	for _, cp := range []int{-3000, -450, -100, -1, 0, 1, 35, 100, 300, 1200} {
		want := math.Tanh(0.00368 * float64(cp) / 2)
		if got := WinningChances(cp); math.Abs(got-want) > 1e-12 {
			t.Errorf("WinningChances(%d) = %v, want %v", cp, got, want)
		}
	}
	for s, want := range map[engine.Score]float64{{Mate: 3}: 1, {Mate: -1}: -1, {CP: 0}: 0} {
		if got := ScoreChances(s); got != want {
			t.Errorf("ScoreChances(%v) = %v, want %v", s, got, want)
		}
	}
}

func TestEvalBar(t *testing.T) {
	pt := New(renderer(termenv.Ascii), themes.Monochrome(), Glyphs)
	count := func(bar []string) (white int, top string) {
		for _, c := range bar {
			if c == "#" {
				white++
			}
		}
		return white, bar[0]
	}
	for _, c := range []struct {
		chances float64
		white   int
	}{{-1, 0}, {0, 8}, {1, 16}, {WinningChances(300), 12}} {
		for _, flipped := range []bool{false, true} {
			bar := pt.EvalBar(16, c.chances, flipped)
			w, top := count(bar)
			if len(bar) != 16 || w != c.white {
				t.Errorf("chances %.2f: %d of %d white, want %d", c.chances, w, len(bar), c.white)
			}
			// White's share grows from White's side of the board.
			if c.white > 0 && c.white < 16 {
				if wantTop := map[bool]string{false: "|", true: "#"}[flipped]; top != wantTop {
					t.Errorf("chances %.2f flipped %v: top cell %q, want %q", c.chances, flipped, top, wantTop)
				}
			}
		}
	}
	colour := New(renderer(termenv.TrueColor), classic(t), Glyphs).EvalBar(4, 0, false)
	if ansi.Strip(colour[0]) != " " || colour[0] == colour[3] {
		t.Errorf("colour bar: %q", colour)
	}
}

// BenchmarkBoard draws the 7×3 board of a middlegame with a last move and
// targets in true colour, as the TUI does on every frame.
func BenchmarkBoard(b *testing.B) {
	p, last := play(b, chess.NewPosition(), "d4", "Nf6", "c4", "e6", "Nc3", "Bb4")
	pt := New(renderer(termenv.TrueColor), classic(b), Glyphs)
	sc := NewScene(p)
	sc.Last = last
	sc.Selected, _ = chess.ParseSquare("c3")
	sc.Targets = chess.SquareBB(chess.MakeSquare(1, 4)) | chess.SquareBB(chess.MakeSquare(0, 3))
	pt.Board(sc, Size{7, 3}) // the codes are made once per painter
	b.ReportAllocs()
	for b.Loop() {
		_ = pt.Board(sc, Size{7, 3})
	}
}

// TestWinningChancesValues: lichess's figures for its eval bar.
func TestWinningChancesValues(t *testing.T) {
	for _, c := range []struct {
		cp   int
		want float64
	}{{0, 0}, {100, 0.1819}, {-100, -0.1819}, {300, 0.5021}, {1000, 0.9509}} {
		if got := WinningChances(c.cp); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("WinningChances(%d) = %.4f, want %.4f", c.cp, got, c.want)
		}
	}
}

// TestBarChances: the one fill the board and the rooms draw — the side
// to move's score turned to White's view, mates at the ends, a mated side
// to move without any line, nothing without a line.
func TestBarChances(t *testing.T) {
	pos := func(fen string) *chess.Position {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	black := pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	for _, c := range []struct {
		name string
		p    *chess.Position
		best *engine.Score
		want float64
	}{
		{"no line", chess.NewPosition(), nil, 0},
		{"White +3", chess.NewPosition(), &engine.Score{CP: 300}, WinningChances(300)},
		{"Black to move +3", black, &engine.Score{CP: 300}, WinningChances(-300)},
		{"Black mates", black, &engine.Score{Mate: 2}, -1},
		{"White is mated", pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"), nil, -1},
		{"Black is mated", pos("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"), nil, 1},
	} {
		if got := BarChances(c.p, c.best); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestColor(t *testing.T) {
	classic, _ := themes.ByName("classic")
	a := classic.Accent
	if got, want := Color(a), (lipgloss.AdaptiveColor{Light: string(a.Light), Dark: string(a.Dark)}); got != want || a.Light == "" {
		t.Errorf("Color(classic accent) = %v, want %v", got, want)
	}
	if got := Color(themes.Monochrome().Text); got != (lipgloss.NoColor{}) {
		t.Errorf("Color(monochrome text) = %v, want the terminal's own", got)
	}
}

// marks are an annotator's: a red square, a green arrow up a file, a blue
// knight's arrow and a yellow diagonal ending on a piece.
func testMarks(t *testing.T) []pgn.Mark {
	t.Helper()
	sq := func(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }
	return []pgn.Mark{
		{Colour: 'R', From: sq("d4"), To: chess.NoSquare},
		{Colour: 'G', From: sq("e2"), To: sq("e4")},
		{Colour: 'B', From: sq("g1"), To: sq("f3")},
		{Colour: 'Y', From: sq("a3"), To: sq("c5")},
	}
}

// TestBoardMarksMonochrome: without colour, a marked square is filled
// with its colour's pattern and each square of an arrow after its tail
// shows the way it came in, the knight's as its L; flipped, the arrows
// point the other way on the screen. The cursor's brackets still win.
func TestBoardMarksMonochrome(t *testing.T) {
	pt := New(renderer(termenv.Ascii), themes.Monochrome(), Glyphs)
	sz := Size{5, 2}
	sq := func(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }
	p := fen(t, "rnbqkbnr/pppp1ppp/8/2p5/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") // a black pawn on c5
	sc := NewScene(p)
	sc.Marks = testMarks(t)
	for _, flipped := range []bool{false, true} {
		sc.Flipped = flipped
		board := pt.Board(sc, sz)
		want := map[string]string{
			"d4": "!!!!!", // the red square
			"e2": "++P++", // the green arrow's tail
			"e3": "++↑++",
			"e4": "++↑++", // its head
			"g1": "==N==", // the knight's arrow: g2, g3, then left to f3
			"g2": "==P↑=", // beside the pawn it crosses
			"g3": "==↑==",
			"f3": "==←==",
			"b4": "~~↗~~",
			"c5": "~~p↗~", // the head on a piece
			"a2": "  P  ", // unmarked
		}
		if flipped {
			for s, v := range want {
				want[s] = strings.NewReplacer("↑", "↓", "←", "→", "↗", "↙").Replace(v)
			}
		}
		for s, w := range want {
			if got := cellText(t, board, flipped, sz, sq(s)); got != w {
				t.Errorf("flipped %v: %s = %q, want %q", flipped, s, got, w)
			}
		}
	}
	sc.Flipped = false
	sc.Cursor = sq("e4")
	if got := cellText(t, pt.Board(sc, sz), false, sz, sq("e4")); got != "[+↑+]" {
		t.Errorf("cursor on the arrow's head: %q, want the cursor's brackets", got)
	}
}

// TestBoardMarksColour: a marked square and an arrow's squares are
// tinted in the theme's mark colours, the arrow's direction drawn on
// them; the cursor and a king in check win their squares.
func TestBoardMarksColour(t *testing.T) {
	th := classic(t)
	pt := New(renderer(termenv.TrueColor), th, Glyphs)
	sq := func(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }
	p := fen(t, "rnbqkbnr/pppp1ppp/8/2p5/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	sc := NewScene(p)
	sc.Marks = testMarks(t)
	sc.Cursor = sq("g3")
	sz := Size{3, 1}
	lines := strings.Split(pt.Board(sc, sz), "\n")
	has := func(s string, bg, fg themes.Color, text string) bool {
		return drawn(pt, lines, sz, sq(s), bg, fg, text)
	}
	for _, c := range []struct {
		sq, text string
		bg, fg   themes.Color
	}{
		{"d4", "   ", th.MarkRed, th.WhitePiece},
		{"e2", " ● ", th.MarkGreen, th.WhitePiece},
		{"e3", " ↑ ", th.MarkGreen, th.WhitePiece},
		{"e4", " ↑ ", th.MarkGreen, th.WhitePiece},
		{"g1", " ♞ ", th.MarkBlue, th.WhitePiece},
		{"g2", " ●↑", th.MarkBlue, th.WhitePiece},
		{"g3", "[↑]", th.Cursor, th.WhitePiece}, // the cursor wins
		{"f3", " ← ", th.MarkBlue, th.WhitePiece},
		{"c5", " ●↗", th.MarkYellow, th.BlackPiece},
		{"a2", " ● ", th.Light, th.WhitePiece},
	} {
		if !has(c.sq, c.bg, c.fg, c.text) {
			t.Errorf("%s not drawn %q on %s in %s:\n%q", c.sq, c.text, c.bg, c.fg, lines[7-sq(c.sq).Rank()])
		}
	}
	if plain := ansi.Strip(strings.Join(lines, "\n")); strings.ContainsAny(plain, "+!~=") {
		t.Errorf("colour board draws monochrome patterns:\n%s", plain)
	}
}

// TestArrowPaths: every arrow's path runs square by square from its tail
// to its head, each step one square in each direction at most, a
// knight's in three steps.
func TestArrowPaths(t *testing.T) {
	for from := chess.Square(0); from < 64; from++ {
		for to := chess.Square(0); to < 64; to++ {
			if from == to {
				continue
			}
			df, dr := to.File()-from.File(), to.Rank()-from.Rank()
			n := arrowSteps(df, dr)
			prev := from
			for i := 1; i <= n; i++ {
				s := arrowSquare(from, df, dr, i, n)
				if abs(s.File()-prev.File()) > 1 || abs(s.Rank()-prev.Rank()) > 1 || s == prev {
					t.Fatalf("%v→%v: step %d from %v to %v", from, to, i, prev, s)
				}
				prev = s
			}
			if prev != to {
				t.Fatalf("%v→%v ends on %v", from, to, prev)
			}
		}
	}
}
