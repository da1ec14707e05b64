package tui

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// bookMove is a book entry: the move next, of weight w, after the moves of
// line (SAN, space separated) from the start.
type bookMove struct {
	line, next string
	w          uint16
}

// keyCode is the Polyglot key of the position after line and the code of
// its move next.
func keyCode(t *testing.T, line, next string) (uint64, uint16) {
	t.Helper()
	p := enginetest.Position(t, line)
	mv, err := p.ParseMove(next)
	if err != nil {
		t.Fatalf("%s %s: %v", line, next, err)
	}
	return book.Key(p), book.EncodeMove(mv)
}

// playBook is a book of the given moves with an empty learning file at a
// path in a temporary directory.
func playBook(t *testing.T, moves ...bookMove) (*book.Book, *book.Learning, string) {
	t.Helper()
	var es []book.Entry
	for _, bm := range moves {
		k, c := keyCode(t, bm.line, bm.next)
		es = append(es, book.Entry{Key: k, Move: c, Weight: bm.w})
	}
	path := filepath.Join(t.TempDir(), "play.bin.learn")
	l, err := book.LoadLearning(path)
	if err != nil {
		t.Fatal(err)
	}
	return book.FromEntries(es), l, path
}

// learnedScore is the score the learning file at path holds for the move
// next after line, read back from the file.
func learnedScore(t *testing.T, path, line, next string) int {
	t.Helper()
	l, err := book.LoadLearning(path)
	if err != nil {
		t.Fatal(err)
	}
	k, c := keyCode(t, line, next)
	s, _ := l.Lookup(k, c)
	return s
}

// fool's mate, move by move, for the engine to play from a book.
var foolsMate = []bookMove{{"", "f3", 1}, {"f3", "e5", 1}, {"f3 e5", "g4", 1}, {"f3 e5 g4", "Qh4#", 1}}

// bookGame starts a game against the fake engine with a book and a seeded
// choice, and runs its first commands (the engine's move when it has
// White).
func bookGame(t *testing.T, f *enginetest.Engine, opt Options) Model {
	t.Helper()
	opt.Now = func() time.Time { return fixedNow }
	if opt.BookRand == nil {
		opt.BookRand = rand.New(rand.NewPCG(1, 2))
	}
	m := New(testRenderer(termenv.Ascii), f, opt)
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	nm, cmd := m.Update(startMsg{})
	return drive(t, nm.(Model), cmd)
}

// drive feeds the messages of the model's commands back to it until no
// command is left: the engine's moves (searched or from the book) are
// played, a finished analysis delivered.
func drive(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	for i := 0; cmd != nil; i++ {
		if i > 1000 {
			t.Fatal("the model never settles")
		}
		msg := runCmd(cmd)
		if msg == nil {
			break
		}
		var nm tea.Model
		nm, cmd = m.Update(msg)
		m = nm.(Model)
	}
	return m
}

// humanPlays types the human's moves, each followed by whatever the
// engine answers.
func humanPlays(t *testing.T, m Model, moves ...string) Model {
	t.Helper()
	for _, s := range moves {
		var cmd tea.Cmd
		m, cmd = typeMove(m, s)
		if m.msgIsErr {
			t.Fatalf("move %s: %s", s, m.message)
		}
		m = drive(t, m, cmd)
	}
	return m
}

// sans is the main line in SAN.
func sans(m Model) string {
	var out []string
	for _, n := range m.tree.Mainline() {
		out = append(out, n.SAN)
	}
	return strings.Join(out, " ")
}

