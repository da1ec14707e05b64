package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/engine/tablebase/tbtest"
	"github.com/squall-chess/squall/tui/view"
)

// panelText is the side panel's text (the columns right of the eval bar)
// of a plain view, line by line, trailing spaces cut.
func panelText(m Model) string {
	g, _ := m.geometry()
	from := rankLabelWidth + 8*g.w + view.EvalBarWidth
	var out []string
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		r := []rune(l)
		if len(r) > from {
			out = append(out, strings.TrimRight(string(r[from:]), " "))
		}
	}
	return strings.Join(out, "\n")
}

// TestOpeningName: the panel names the opening of the shown line, in full
// where it fits and by its family where it does not; the name stays,
// muted, once the game leaves the list; the start position has none.
func TestOpeningName(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	if m.know.hasOpen || strings.Contains(panelText(m), "Pawn Game") {
		t.Fatalf("start position named %v", m.know.opening)
	}
	m = playAll(t, m, "e4", "e5", "Nf3", "Nc6", "Bb5")
	if p := panelText(m); !strings.Contains(p, "\nC60 Ruy Lopez\n") {
		t.Errorf("1. e4 e5 2. Nf3 Nc6 3. Bb5 not named C60 Ruy Lopez:\n%s", p)
	}
	m = playAll(t, m, "a6")
	if p := panelText(m); !strings.Contains(p, "\nC70 Ruy Lopez: Morphy Defense\n") {
		t.Errorf("3... a6 not named C70 Ruy Lopez: Morphy Defense:\n%s", p)
	}
	// 4. Ke2?? is in no list: the line keeps its name, shown muted.
	m = playAll(t, m, "Ke2")
	if _, named := opening.Lookup(m.pos); named {
		t.Fatal("test premise: 4. Ke2 is named")
	}
	if p := panelText(m); !strings.Contains(p, "\nC70 Ruy Lopez: Morphy Defense\n") || m.know.inTheory {
		t.Errorf("after leaving the list: in theory %v\n%s", m.know.inTheory, p)
	}
	// Back to the start: no name.
	m = send(m, press("esc"), press("up"))
	if m.know.hasOpen {
		t.Errorf("start position named %v after navigation", m.know.opening)
	}

	// The Italian's classical line is too long for 80 columns' panel
	// (33 cells): it takes two rows there, the whole name (W8: the
	// family alone disagreed with the saved game's tag), and one at 120.
	m = newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3")
	if p := panelText(m); !strings.Contains(p, "\nC53 Italian Game: Classical\nVariation\n") {
		t.Errorf("80 columns: want the whole name on two rows:\n%s", p)
	}
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if p := panelText(m); !strings.Contains(p, "\nC53 Italian Game: Classical Variation\n") {
		t.Errorf("120 columns: want the whole name:\n%s", p)
	}
}

// TestSaveNamesOpening: a game played on the board gets ECO and Opening
// tags from its main line when saved; a line that reaches no named
// position gets neither; a game read from a file keeps its own tags and
// gets none added (W8).
func TestSaveNamesOpening(t *testing.T) {
	dir := t.TempDir()
	tags := func(m Model) (string, string) {
		t.Helper()
		path := filepath.Join(dir, "g.pgn")
		saveThroughModel(t, m, path)
		back, err := readTestPGN(t, path)
		if err != nil || len(back) != 1 {
			t.Fatalf("read back: %d games, %v", len(back), err)
		}
		return back[0].Tag("ECO"), back[0].Tag("Opening")
	}
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "f3", "e5", "g4", "Qh4#")
	if eco, name := tags(m); eco != "A00" || name != "Barnes Opening: Fool's Mate" {
		t.Errorf("fool's mate saved as %q %q", eco, name)
	}

	// Variations do not name the game: only the main line does.
	m = newTestModel(t, Options{Mode: Analysis})
	m = playAll(t, m, "e4", "e5", "Nf3")
	m = send(m, press("esc"), press("left"), press("tab"))
	m = playAll(t, m, "Bc4")
	if eco, name := tags(m); eco != "C40" || name != "King's Knight Opening" {
		t.Errorf("1. e4 e5 2. Nf3 (2. Bc4) saved as %q %q", eco, name)
	}

	open := func(pgnText string) Model {
		trees, err := ReadPGN(strings.NewReader(pgnText), "t.pgn")
		if err != nil || len(trees) != 1 {
			t.Fatalf("%d games, %v", len(trees), err)
		}
		return newTestModel(t, Options{Games: trees})
	}
	// The file's C50 is not the list's C53 for this line: kept, and no
	// name that would contradict it.
	m = open("[ECO \"C50\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 *\n")
	if eco, name := tags(m); eco != "C50" || name != "" {
		t.Errorf("game tagged C50 saved as %q %q", eco, name)
	}
	m = open("[Opening \"Spanish\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n")
	if eco, name := tags(m); eco != "" || name != "Spanish" {
		t.Errorf("game named Spanish saved as %q %q", eco, name)
	}
	m = open("[FEN \"8/8/8/8/8/1k6/8/K1q5 w - - 0 1\"]\n\n*\n")
	if eco, name := tags(m); eco != "" || name != "" {
		t.Errorf("an endgame saved as %q %q", eco, name)
	}
	m = open("[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 *\n")
	if eco, name := tags(m); eco != "" || name != "" {
		t.Errorf("a master game without tags saved with %q %q, tags nobody asked for", eco, name)
	}
}

