package uci

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/knowledge"
	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/engine/tablebase/tbtest"
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
		p := enginetest.Position(t, bm.after)
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
	if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string book move") }) ||
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

// tbDir is the 3-4 piece Syzygy set bundled with the repository.
var tbDir = tbtest.Dir()

func srvTablebase(t *testing.T) *tablebase.Tablebase {
	t.Helper()
	tb, err := tablebase.Open(tbDir)
	if err != nil || tb.Files() == 0 {
		t.Fatalf("bundled Syzygy tables missing at %s: %v", tbDir, err)
	}
	return tb
}

// srvTBFENs reads the positions of the bundled labelled endgame set.
func srvTBFENs(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(tbtest.Positions())
	if err != nil {
		t.Fatal(err)
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

// Book learning: the server judges its book line by the score of its 10th
// search out of the book, since UCI never tells it the result.

// The learning test book: 1.e4 from the start, 3.Bb5 after 1.e4 e5 2.Nf3
// Nc6 (reached again after searches), and 3.c4 after 1.d4 d5 (reached in
// the tests from another start position).
var srvLearnBook = []srvBookMove{
	{"", "e2e4", 1},
	{"e2e4 e7e5 g1f3 b8c6", "f1b5", 1},
	{"d2d4 d7d5", "c2c4", 1},
}

// srvLearner plays games for book learning: the server plays White, first
// from the book, then by searches of a, whose move and score the test
// sets; the opponent answers each move with its first legal move.
type srvLearner struct {
	*srvSession
	a       *enginetest.Engine
	path    string   // the book; its learning file is book.LearnPath(path)
	start   string   // FEN of the game's start; "" for the start position
	moves   []string // the game so far
	reports []string // book learning lines not yet taken
}

func newSrvLearner(t *testing.T) *srvLearner {
	t.Helper()
	// One ply deep, so each search reports its score once; "go ponder"
	// waits for ponderhit or stop, "go infinite" for stop.
	a := &enginetest.Engine{MaxDepth: 1, WaitForStop: true}
	l := &srvLearner{srvSession: newSrvSessionWith(t, a), a: a, path: srvWriteBook(t, srvLearnBook)}
	l.quiet("setoption name OwnBook value true")
	l.exchange("setoption name BookFile value " + l.path)
	return l
}

// note keeps the book learning lines (and errors) among lines.
func (l *srvLearner) note(lines []string) {
	for _, x := range lines {
		if strings.HasPrefix(x, "info string book learning") || strings.HasPrefix(x, "info string error") {
			l.reports = append(l.reports, x)
		}
	}
}

// sendPosition sends the game's position and updates the mirror.
func (l *srvLearner) sendPosition() {
	l.t.Helper()
	cmd, p := "position startpos", chess.NewPosition()
	if l.start != "" {
		var err error
		if p, err = chess.ParseFEN(l.start); err != nil {
			l.t.Fatal(err)
		}
		cmd = "position fen " + l.start
	}
	var u chess.Undo
	for _, tok := range l.moves {
		m, err := p.ParseUCI(tok)
		if err != nil {
			l.t.Fatalf("game move %s: %v", tok, err)
		}
		p.MakeMove(m, &u)
	}
	if len(l.moves) > 0 {
		cmd += " moves " + strings.Join(l.moves, " ")
	}
	l.note(l.exchange(cmd))
	l.pos = p
}

// reply plays the server's move m and the opponent's answer, or its first
// legal move when answer is "".
func (l *srvLearner) reply(m, answer string) {
	l.t.Helper()
	q := l.pos.Clone()
	mv, ok := srvFindMove(q, m)
	if !ok {
		l.t.Fatalf("%s is not legal in %s", m, q.FEN())
	}
	var u chess.Undo
	q.MakeMove(mv, &u)
	var ml chess.MoveList
	q.GenerateLegal(&ml)
	if ml.N == 0 {
		l.t.Fatalf("the test game ended after %v %s", l.moves, m)
	}
	if answer == "" {
		answer = ml.Moves[0].UCI(false)
	}
	l.moves = append(l.moves, m, answer)
}

// bookMove asks for a move where the book has want, and plays it.
func (l *srvLearner) bookMove(want string) {
	l.t.Helper()
	l.sendPosition()
	_, lines := l.search("wtime 10000 btime 10000")
	if m, _ := srvBookAnswer(l.t, lines); m != want {
		l.t.Fatalf("book move %s, want %s", m, want)
	}
	l.reply(want, "")
}

// set makes the searches play the move play (UCI; "" for the first legal
// move) at the score sc.
func (l *srvLearner) set(sc engine.Score, play string) {
	l.a.Score = func(engine.Game, int, int) engine.Score { return sc }
	l.a.Best = func(_ engine.Game, p *chess.Position) (chess.Move, error) {
		if play == "" {
			return chess.NullMove, nil
		}
		return p.ParseUCI(play)
	}
}

// searchOut asks for a move out of the book, scored sc, and plays it.
func (l *srvLearner) searchOut(sc engine.Score) {
	l.t.Helper()
	l.searchPlaying(sc, "", "")
}

// searchPlaying is searchOut with the server's move (when legal) and the
// opponent's answer chosen ("" for the first legal move).
func (l *srvLearner) searchPlaying(sc engine.Score, play, answer string) {
	l.t.Helper()
	l.sendPosition()
	l.set(sc, play)
	best, lines := l.search("wtime 10000 btime 10000")
	srvSearched(l.t, "out of the book", lines)
	l.note(lines)
	if play != "" && best[1] != play {
		l.t.Fatalf("searched %s, the test set %s", best[1], play)
	}
	l.reply(best[1], answer)
}

// lossAtLast plays knowledge.LearnAfter searches out of the book at -3.00 and fails
// unless the server learns nothing until the last, and then a loss for
// moves ("1 book move"): the count of searches started where the test
// says.
func (l *srvLearner) lossAtLast(what, moves string) {
	l.t.Helper()
	for i := range knowledge.LearnAfter {
		l.searchOut(srvCP(-300))
		got := l.settle()
		if i+1 < knowledge.LearnAfter && len(got) > 0 {
			l.t.Fatalf("%s, search %d: %q; earlier searches were counted", what, i+1, got)
		}
		if want := "info string book learning: loss for " + moves; i+1 == knowledge.LearnAfter && (len(got) != 1 || got[0] != want) {
			l.t.Fatalf("%s, search %d: %q, want %q", what, i+1, got, want)
		}
	}
}

// learnsNothing plays more searches out of the book at sc than learning
// waits for, and fails if the server learned anything from them.
func (l *srvLearner) learnsNothing(what string, sc engine.Score) {
	l.t.Helper()
	for range knowledge.LearnAfter + 1 {
		l.searchOut(sc)
	}
	if got := l.settle(); len(got) > 0 {
		l.t.Errorf("%s printed %q", what, got)
	}
}

// srvShuffle is knights out and back, repeated to at least n plies: a game
// that returns to its start position (as the book's key sees it).
func srvShuffle(n int) []string {
	var moves []string
	for len(moves) < n {
		moves = append(moves, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	return moves
}

// settle sends the game's position again, by which the server takes the
// last search into book learning, and returns the learning lines printed
// since the last settle.
func (l *srvLearner) settle() []string {
	l.t.Helper()
	l.sendPosition()
	r := l.reports
	l.reports = nil
	return r
}

// learned returns the learning file's score of the book move move after
// the moves after, and fails unless the book's Candidates agree with it.
func (l *srvLearner) learned(after, move string) int {
	l.t.Helper()
	lf, err := book.LoadLearning(book.LearnPath(l.path))
	if err != nil {
		l.t.Fatal(err)
	}
	p := enginetest.Position(l.t, after)
	m, err := p.ParseUCI(move)
	if err != nil {
		l.t.Fatal(err)
	}
	score, _ := lf.Lookup(book.Key(p), book.EncodeMove(m))
	b, err := book.Open(l.path)
	if err != nil {
		l.t.Fatal(err)
	}
	found := false
	for _, c := range b.Candidates(p, lf) {
		if c.Move == m {
			found = true
			if c.Score != score {
				l.t.Errorf("Candidates show %s after %q at %d, the file %d", move, after, c.Score, score)
			}
		}
	}
	if !found {
		l.t.Errorf("%s after %q is not among the book's Candidates", move, after)
	}
	return score
}

// noLearningFile fails if the learning file was written.
func (l *srvLearner) noLearningFile(what string) {
	l.t.Helper()
	if data, err := os.ReadFile(book.LearnPath(l.path)); !errors.Is(err, fs.ErrNotExist) {
		l.t.Errorf("%s: learning file written (%v):\n%s", what, err, data)
	}
}

func srvCP(cp int) engine.Score  { return engine.Score{CP: cp} }
func srvMate(n int) engine.Score { return engine.Score{Mate: n} }
func srvScores(n int, sc engine.Score) []engine.Score {
	return slices.Repeat([]engine.Score{sc}, n)
}

// TestServerBookLearnScore plays 1.e4 from the book and then searches at
// the given scores: the 10th search out of the book judges the line (one
// seeing a mate at once), and nothing after it counts.
func TestServerBookLearnScore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []engine.Score
		at     int    // the search that judges the line
		result string // as reported
		want   int    // e2e4's learning score
	}{
		{"loss", srvScores(10, srvCP(-300)), 10, "loss", -1},
		{"win at +150", append(srvScores(9, srvCP(0)), srvCP(150)), 10, "win", 1},
		{"loss at -150", append(srvScores(9, srvCP(0)), srvCP(-150)), 10, "loss", -1},
		{"draw at +149", append(srvScores(9, srvCP(0)), srvCP(149)), 10, "draw", 0},
		{"draw at -149", append(srvScores(9, srvCP(0)), srvCP(-149)), 10, "draw", 0},
		{"only the 10th counts", append(srvScores(9, srvCP(900)), srvCP(100)), 10, "draw", 0},
		{"mate at the 10th", append(srvScores(9, srvCP(0)), srvMate(7)), 10, "win", 1},
		{"mate seen early", []engine.Score{srvCP(0), srvCP(0), srvMate(3)}, 3, "win", 1},
		{"mated early", []engine.Score{srvCP(0), srvMate(-2)}, 2, "loss", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newSrvLearner(t)
			l.bookMove("e2e4")
			for i, sc := range tc.scores {
				l.searchOut(sc)
				got := l.settle()
				if i+1 < tc.at {
					if len(got) > 0 {
						t.Fatalf("after search %d: %q, want nothing before search %d", i+1, got, tc.at)
					}
					continue
				}
				want := "info string book learning: " + tc.result + " for 1 book move"
				if len(got) != 1 || got[0] != want {
					t.Fatalf("after search %d: %q, want %q", i+1, got, want)
				}
			}
			if tc.want == 0 {
				l.noLearningFile("a draw")
			} else if got := l.learned("", "e2e4"); got != tc.want {
				t.Errorf("e2e4 learned %d, want %d", got, tc.want)
			}
			// Once per game: more searches, even at the opposite score,
			// change nothing.
			before, _ := os.ReadFile(book.LearnPath(l.path))
			l.learnsNothing("searches after the line was judged", srvCP(-600*max(tc.want, 1)))
			if after, _ := os.ReadFile(book.LearnPath(l.path)); string(after) != string(before) {
				t.Errorf("learning file changed after the line was judged:\n%s\nthen\n%s", before, after)
			}
		})
	}
}

// TestServerBookLearnNotCounted: analysis (infinite, mate, searchmoves), a
// ponder search that is not played (stop, no ponderhit) and a search that
// reported no score do not count; a ponder search that gets ponderhit does.
func TestServerBookLearnNotCounted(t *testing.T) {
	l := newSrvLearner(t)
	l.bookMove("e2e4")
	for range knowledge.LearnAfter - 2 {
		l.searchOut(srvCP(-300))
	}
	l.sendPosition()
	for _, args := range []string{"infinite", "ponder wtime 10000 btime 10000", ""} {
		l.send(strings.TrimSpace("go " + args))
		l.note(l.expect("info depth"))
		l.send("stop")
		l.note(l.expect("bestmove"))
	}
	var ml chess.MoveList
	l.pos.GenerateLegal(&ml)
	for _, args := range []string{"depth 3 mate 2", "depth 3 searchmoves " + ml.Moves[1].UCI(false)} {
		_, lines := l.search(args)
		l.note(lines)
	}
	// A search that reported no score says nothing of the line.
	l.set(srvCP(-300), "")
	l.a.Script = func(engine.Game) []engine.Info { return nil } // reports nothing
	_, lines := l.search("wtime 10000 btime 10000")
	l.note(lines)
	l.a.Script = nil
	if got := l.settle(); len(got) > 0 {
		t.Fatalf("analysis at the 9th search printed %q", got)
	}
	l.searchOut(srvCP(-300)) // the 9th
	if got := l.settle(); len(got) > 0 {
		t.Fatalf("9th search printed %q", got)
	}
	// The 10th, pondered and played.
	l.set(srvCP(-300), "")
	l.send("go ponder wtime 10000 btime 10000")
	l.note(l.expect("info depth"))
	l.send("ponderhit")
	lines = l.expect("bestmove")
	l.note(lines)
	l.reply(strings.Fields(lines[len(lines)-1])[1], "")
	if got := l.settle(); len(got) != 1 || got[0] != "info string book learning: loss for 1 book move" {
		t.Fatalf("10th search, pondered and hit: %q, want a loss learned", got)
	}
	if got := l.learned("", "e2e4"); got != -1 {
		t.Errorf("e2e4 learned %d, want -1", got)
	}
}

// TestServerBookLearnPonderBook: a book move pondered on but not played
// (stop) is not part of the game's line.
func TestServerBookLearnPonderBook(t *testing.T) {
	l := newSrvLearner(t)
	l.sendPosition()
	l.send("go ponder wtime 10000 btime 10000")
	l.send("stop")
	srvBookAnswer(t, l.expect("bestmove"))
	// The GUI plays its own 1.d4 instead: no book move of the server's.
	l.moves = []string{"d2d4", "e7e5"}
	l.learnsNothing("a game without a book move played", srvCP(-300))
	l.noLearningFile("no book move played")
}

// TestServerBookLearnGames: each game is judged on its own, whether the
// GUI sends ucinewgame, a shorter game, or another start position.
func TestServerBookLearnGames(t *testing.T) {
	l := newSrvLearner(t)
	game := func(what string, want int) {
		t.Helper()
		l.bookMove("e2e4")
		for range knowledge.LearnAfter {
			l.searchOut(srvCP(-300))
		}
		if got := l.settle(); len(got) != 1 || got[0] != "info string book learning: loss for 1 book move" {
			t.Fatalf("%s: %q, want a loss learned", what, got)
		}
		if got := l.learned("", "e2e4"); got != want {
			t.Errorf("%s: e2e4 learned %d, want %d", what, got, want)
		}
	}
	game("first game", -1)
	// ucinewgame, then a game as long as the last one: only ucinewgame
	// tells the server that it is a new game.
	l.note(l.exchange("ucinewgame"))
	l.moves = srvShuffle(len(l.moves))
	game("after ucinewgame", -2)
	l.moves = nil // a GUI that never sends ucinewgame: the game got shorter
	game("shorter game", -3)

	// Another start position, with as many moves as the game before: a
	// new game, whose count starts afresh and whose line is its own.
	l.moves = nil
	l.bookMove("e2e4")
	for range 3 {
		l.searchOut(srvCP(-300))
	}
	l.start = enginetest.Position(t, "d2d4 d7d5").FEN()
	l.moves = srvShuffle(len(l.moves)) // as long as the game left
	l.bookMove("c2c4")
	l.lossAtLast("another start", "1 book move") // the last game's searches do not count
	if got := l.learned("d2d4 d7d5", "c2c4"); got != -1 {
		t.Errorf("another start: c2c4 learned %d, want -1", got)
	}
	if got := l.learned("", "e2e4"); got != -3 {
		t.Errorf("another start: e2e4 learned %d, want still -3", got)
	}
}

// TestServerBookLearnBackInBook: the server's searches lead back into the
// book; the count starts again after its last book move, and the line
// judged is both book moves.
func TestServerBookLearnBackInBook(t *testing.T) {
	l := newSrvLearner(t)
	l.bookMove("e2e4")
	l.moves[len(l.moves)-1] = "e7e5"
	// 2.Nc3 Nf6 3.Nb1 Ng8 4.Nf3 Nc6: 1.e4 e5 2.Nf3 Nc6 again.
	l.searchPlaying(srvCP(0), "b1c3", "g8f6")
	l.searchPlaying(srvCP(0), "c3b1", "f6g8")
	l.searchPlaying(srvCP(0), "g1f3", "b8c6")
	l.bookMove("f1b5")
	l.lossAtLast("after the last book move", "2 book moves") // the searches before it do not count
	if e4, bb5 := l.learned("", "e2e4"), l.learned("e2e4 e7e5 g1f3 b8c6", "f1b5"); e4 != -1 || bb5 != -1 {
		t.Errorf("learned e2e4 %d, f1b5 %d; want -1 for both", e4, bb5)
	}
}

// TestServerBookLearnOwnBookOff: searches with OwnBook off are not the
// server's book games, and learn nothing.
func TestServerBookLearnOwnBookOff(t *testing.T) {
	l := newSrvLearner(t)
	l.bookMove("e2e4")
	l.quiet("setoption name OwnBook value false")
	l.learnsNothing("OwnBook off", srvCP(-300))
	l.noLearningFile("OwnBook off")
}

// TestServerBookLearnSaveError: a learning file that cannot be written is
// reported, and the server carries on.
func TestServerBookLearnSaveError(t *testing.T) {
	l := newSrvLearner(t)
	// A directory in the file's place: the rename over it fails, even
	// for root.
	if err := os.Mkdir(book.LearnPath(l.path), 0o755); err != nil {
		t.Fatal(err)
	}
	l.bookMove("e2e4")
	for range knowledge.LearnAfter {
		l.searchOut(srvCP(-300))
	}
	got := l.settle()
	if len(got) != 2 || got[0] != "info string book learning: loss for 1 book move" ||
		!strings.HasPrefix(got[1], "info string error: book learning: write "+book.LearnPath(l.path)) {
		t.Fatalf("learning with an unwritable file printed %q, want the loss and an error", got)
	}
	l.searchOut(srvCP(0))
	if got := l.settle(); len(got) > 0 {
		t.Errorf("after the failed save: %q", got)
	}
}