// TestEnginePlaysBookMove: with a book move for the engine's side, the
// engine plays it without searching, marked as a book move on the message
// line, under the panel and in the saved game; out of the book it searches.
func TestEnginePlaysBookMove(t *testing.T) {
	b, l, _ := playBook(t, bookMove{"", "c4", 1})
	// The fake engine's own choice at the start is the first legal move:
	// the book's must differ for the test to tell them apart.
	var ml chess.MoveList
	chess.NewPosition().GenerateLegal(&ml)
	if chess.NewPosition().SAN(ml.Moves[0]) == "c4" {
		t.Fatal("test premise: the fake engine would play c4 itself")
	}
	f := &enginetest.Engine{}
	m := bookGame(t, f, Options{Human: chess.Black, Book: b, BookLearning: l})
	defer func() { m.Close() }()
	if sans(m) != "c4" || f.Searches() != 0 {
		t.Fatalf("engine's first move: %q after %d searches, want c4 from the book", sans(m), f.Searches())
	}
	if m.message != "book move 1. c4" || m.msgIsErr || !slices.Contains(m.cur.After, "book") {
		t.Errorf("book move not shown: message %q, comments %q", m.message, m.cur.After)
	}
	if !slices.Contains(strings.Split(panelText(m), "\n"), "book") {
		t.Errorf("panel does not say book:\n%s", panelText(m))
	}
	if pgn := m.tree.Export().String(); !strings.Contains(pgn, "1. c4 {book} ") {
		t.Errorf("saved game lacks the book comment:\n%s", pgn)
	}
	if len(m.bookPlay.line) != 1 || m.bookPlay.line[0].ply != 1 || m.bookPlay.line[0].side != chess.White {
		t.Errorf("recorded book moves %+v", m.bookPlay.line)
	}
	// Out of the book the engine searches, and its move is no book move.
	m = humanPlays(t, m, "e5")
	if m.cur.Ply() != 3 || f.Searches() != 1 || slices.Contains(m.cur.After, "book") || len(m.bookPlay.line) != 1 {
		t.Errorf("out of book: ply %d, %d searches, comments %q, %d book moves",
			m.cur.Ply(), f.Searches(), m.cur.After, len(m.bookPlay.line))
	}
}

// TestEngineSkipsNeverMoves: a move marked never is not played, whatever
// its weight and the random choice; a book whose only move is marked never
// leaves the engine to search.
func TestEngineSkipsNeverMoves(t *testing.T) {
	b, l, _ := playBook(t, bookMove{"", "c4", 1000}, bookMove{"", "d4", 1})
	k, c := keyCode(t, "", "c4")
	l.SetMark(k, c, book.Never)
	for seed := range uint64(20) {
		f := &enginetest.Engine{}
		m := bookGame(t, f, Options{Human: chess.Black, Book: b, BookLearning: l, BookRand: rand.New(rand.NewPCG(seed, seed))})
		m.Close()
		if sans(m) != "d4" || f.Searches() != 0 {
			t.Fatalf("seed %d: engine played %q after %d searches, want d4 from the book", seed, sans(m), f.Searches())
		}
	}
	b, l, _ = playBook(t, bookMove{"", "c4", 1})
	l.SetMark(k, c, book.Never)
	f := &enginetest.Engine{}
	m := bookGame(t, f, Options{Human: chess.Black, Book: b, BookLearning: l})
	m.Close()
	if sans(m) == "c4" || m.cur.Ply() != 1 || f.Searches() != 1 || len(m.bookPlay.line) != 0 {
		t.Errorf("only move marked never: played %q after %d searches, %d book moves", sans(m), f.Searches(), len(m.bookPlay.line))
	}
}