// syzygyDir is the 3-4 piece Syzygy set bundled with the repository.
var syzygyDir = tbtest.Dir()

func openTables(t *testing.T) *tablebase.Tablebase {
	t.Helper()
	tb, err := tablebase.Open(syzygyDir)
	if err != nil || tb.Files() == 0 {
		t.Fatalf("bundled Syzygy tables missing at %s: %v", syzygyDir, err)
	}
	return tb
}

// TestTablebaseLine: with tables, the panel gives the result and DTZ of
// positions they hold (labels from the bundled endgame_wdl_dtz.epd), for
// the side to move, and follows the moves; a
// position with more pieces or castling rights gets no line.
func TestTablebaseLine(t *testing.T) {
	tb := openTables(t)
	for _, c := range []struct{ fen, want string }{
		{"8/8/1n6/8/7K/8/3k4/1Q6 w - - 0 1", "TB: win, DTZ 1"},
		{"8/1K6/4q3/8/8/6p1/8/2k5 w - - 0 1", "TB: loss, DTZ 2"},
		{"2K5/8/8/8/6P1/8/2n5/1k6 w - - 0 1", "TB: draw"},
		{"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", ""},       // castling rights
		{"4k3/8/8/8/8/8/8/RN2K1NR w - - 0 1", ""},    // six pieces
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ""},       // stalemate: nothing to probe
		{"8/8/8/8/8/8/8/K1k5 w - - 0 1", "TB: draw"}, // two kings
	} {
		m := tablesAnswer(t, newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, c.fen), Tablebase: tb}))
		p := panelText(m)
		got := ""
		for _, l := range strings.Split(p, "\n") {
			if strings.HasPrefix(l, "TB:") {
				got = l
			}
		}
		if got != c.want {
			t.Errorf("%s: TB line %q, want %q\n%s", c.fen, got, c.want, p)
		}
	}
	// 1. Qxb6: king and queen against a bare king, Black to move, lost.
	m := tablesAnswer(t, newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, "8/8/1n6/8/7K/8/3k4/1Q6 w - - 0 1"), Tablebase: tb}))
	m = tablesAnswer(t, playAll(t, m, "Qxb6"))
	if p := panelText(m); !strings.Contains(p, "\nTB: loss, DTZ ") {
		t.Errorf("after 1. Qxb6 Black should be lost:\n%s", p)
	}
	// Without tables nothing is said.
	m = newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, "8/8/1n6/8/7K/8/3k4/1Q6 w - - 0 1")})
	if strings.Contains(panelText(m), "TB:") {
		t.Error("TB line without tables")
	}
}

// tablesAnswer delivers the Syzygy probe of the shown position that Update
// asked for by a command (send drops commands): the answer the command
// would bring.
func tablesAnswer(t *testing.T, m Model) Model {
	t.Helper()
	if !m.know.tbWant {
		return m
	}
	if !m.know.tbAsked {
		t.Fatal("the shown position wants a tablebase probe, and Update did not ask for it")
	}
	return send(m, probeTB(m.opt.Tablebase, m.pos.Clone())())
}

