package uci

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/tablebase"
)

// Book and tablebase options, as scripted sessions like server_test.go's.

// srvBookMove is one book entry: a move (UCI) after moves from the start.
type srvBookMove struct {
	after, move string
	weight      uint16
}

// srvWriteBook writes a Polyglot book of the given moves and returns its
// path.
func srvWriteBook(t *testing.T, moves []srvBookMove) string {
	t.Helper()
	var es []book.Entry
	for _, bm := range moves {
		p := srvPlay(t, bm.after)
		m, err := p.ParseUCI(bm.move)
		if err != nil {
			t.Fatalf("test book move %s after %q: %v", bm.move, bm.after, err)
		}
		es = append(es, book.Entry{Key: book.Key(p), Move: book.EncodeMove(m), Weight: bm.weight})
	}
	path := filepath.Join(t.TempDir(), "test.bin")
	if err := os.WriteFile(path, book.Marshal(book.FromEntries(es).Entries()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// srvPlay returns the position after UCI moves from the start.
func srvPlay(t *testing.T, moves string) *chess.Position {
	t.Helper()
	p := chess.NewPosition()
	var u chess.Undo
	for _, tok := range strings.Fields(moves) {
		m, err := p.ParseUCI(tok)
		if err != nil {
			t.Fatalf("test move %q in %q: %v", tok, moves, err)
		}
		p.MakeMove(m, &u)
	}
	return p
}

// bookAnswer fails unless lines are exactly a book reply and returns the
// move and ponder move ("" when none).
func srvBookAnswer(t *testing.T, lines []string) (move, ponder string) {
	t.Helper()
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "info string book move ") {
		t.Fatalf("want a book reply (info string book move, bestmove), got %q", lines)
	}
	move = strings.TrimPrefix(lines[0], "info string book move ")
	f := strings.Fields(lines[1])
	if f[1] != move {
		t.Fatalf("book move %s but %q", move, lines[1])
	}
	if len(f) == 4 {
		ponder = f[3]
	}
	return move, ponder
}

// srvSearched fails unless lines are a search's answer: info lines with a
// depth and no book line.
func srvSearched(t *testing.T, what string, lines []string) {
	t.Helper()
	if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string book") }) ||
		!slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info depth") }) {
		t.Fatalf("%s: want a search, got %q", what, lines)
	}
}

// The test book: 1.e4 (weight 3) or 1.d4 (1), never 1.a3 (weight 0); after
// 1.e4 only 1...c5 (and no reply to 1.d4).
var srvTestBook = []srvBookMove{
	{"", "e2e4", 3}, {"", "d2d4", 1}, {"", "a2a3", 0},
	{"e2e4", "c7c5", 5},
}

func TestServerOwnBook(t *testing.T) {
	path := srvWriteBook(t, srvTestBook)
	s := newSrvSession(t)
	if got := s.exchange("setoption name BookFile value " + path); len(got) != 1 || !strings.Contains(got[0], "4 entries") {
		t.Errorf("BookFile printed %q, want one info line with the entry count", got)
	}
	// OwnBook is off by default: the book is loaded but not played.
	_, lines := s.search("depth 1")
	srvSearched(t, "OwnBook off", lines)

	s.quiet("setoption name OwnBook value true")
	// Weighted choice: e4 three times as often as d4, a3 never; the
	// ponder move is the book's reply, when it has one.
	count := map[string]int{}
	for range 80 {
		_, lines := s.search("wtime 1000 btime 1000")
		move, ponder := srvBookAnswer(t, lines)
		count[move]++
		switch {
		case move == "e2e4" && ponder != "c7c5":
			t.Errorf("1.e4 from the book with ponder %q, want c7c5", ponder)
		case move == "d2d4" && ponder != "":
			t.Errorf("1.d4 from the book with ponder %q; the book has no reply", ponder)
		}
	}
	// With p(d4) = 1/4, 80 tries all e4 has probability 1e-10; d4 more
	// often than e4, about as unlikely.
	if count["e2e4"]+count["d2d4"] != 80 || count["d2d4"] == 0 || count["d2d4"] >= count["e2e4"] {
		t.Errorf("book moves played %v, want e2e4 and d2d4 about 3:1, nothing else", count)
	}
	// Every limit that ends a search by itself takes the book move.
	for _, args := range []string{"depth 5", "nodes 1000", "movetime 100", "wtime 100 btime 100 movestogo 1"} {
		_, lines := s.search(args)
		srvBookAnswer(t, lines)
	}
	// Variety 0: always the heaviest.
	s.quiet("setoption name BookVariety value 0")
	for range 10 {
		_, lines := s.search("depth 1")
		if move, _ := srvBookAnswer(t, lines); move != "e2e4" {
			t.Fatalf("BookVariety 0 played %s, want the heaviest, e2e4", move)
		}
	}
	// Analysis asks for a search: infinite, go alone, mate, searchmoves.
	for _, args := range []string{"infinite", "", "infinite wtime 1000 btime 1000"} {
		s.send(strings.TrimSpace("go " + args))
		lines := s.expect("info depth")
		s.send("stop")
		srvSearched(t, "go "+args, append(lines, s.expect("bestmove")...))
	}
	_, lines = s.search("depth 2 mate 1")
	srvSearched(t, "go mate", lines)
	best, lines := s.search("depth 2 searchmoves a2a3")
	srvSearched(t, "go searchmoves", lines)
	if best[1] != "a2a3" {
		t.Errorf("searchmoves a2a3 answered %q", best)
	}
	// Black's turn in the book, then out of it.
	s.position("", "e2e4")
	if _, lines := s.search("depth 1"); func() bool { m, _ := srvBookAnswer(t, lines); return m != "c7c5" }() {
		t.Errorf("after 1.e4: want the book's c7c5")
	}
	s.position("", "d2d4")
	_, lines = s.search("depth 1")
	srvSearched(t, "position out of the book", lines)
	// Off again.
	s.position("")
	s.quiet("setoption name OwnBook value false")
	_, lines = s.search("depth 1")
	srvSearched(t, "OwnBook false", lines)
}

func TestServerBookFileBad(t *testing.T) {
	path := srvWriteBook(t, srvTestBook)
	dir := t.TempDir()
	truncated := filepath.Join(dir, "truncated.bin")
	if err := os.WriteFile(truncated, make([]byte, 17), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSrvSession(t)
	s.quiet("setoption name OwnBook value true")
	s.exchange("setoption name BookFile value " + path)
	for _, cmd := range []string{
		"setoption name BookFile value " + filepath.Join(dir, "missing.bin"),
		"setoption name BookFile value " + truncated,
		"setoption name BookFile value " + dir,
		"setoption name OwnBook value yes",
		"setoption name BookVariety value 101",
		"setoption name BookVariety value -1",
		"setoption name BookVariety value some",
	} {
		s.refused(cmd)
	}
	// The good book is still in use, at full variety.
	_, lines := s.search("depth 1")
	srvBookAnswer(t, lines)
	// An empty path ("<empty>", as GUIs send the shown default) drops it.
	s.quiet("setoption name BookFile value <empty>")
	_, lines = s.search("depth 1")
	srvSearched(t, "BookFile <empty>", lines)
}

// The learning side file's marks decide: 1.e4 marked never is not played.
func TestServerBookLearning(t *testing.T) {
	path := srvWriteBook(t, srvTestBook)
	learn := "# test marks\n" + strings.Join([]string{keyHex(chess.NewPosition()), "e2e4", "0", "never"}, " ") + "\n"
	if err := os.WriteFile(book.LearnPath(path), []byte(learn), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSrvSession(t)
	s.quiet("setoption name OwnBook value true")
	s.exchange("setoption name BookFile value " + path)
	for range 20 {
		_, lines := s.search("depth 1")
		if m, _ := srvBookAnswer(t, lines); m != "d2d4" {
			t.Fatalf("played %s with e2e4 marked never, want d2d4", m)
		}
	}
}

func keyHex(p *chess.Position) string {
	const hex = "0123456789abcdef"
	k := book.Key(p)
	b := make([]byte, 16)
	for i := 15; i >= 0; i-- {
		b[i] = hex[k&15]
		k >>= 4
	}
	return string(b)
}

// TestServerBookPonder: a book move found at "go ponder" waits for
// ponderhit or stop, as a search would.
func TestServerBookPonder(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("setoption name Ponder value true")
	s.quiet("setoption name OwnBook value true")
	s.exchange("setoption name BookFile value " + srvWriteBook(t, srvTestBook))
	s.position("", "e2e4")
	s.send("go ponder wtime 1000 btime 1000")
	s.send("isready")
	if got := s.expect("readyok"); len(got) != 1 {
		t.Fatalf("go ponder with a book move printed %q before ponderhit", got)
	}
	s.send("ponderhit")
	if m, _ := srvBookAnswer(t, s.expect("bestmove")); m != "c7c5" {
		t.Errorf("book move at ponderhit %s, want c7c5", m)
	}
	s.send("go ponder wtime 1000 btime 1000")
	s.send("isready")
	if got := s.expect("readyok"); len(got) != 1 {
		t.Fatalf("go ponder with a book move printed %q before stop", got)
	}
	s.send("stop")
	srvBookAnswer(t, s.expect("bestmove"))
	// Stopped at the end of input too.
	s.send("go ponder wtime 1000 btime 1000")
	s.in.Close()
	srvBookAnswer(t, s.expect("bestmove"))
}

// A Polyglot book holds standard chess only: in Chess960 mode the server
// searches.
func TestServerBookChess960(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("setoption name OwnBook value true")
	s.exchange("setoption name BookFile value " + srvWriteBook(t, srvTestBook))
	s.quiet("setoption name UCI_Chess960 value true")
	s.pos.SetChess960(true)
	s.position("")
	_, lines := s.search("depth 1")
	srvSearched(t, "Chess960", lines)
}

// TestServerBookLasker plays White's side of the Lasker trap against the
// server with lasker-trap.bin, which holds Black's moves: each answer is
// the book's, down to the knight underpromotion.
func TestServerBookLasker(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("setoption name OwnBook value true")
	s.exchange("setoption name BookFile value " + filepath.Join("..", "book", "testdata", "lasker-trap.bin"))
	line := strings.Fields("d2d4 d7d5 c2c4 e7e5 d4e5 d5d4 e2e3 f8b4 c1d2 d4e3 d2b4 e3f2 e1e2 f2g1n")
	for i := 1; i < len(line); i += 2 {
		s.position("", line[:i]...)
		_, lines := s.search("wtime 10000 btime 10000")
		if m, _ := srvBookAnswer(t, lines); m != line[i] {
			t.Errorf("after %v: book move %s, want %s", line[:i], m, line[i])
		}
	}
	// White's positions are not in the book.
	s.position("", line[:2]...)
	_, lines := s.search("depth 1")
	srvSearched(t, "White to move in the Lasker trap", lines)
}

// tbDir is the shared 3-4 piece Syzygy set, outside the repository.
var tbDir = filepath.Join("..", "..", "..", "shared", "data", "syzygy", "3-4")

func srvTablebase(t *testing.T) *tablebase.Tablebase {
	t.Helper()
	tb, err := tablebase.Open(tbDir)
	if err != nil || tb.Files() == 0 {
		t.Skipf("Syzygy 3-4 piece tables not found at %s (shared data absent): %v", tbDir, err)
	}
	return tb
}

// srvTBFENs reads the positions of the shared labelled endgame set.
func srvTBFENs(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(tbDir, "..", "endgame_wdl_dtz.epd"))
	if err != nil {
		t.Skipf("shared endgame positions absent: %v", err)
	}
	defer f.Close()
	var fens []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 4 {
			fens = append(fens, strings.Join(fs[:4], " ")+" 0 1")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return fens
}

// srvTBBest is what root filtering must leave: the moves of the best
// tablebase rank among allowed (all when empty).
func srvTBBest(tb *tablebase.Tablebase, p *chess.Position, allowed []string) []string {
	rm, ok := tb.RootMoves(p, true)
	if !ok {
		return nil
	}
	var best []string
	top := 0
	for _, r := range rm {
		u := r.Move.UCI(false)
		if len(allowed) > 0 && !slices.Contains(allowed, u) {
			continue
		}
		switch {
		case best == nil || r.Rank > top:
			best, top = []string{u}, r.Rank
		case r.Rank == top:
			best = append(best, u)
		}
	}
	return best
}

// TestServerSyzygyRoot: with SyzygyPath set, a search of a position in the
// tables plays a move that keeps its tablebase result, even at depth 1
// where the search alone misjudges some of these endings, and reports the
// root probes as tbhits.
func TestServerSyzygyRoot(t *testing.T) {
	tb := srvTablebase(t)
	fens := srvTBFENs(t)
	s := newSrvSession(t)
	got := s.exchange("setoption name SyzygyPath value " + tbDir)
	if len(got) != 1 || !strings.HasPrefix(got[0], "info string Syzygy: ") || !strings.Contains(got[0], "up to 4 pieces") {
		t.Fatalf("SyzygyPath printed %q", got)
	}
	filtered := 0
	for _, fen := range fens {
		s.position(fen)
		want := srvTBBest(tb, s.pos, nil)
		if want == nil {
			continue // mate or stalemate: nothing to rank
		}
		var ml chess.MoveList
		s.pos.GenerateLegal(&ml)
		if len(want) < ml.N {
			filtered++
		}
		best, lines := s.search("depth 1")
		if !slices.Contains(want, best[1]) {
			t.Errorf("%s: bestmove %s, tablebase keeps %v", fen, best[1], want)
		}
		if hits := srvField(srvLastInfo(t, lines), "tbhits"); hits == "" || hits == "0" {
			t.Errorf("%s: no tbhits in %q", fen, srvLastInfo(t, lines))
		}
	}
	// The set must make filtering matter: many positions have moves that
	// throw the result away.
	if filtered < len(fens)/4 {
		t.Errorf("only %d of %d positions have moves to filter", filtered, len(fens))
	}
	// searchmoves: the GUI's moves are filtered, never widened.
	const fen = "8/5q2/8/2K5/8/8/k7/1R6 w - - 0 1" // only Rb4 holds the draw against the queen
	s.position(fen)
	want := srvTBBest(tb, s.pos, nil)
	if len(want) != 1 || want[0] != "b1b4" {
		t.Fatalf("%s: tablebase best %v, the test expects only b1b4", fen, want)
	}
	if best, _ := s.search("depth 3 searchmoves b1h1 b1b4 b1b2"); best[1] != "b1b4" {
		t.Errorf("searchmoves b1h1 b1b4 b1b2: bestmove %s, want b1b4", best[1])
	}
	if best, _ := s.search("depth 3 searchmoves b1h1"); best[1] != "b1h1" {
		t.Errorf("searchmoves b1h1: bestmove %s, the only move allowed", best[1])
	}
	// Castling rights or too many pieces: no probe, a plain search.
	s.position("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1")
	if _, lines := s.search("depth 2"); srvField(srvLastInfo(t, lines), "tbhits") != "" {
		t.Errorf("tbhits with castling rights: %q", srvLastInfo(t, lines))
	}
	// Dropped: the misjudged ending is searched alone again (at depth 1
	// the search prefers another rook move, which loses).
	s.quiet("setoption name SyzygyPath value <empty>")
	s.position(fen)
	if _, lines := s.search("depth 1"); srvField(srvLastInfo(t, lines), "tbhits") != "" {
		t.Errorf("tbhits after SyzygyPath <empty>: %q", srvLastInfo(t, lines))
	}
}

func TestServerSyzygyBad(t *testing.T) {
	srvTablebase(t)
	s := newSrvSession(t)
	for _, cmd := range []string{
		"setoption name SyzygyPath value " + filepath.Join(t.TempDir(), "missing"),
		"setoption name SyzygyPath value " + t.TempDir(), // no tables
		"setoption name Syzygy50MoveRule value 1",
		"setoption name SyzygyProbeDepth value 0", // below its minimum
	} {
		s.refused(cmd)
	}
	// Several directories, one of them empty, as PATH lists them.
	path := t.TempDir() + string(filepath.ListSeparator) + tbDir
	got := s.exchange("setoption name SyzygyPath value " + path)
	if len(got) != 1 || !strings.HasPrefix(got[0], "info string Syzygy: ") {
		t.Errorf("two directories: %q", got)
	}
	// Setting the same path again opens nothing.
	s.quiet("setoption name SyzygyPath value " + path)
}

// srvTBSearcher is a searcher that accepts tables for in-search probing:
// it records what the server hands it.
type srvTBSearcher struct {
	*search.Searcher
	calls  int
	tb     *tablebase.Tablebase
	depth  int
	rule50 bool
}

func (a *srvTBSearcher) SetTablebase(tb *tablebase.Tablebase, probeDepth int, rule50 bool) {
	a.calls++
	a.tb, a.depth, a.rule50 = tb, probeDepth, rule50
}

// TestServerSyzygyAnalyzer: a TablebaseAnalyzer gets SyzygyProbeDepth
// listed and is handed the tables and settings whenever they change.
func TestServerSyzygyAnalyzer(t *testing.T) {
	srvTablebase(t)
	a := &srvTBSearcher{Searcher: search.New()}
	if err := a.SetOption("Hash", "1"); err != nil {
		t.Fatal(err)
	}
	s := newSrvSessionWith(t, a)
	var opt string
	for _, l := range s.exchange("uci") {
		if strings.Contains(l, "name SyzygyProbeDepth ") {
			opt = l
		}
	}
	if opt != "option name SyzygyProbeDepth type spin default 1 min 1 max 100" {
		t.Errorf("SyzygyProbeDepth listed as %q", opt)
	}
	s.exchange("setoption name SyzygyPath value " + tbDir)
	if a.calls != 1 || a.tb == nil || a.tb.MaxPieces() != 4 || a.depth != 1 || !a.rule50 {
		t.Errorf("after SyzygyPath: %d calls, tb %v, depth %d, rule50 %v", a.calls, a.tb != nil, a.depth, a.rule50)
	}
	s.quiet("setoption name SyzygyProbeDepth value 7")
	s.quiet("setoption name Syzygy50MoveRule value false")
	if a.calls != 3 || a.depth != 7 || a.rule50 {
		t.Errorf("after SyzygyProbeDepth 7, Syzygy50MoveRule false: %d calls, depth %d, rule50 %v", a.calls, a.depth, a.rule50)
	}
	s.refused("setoption name SyzygyProbeDepth value 0")
	s.refused("setoption name SyzygyProbeDepth value 101")
	if a.calls != 3 || a.depth != 7 {
		t.Errorf("refused values reached the searcher: %d calls, depth %d", a.calls, a.depth)
	}
	s.quiet("setoption name SyzygyPath value <empty>")
	if a.calls != 4 || a.tb != nil {
		t.Errorf("after SyzygyPath <empty>: %d calls, tb %v", a.calls, a.tb != nil)
	}
}