// TestBookLearningFromResults: a game the engine loses takes a point from
// each book move it played, a win adds one; the file is written at the
// game's end, once per game however often a takeback resumes it, and a new
// game counts again.
func TestBookLearningFromResults(t *testing.T) {
	// Loss: the engine, White, walks into fool's mate from its book.
	b, l, path := playBook(t, foolsMate...)
	f := &enginetest.Engine{}
	m := bookGame(t, f, Options{Human: chess.Black, Book: b, BookLearning: l})
	defer func() { m.Close() }()
	m = humanPlays(t, m, "e5", "Qh4#")
	if over, _ := m.Over(); !over || m.tree.Result != "0-1" || f.Searches() != 0 {
		t.Fatalf("game %q: over %v, result %s, %d searches", sans(m), over, m.tree.Result, f.Searches())
	}
	if f3, g4 := learnedScore(t, path, "", "f3"), learnedScore(t, path, "f3 e5", "g4"); f3 != -1 || g4 != -1 {
		t.Errorf("after a loss: f3 %d, g4 %d; want -1, -1", f3, g4)
	}
	if s := learnedScore(t, path, "f3", "e5"); s != 0 {
		t.Errorf("the human's move e5 learned %d", s)
	}
	// A finished game stays finished: a takeback asks, and analysing it
	// from a move back learns nothing more.
	m = send(m, press("esc"), press("u"), press("y"), press("tab"))
	if over, _ := m.Over(); over || m.mode != Analysis || m.cur.Ply() != 3 {
		t.Fatalf("takeback: over %v, mode %v at ply %d", over, m.mode, m.cur.Ply())
	}
	m = humanPlays(t, m, "Qh4#")
	if g4 := learnedScore(t, path, "f3 e5", "g4"); g4 != -1 {
		t.Errorf("the game ended twice and was learned twice: g4 %d", g4)
	}
	// A new game is learned from anew.
	cmd := m.newGameCmd(VsEngine, chess.Black, m.level, 0, 0, nil)
	if len(m.bookPlay.line) != 0 || m.bookPlay.learned {
		t.Fatalf("new game kept %d book moves, learned %v", len(m.bookPlay.line), m.bookPlay.learned)
	}
	m = drive(t, m, cmd)
	m = humanPlays(t, m, "e5", "Qh4#")
	if g4 := learnedScore(t, path, "f3 e5", "g4"); g4 != -2 {
		t.Errorf("second lost game: g4 %d, want -2", g4)
	}

	// Win: the engine, Black, mates from its book.
	b, l, path = playBook(t, foolsMate...)
	m2 := bookGame(t, f, Options{Human: chess.White, Book: b, BookLearning: l})
	defer func() { m2.Close() }()
	m2 = humanPlays(t, m2, "f3", "g4")
	if over, banner := m2.Over(); !over || m2.tree.Result != "0-1" {
		t.Fatalf("game %q: over %v %q", sans(m2), over, banner)
	}
	if e5, qh4 := learnedScore(t, path, "f3", "e5"), learnedScore(t, path, "f3 e5 g4", "Qh4#"); e5 != 1 || qh4 != 1 {
		t.Errorf("after a win: e5 %d, Qh4# %d; want 1, 1", e5, qh4)
	}
}

// TestBookLearningEngineVsEngine: watching the engine play itself, each
// side's book moves learn that side's result.
func TestBookLearningEngineVsEngine(t *testing.T) {
	b, l, path := playBook(t, foolsMate...)
	f := &enginetest.Engine{}
	m := bookGame(t, f, Options{Mode: Watch, Book: b, BookLearning: l})
	defer func() { m.Close() }()
	if sans(m) != "f3 e5 g4 Qh4#" || m.tree.Result != "0-1" || f.Searches() != 0 {
		t.Fatalf("watched %q, result %s, %d searches", sans(m), m.tree.Result, f.Searches())
	}
	for _, c := range []struct {
		line, next string
		want       int
	}{{"", "f3", -1}, {"f3", "e5", 1}, {"f3 e5", "g4", -1}, {"f3 e5 g4", "Qh4#", 1}} {
		if got := learnedScore(t, path, c.line, c.next); got != c.want {
			t.Errorf("%s %s: learned %d, want %d", c.line, c.next, got, c.want)
		}
	}
}