// TestTablebaseProbeAsync: the probe runs in a command, not in Update, and
// a verdict for a position left meanwhile is not shown on another.
func TestTablebaseProbeAsync(t *testing.T) {
	tb := openTables(t)
	m := newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, tbGoldenFEN), Tablebase: tb})
	if strings.Contains(panelText(m), "TB:") {
		t.Fatal("TB line before the probe's answer: the probe ran inside Update")
	}
	stale := probeTB(tb, m.pos.Clone())() // the start position's verdict, delivered late
	m = playAll(t, m, "Qxb6")
	m = send(m, stale)
	if strings.Contains(panelText(m), "TB: win") {
		t.Errorf("the previous position's verdict is shown after 1. Qxb6:\n%s", panelText(m))
	}
	m = tablesAnswer(t, m)
	if !strings.Contains(panelText(m), "TB: loss") {
		t.Errorf("after the answer:\n%s", panelText(m))
	}
}

// TestGoldenTablebase: the tablebase line of a won ending, at 80×24.
func TestGoldenTablebase(t *testing.T) {
	tb := openTables(t)
	m := tablesAnswer(t, newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, tbGoldenFEN), Tablebase: tb}))
	golden(t, "tablebase", m.View())
}

// tbGoldenFEN is the won KQvKN position of the tablebase goldens.
const tbGoldenFEN = "8/8/1n6/8/7K/8/3k4/1Q6 w - - 0 1"

// testBook is a small Polyglot book held in memory — from the start
// position e4, d4, Nf3 and c4 weighted 45, 35, 10 and 10, and after 1. e4
// e5 2. Nf3 Nc6 Bb5 (3) and Bc4 (1) — with an empty learning file in a
// temporary directory (its path is returned).
func testBook(t *testing.T) (*book.Book, *book.Learning, string) {
	t.Helper()
	var es []book.Entry
	add := func(moves []string, next string, w uint16) {
		p := chess.NewPosition()
		var u chess.Undo
		for _, s := range moves {
			mv, err := p.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			p.MakeMove(mv, &u)
		}
		mv, err := p.ParseMove(next)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, book.Entry{Key: book.Key(p), Move: book.EncodeMove(mv), Weight: w})
	}
	for _, e := range []struct {
		mv string
		w  uint16
	}{{"e4", 45}, {"d4", 35}, {"Nf3", 10}, {"c4", 10}} {
		add(nil, e.mv, e.w)
	}
	ruy := []string{"e4", "e5", "Nf3", "Nc6"}
	add(ruy, "Bb5", 3)
	add(ruy, "Bc4", 1)
	path := filepath.Join(t.TempDir(), "test.bin.learn")
	l, err := book.LoadLearning(path)
	if err != nil {
		t.Fatal(err)
	}
	return book.FromEntries(es), l, path
}

// bookLine is the panel's book line, "" if none.
func bookLine(m Model) string {
	for _, l := range strings.Split(panelText(m), "\n") {
		if strings.HasPrefix(l, "book:") {
			return l
		}
	}
	return ""
}

// TestBookMovesAndMarks: the panel lists the book's moves with their share
// of the weight, cut with "…" where the panel is narrow; b chooses the move
// under consideration and B marks it always, never, then neither, saved in
// the learning file, which a new board reads back.
func TestBookMovesAndMarks(t *testing.T) {
	b, l, learnPath := testBook(t)
	m := newTestModel(t, Options{Mode: Analysis, Book: b, BookLearning: l})
	if got := bookLine(m); got != "book: e4 45% d4 35% Nf3 10% …" {
		t.Errorf("80 columns: %q", got)
	}
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if got := bookLine(m); got != "book: e4 45% d4 35% Nf3 10% c4 10%" {
		t.Errorf("120 columns: %q", got)
	}
	m = send(m, press("esc"), press("b"))
	if m.know.sans[m.know.bookSel] != "d4" || !strings.HasPrefix(m.message, "book move d4 (2 of 4)") {
		t.Fatalf("b: under consideration %s, message %q", m.know.sans[m.know.bookSel], m.message)
	}
	learned := func() string {
		data, err := os.ReadFile(learnPath)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	m = send(m, press("B"))
	if got := bookLine(m); got != "book: e4 45% d4 35%✓ Nf3 10% c4 10%" || m.message != "book move d4 marked always" {
		t.Errorf("B once: %q, message %q", got, m.message)
	}
	if !strings.Contains(learned(), "463b96181691fc9c d2d4 0 always\n") {
		t.Errorf("learning file after always:\n%s", learned())
	}
	// never: d4 is no longer chosen, so it goes last, still considered.
	m = send(m, press("B"))
	if got := bookLine(m); got != "book: e4 45% Nf3 10% c4 10% d4 35%✗" || m.know.sans[m.know.bookSel] != "d4" {
		t.Errorf("B twice: %q, considering %s", got, m.know.sans[m.know.bookSel])
	}
	if !strings.Contains(learned(), "463b96181691fc9c d2d4 0 never\n") {
		t.Errorf("learning file after never:\n%s", learned())
	}
	// A new board reads the mark back.
	l2, err := book.LoadLearning(learnPath)
	if err != nil {
		t.Fatal(err)
	}
	m2 := newTestModel(t, Options{Mode: Analysis, Book: b, BookLearning: l2})
	m2 = send(m2, tea.WindowSizeMsg{Width: 120, Height: 40})
	if got := bookLine(m2); got != "book: e4 45% Nf3 10% c4 10% d4 35%✗" {
		t.Errorf("reloaded learning: %q", got)
	}
	m = send(m, press("B"))
	if got := bookLine(m); got != "book: e4 45% d4 35% Nf3 10% c4 10%" || strings.Contains(learned(), "d2d4") {
		t.Errorf("B three times: %q; file:\n%s", got, learned())
	}

	// Deeper in the book; then out of it.
	m = send(m, press("tab"))
	m = playAll(t, m, "e4", "e5", "Nf3", "Nc6")
	if got := bookLine(m); got != "book: Bb5 75% Bc4 25%" {
		t.Errorf("after 2... Nc6: %q", got)
	}
	m = playAll(t, m, "d4")
	m = send(m, press("esc"), press("b"))
	if bookLine(m) != "" || !m.msgIsErr || m.message != "no book moves in this position" {
		t.Errorf("out of book: line %q, message %q", bookLine(m), m.message)
	}
	// Without a book the keys say how to get one.
	m = newTestModel(t, Options{Mode: Analysis})
	m = send(m, press("esc"), press("B"))
	if !m.msgIsErr || !strings.Contains(m.message, "--book FILE") {
		t.Errorf("no book: message %q", m.message)
	}
}

// TestBookSelectionStaysVisible: a move under consideration beyond the
// panel's end is shown by starting the list from it.
func TestBookSelectionStaysVisible(t *testing.T) {
	b, l, _ := testBook(t)
	m := newTestModel(t, Options{Mode: Analysis, Book: b, BookLearning: l})
	m = send(m, press("esc"), press("b"), press("b"), press("b"))
	if got := bookLine(m); got != "book: … c4 10%" {
		t.Errorf("fourth move considered at 80 columns: %q", got)
	}
	m = send(m, press("b"))
	if got := bookLine(m); got != "book: e4 45% d4 35% Nf3 10% …" {
		t.Errorf("round to the first: %q", got)
	}
}

// TestHelpShowsBookKeys: the help overlay lists the book keys only when
// there is a book.
func TestHelpShowsBookKeys(t *testing.T) {
	b, l, _ := testBook(t)
	m := newTestModel(t, Options{Mode: Analysis, Book: b, BookLearning: l})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("?"))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "next book move") || !strings.Contains(v, "mark it always/never") {
		t.Errorf("help with a book lacks the book keys:\n%s", v)
	}
	golden(t, "help-book", m.View())
	m = newTestModel(t, Options{Mode: Analysis})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("?"))
	if strings.Contains(ansi.Strip(m.View()), "book") {
		t.Errorf("help without a book mentions it:\n%s", ansi.Strip(m.View()))
	}
}

// TestGoldenBook: the book line with the second move under consideration
// and the opening line of 1. e4, at 80×24.
func TestGoldenBook(t *testing.T) {
	b, l, _ := testBook(t)
	m := newTestModel(t, Options{Mode: TwoHumans, Book: b, BookLearning: l})
	m = playAll(t, m, "e4", "e5", "Nf3", "Nc6")
	m = send(m, press("esc"), press("b"))
	golden(t, "book", m.View())
}