// TestBookLearningOtherEnds: resigning and losing on time are results the
// book learns from; a takeback forgets the book moves it undoes.
func TestBookLearningOtherEnds(t *testing.T) {
	// The human takes back the engine's second book move, leaves the
	// book, then resigns: only f3 wins.
	b, l, path := playBook(t, foolsMate...)
	f := &enginetest.Engine{}
	m := bookGame(t, f, Options{Human: chess.Black, Book: b, BookLearning: l})
	defer func() { m.Close() }()
	m = humanPlays(t, m, "e5")
	if sans(m) != "f3 e5 g4" {
		t.Fatalf("game %q", sans(m))
	}
	m = send(m, press("esc"), press("u"), press("tab"))
	if len(m.bookPlay.line) != 1 || m.cur.Ply() != 1 {
		t.Fatalf("takeback to ply %d kept %d book moves", m.cur.Ply(), len(m.bookPlay.line))
	}
	m = humanPlays(t, m, "d5")
	m = send(m, press("esc"), press("R"), press("y"))
	if over, banner := m.Over(); !over || m.tree.Result != "1-0" {
		t.Fatalf("resign: over %v %q", over, banner)
	}
	if f3, g4 := learnedScore(t, path, "", "f3"), learnedScore(t, path, "f3 e5", "g4"); f3 != 1 || g4 != 0 {
		t.Errorf("after the human resigned: f3 %d, g4 %d; want 1, 0", f3, g4)
	}

	// The human's flag falls after the engine's book move: a win.
	now := fixedNow
	b, l, path = playBook(t, foolsMate...)
	m2 := New(testRenderer(termenv.Ascii), f, Options{Human: chess.Black, Book: b, BookLearning: l,
		Clock: time.Minute, BookRand: rand.New(rand.NewPCG(1, 2)), Now: func() time.Time { return now }})
	defer func() { m2.Close() }()
	m2 = send(m2, tea.WindowSizeMsg{Width: 80, Height: 24})
	nm, cmd := m2.Update(startMsg{})
	// The batch holds the clock's tick, which would wait: only the book
	// move is taken from it.
	nm, _ = nm.(Model).Update(runCmd(cmd))
	m2 = nm.(Model)
	if sans(m2) != "f3" {
		t.Fatalf("clock game %q", sans(m2))
	}
	// The first moves are free: the human replies, the engine plays its
	// book move, and only then does the human's clock run.
	m2, cmd = typeMove(m2, "e5")
	nm, _ = m2.Update(runCmd(cmd))
	m2 = nm.(Model)
	if sans(m2) != "f3 e5 g4" {
		t.Fatalf("clock game %q", sans(m2))
	}
	now = now.Add(2 * time.Minute)
	m2 = send(m2, tickMsg(now))
	if over, banner := m2.Over(); !over || m2.tree.Result != "1-0" {
		t.Fatalf("flag: over %v %q", over, banner)
	}
	if f3 := learnedScore(t, path, "", "f3"); f3 != 1 {
		t.Errorf("after the human lost on time: f3 %d, want 1", f3)
	}
}

// TestBookLearningSaveError: a learning file that cannot be written is
// reported; the game is over and kept all the same.
func TestBookLearningSaveError(t *testing.T) {
	b, _, _ := playBook(t, foolsMate...)
	l, err := book.LoadLearning(filepath.Join(t.TempDir(), "missing", "play.bin.learn"))
	if err != nil {
		t.Fatal(err)
	}
	m := bookGame(t, &enginetest.Engine{}, Options{Human: chess.Black, Book: b, BookLearning: l})
	defer func() { m.Close() }()
	m = humanPlays(t, m, "e5")
	m, cmd := typeMove(m, "Qh4#")
	m = drive(t, m, cmd)
	if over, _ := m.Over(); !over || m.tree.Result != "0-1" || sans(m) != "f3 e5 g4 Qh4#" {
		t.Fatalf("game %q lost: over %v, result %s", sans(m), over, m.tree.Result)
	}
	if !m.msgIsErr || !strings.HasPrefix(m.message, "book learning not saved: ") {
		t.Errorf("message %q (error %v)", m.message, m.msgIsErr)
	}
	// The learning is kept for the session.
	k, c := keyCode(t, "", "f3")
	if s, _ := l.Lookup(k, c); s != -1 {
		t.Errorf("in memory f3 %d, want -1", s)
	}
}

// TestAnalysisIgnoresBook: analysis searches the position, book or not,
// and plays nothing.
func TestAnalysisIgnoresBook(t *testing.T) {
	b, l, _ := playBook(t, bookMove{"", "c4", 1})
	f := &enginetest.Engine{MaxDepth: 2}
	m := New(testRenderer(termenv.Ascii), f, Options{Mode: Analysis, Book: b, BookLearning: l,
		Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	nm, cmd := m.Update(startMsg{}) // --mode analysis analyses from the start
	m = drive(t, nm.(Model), cmd)
	if m.cur != m.tree.Root || len(m.tree.Root.Children) != 0 || m.bookPlay.pending != nil {
		t.Fatalf("analysis played %q", sans(m))
	}
	if f.Searches() != 1 || m.panel.best() == nil {
		t.Errorf("analysis: %d searches, best line %v", f.Searches(), m.panel.best())
	}
	if len(m.bookPlay.line) != 0 {
		t.Errorf("analysis recorded book moves %+v", m.bookPlay.line)
	}
}
