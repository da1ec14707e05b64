package uci

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/search"
)

// The server tests are scripted UCI sessions against the real searcher:
// the test writes a command into the server's input pipe and reads its
// output line by line until an expected line arrives. Nothing is timed
// except a generous deadline per expected line that only catches a hang;
// ordering is what is asserted.
//
// Every line the session reads is also checked against the position the
// server should hold (a mirror kept by the test with engine/chess): every
// bestmove (and its ponder move) must be legal there, "0000" only when there
// is no legal move, and every info line must parse with ParseInfo.

const srvDeadline = 60 * time.Second // a hang, not a slow machine

// Positions used by several tests.
const (
	srvMateIn1    = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" // Ra8#
	srvMated      = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1" // black is mated
	srvStalemate  = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"    // black is stalemated
	srvUnderpromo = "8/2q1P1k1/8/8/8/8/P7/K7 w - - 0 1" // e8=N+ forks king and queen; e8=Q allows checks
)

type srvSession struct {
	t       *testing.T
	in      *io.PipeWriter
	lines   chan string
	runDone chan struct{}
	runErr  error
	pos     *chess.Position // what the server should hold
	seen    []string        // every line read, for failure messages
}

// newSrvSession starts a server on a fresh searcher with a small hash.
func newSrvSession(t *testing.T) *srvSession {
	t.Helper()
	a := search.New()
	if err := a.SetOption("Hash", "1"); err != nil {
		t.Fatal(err)
	}
	return newSrvSessionWith(t, a)
}

// newSrvSessionWith starts a server on a, which the session closes.
func newSrvSessionWith(t *testing.T, a engine.Analyzer) *srvSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &srvSession{t: t, in: inW, lines: make(chan string, 1<<16), runDone: make(chan struct{}), pos: chess.NewPosition()}
	srv := NewServer(a, outW)
	go func() {
		s.runErr = srv.Run(inR)
		outW.Close()
		close(s.runDone)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		// End of input stops any search still running (an infinite one
		// included) and ends Run.
		inW.Close()
		go func() {
			for range s.lines {
			}
		}()
		s.ended("at the end of input")
		a.Close()
	})
	return s
}

func (s *srvSession) send(cmd string) {
	s.t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := io.WriteString(s.in, cmd+"\n")
		errc <- err
	}()
	select {
	case err := <-errc:
		if err != nil {
			s.t.Fatalf("sending %q: %v", cmd, err)
		}
	case <-time.After(srvDeadline):
		s.t.Fatalf("server did not read %q; output so far:\n%s", cmd, s.dump())
	}
}

func (s *srvSession) dump() string {
	return strings.Join(s.seen[max(0, len(s.seen)-40):], "\n")
}

// expect reads lines until one starts with prefix and returns them all
// (the matching line last).
func (s *srvSession) expect(prefix string) []string {
	s.t.Helper()
	var got []string
	deadline := time.After(srvDeadline)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended waiting for %q; output so far:\n%s", prefix, s.dump())
			}
			s.seen = append(s.seen, line)
			s.check(line)
			got = append(got, line)
			if strings.HasPrefix(line, prefix) {
				return got
			}
		case <-deadline:
			s.t.Fatalf("no %q line; output so far:\n%s", prefix, s.dump())
		}
	}
}

// exchange sends cmd and then isready, and returns what cmd printed (the
// lines before readyok).
func (s *srvSession) exchange(cmd string) []string {
	s.t.Helper()
	s.send(cmd)
	s.send("isready")
	got := s.expect("readyok")
	return got[:len(got)-1]
}

// quiet runs cmd and fails unless it printed nothing.
func (s *srvSession) quiet(cmd string) {
	s.t.Helper()
	if got := s.exchange(cmd); len(got) > 0 {
		s.t.Fatalf("%q printed %q, want nothing", cmd, got)
	}
}

// refused runs cmd and fails unless it printed exactly one error line
// (and so no bestmove), besides the info lines of a running search.
func (s *srvSession) refused(cmd string) string {
	s.t.Helper()
	var got []string
	for _, l := range s.exchange(cmd) {
		// A running search's progress is not part of the answer.
		if !strings.HasPrefix(l, "info ") || strings.HasPrefix(l, "info string ") {
			got = append(got, l)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "info string error: ") {
		s.t.Fatalf("%q printed %q, want one \"info string error:\" line", cmd, got)
	}
	// The server clips what it quotes, so hostile input cannot make the
	// answer huge.
	if len(got[0]) > 200 {
		s.t.Errorf("%.40q: error line of %d bytes", cmd, len(got[0]))
	}
	return got[0]
}

// stillSearching sends isready and fails if the running search printed
// bestmove before readyok; what names the search in the failure.
func (s *srvSession) stillSearching(what string) {
	s.t.Helper()
	if got := s.exchange("isready"); slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "bestmove") }) {
		s.t.Fatalf("%s printed bestmove: %q", what, got)
	}
}

// ended fails unless Run returns without an error within the deadline;
// when says what should have ended it.
func (s *srvSession) ended(when string) {
	s.t.Helper()
	select {
	case <-s.runDone:
		if s.runErr != nil {
			s.t.Errorf("Run %s: %v", when, s.runErr)
		}
	case <-time.After(srvDeadline):
		s.t.Errorf("Run did not return %s", when)
	}
}

// position sends "position fen … moves …" (or startpos when fen is empty)
// and updates the mirror.
func (s *srvSession) position(fen string, moves ...string) {
	s.t.Helper()
	cmd := s.expectPosition(fen, moves...)
	s.quiet(cmd)
}

// expectPosition sets the session's idea of the position (what it checks
// bestmoves against) without telling the server, and returns the command
// that would.
func (s *srvSession) expectPosition(fen string, moves ...string) string {
	s.t.Helper()
	var p *chess.Position
	cmd := "position startpos"
	if fen == "" {
		p = chess.NewPosition()
	} else {
		var err error
		if p, err = chess.ParseFEN(fen); err != nil {
			s.t.Fatalf("bad test FEN %q: %v", fen, err)
		}
		cmd = "position fen " + fen
	}
	p.SetChess960(s.pos.Chess960() || p.Chess960())
	var u chess.Undo
	for _, tok := range moves {
		m, err := p.ParseUCI(tok)
		if err != nil {
			s.t.Fatalf("bad test move %q: %v", tok, err)
		}
		p.MakeMove(m, &u)
	}
	if len(moves) > 0 {
		cmd += " moves " + strings.Join(moves, " ")
	}
	s.pos = p
	return cmd
}

// search sends "go args" and returns the bestmove line's fields and every
// line printed.
func (s *srvSession) search(args string) (best []string, lines []string) {
	s.t.Helper()
	s.send(strings.TrimSpace("go " + args))
	lines = s.expect("bestmove")
	return strings.Fields(lines[len(lines)-1]), lines
}

// check is the property every output line must have.
func (s *srvSession) check(line string) {
	s.t.Helper()
	switch {
	case strings.HasPrefix(line, "bestmove"):
		srvCheckBestMove(s.t, s.pos, line)
	case strings.HasPrefix(line, "info ") && !strings.HasPrefix(line, "info string "):
		if _, err := ParseInfo(line, s.pos); err != nil {
			s.t.Errorf("info line %q does not parse: %v", line, err)
		}
	}
}

// srvCheckBestMove fails unless line is "bestmove m [ponder r]" with m
// legal in p and r legal after it, spelled as the server must spell them;
// "bestmove 0000" is right only when p has no legal move.
func srvCheckBestMove(t *testing.T, p *chess.Position, line string) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) != 2 && (len(f) != 4 || f[2] != "ponder") {
		t.Errorf("malformed %q", line)
		return
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	if f[1] == "0000" {
		if ml.N != 0 || len(f) != 2 {
			t.Errorf("%q in %s, which has %d legal moves", line, p.FEN(), ml.N)
		}
		return
	}
	m, ok := srvFindMove(p, f[1])
	if !ok {
		t.Errorf("%q: %s is not a legal move in %s", line, f[1], p.FEN())
		return
	}
	if len(f) == 4 {
		q := p.Clone()
		var u chess.Undo
		q.MakeMove(m, &u)
		if _, ok := srvFindMove(q, f[3]); !ok {
			t.Errorf("%q: ponder move %s is not legal after %s in %s", line, f[3], f[1], p.FEN())
		}
	}
}

// srvFindMove finds the legal move spelled exactly s (castling as king
// takes rook only in Chess960 mode).
func srvFindMove(p *chess.Position, s string) (chess.Move, bool) {
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if m.UCI(p.Chess960()) == s {
			return m, true
		}
	}
	return chess.NullMove, false
}

// srvLastInfo returns the last info line with a score.
func srvLastInfo(t *testing.T, lines []string) string {
	t.Helper()
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], " score ") {
			return lines[i]
		}
	}
	t.Fatalf("no info line with a score in %q", lines)
	return ""
}

// srvField returns the value after key in an info line ("" if absent).
func srvField(line, key string) string {
	f := strings.Fields(line)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == key {
			return f[i+1]
		}
	}
	return ""
}

func srvDepths(lines []string) []int {
	var ds []int
	for _, l := range lines {
		if d := srvField(l, "depth"); d != "" && strings.HasPrefix(l, "info ") {
			n, _ := strconv.Atoi(d)
			ds = append(ds, n)
		}
	}
	return ds
}

func TestServerUCI(t *testing.T) {
	s := newSrvSession(t)
	got := s.exchange("uci")
	if len(got) < 3 || got[0] != "id name Squall" || !strings.HasPrefix(got[1], "id author ") || got[len(got)-1] != "uciok" {
		t.Fatalf("uci printed %q", got)
	}
	// The searcher's options, then the server's own (book and tablebases);
	// not the hidden ones (the search's tuning constants).
	want := append(slices.DeleteFunc(search.New().Options(), func(o engine.Option) bool { return o.Hidden }),
		engine.Option{Name: "OwnBook", Type: "check", Default: "false"},
		engine.Option{Name: "BookFile", Type: "string", Default: ""},
		engine.Option{Name: "BookVariety", Type: "spin", Default: "100", Min: 0, Max: 100},
		engine.Option{Name: "SyzygyPath", Type: "string", Default: ""},
		engine.Option{Name: "SyzygyProbeDepth", Type: "spin", Default: "1", Min: 1, Max: 100}, // the searcher probes inside its search
		engine.Option{Name: "Syzygy50MoveRule", Type: "check", Default: "true"},
	)
	var opts []string
	for _, l := range got[2 : len(got)-1] {
		o, err := ParseOption(l)
		if err != nil {
			t.Errorf("option line %q: %v", l, err)
			continue
		}
		opts = append(opts, o.Name)
		i := slices.IndexFunc(want, func(w engine.Option) bool { return w.Name == o.Name })
		if i < 0 {
			t.Errorf("option %q is not one of the searcher's or the server's", o.Name)
			continue
		}
		if i != len(opts)-1 {
			t.Errorf("option %q listed at %d, want %d", o.Name, len(opts)-1, i)
		}
		w := want[i]
		if o.Type != w.Type || o.Default != w.Default || o.Min != w.Min || o.Max != w.Max {
			t.Errorf("option line %q reads as %+v, want %+v", l, o, w)
		}
	}
	if len(opts) != len(want) {
		t.Errorf("uci listed options %q, want %d", opts, len(want))
	}
	// uci again (a GUI may probe twice) gives the same answer.
	if again := s.exchange("uci"); !slices.Equal(again, got) {
		t.Errorf("second uci printed %q, first %q", again, got)
	}
}

func TestServerIsReady(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("isready")
	// isready is answered during a search, without ending it.
	s.send("go infinite")
	s.expect("info depth")
	s.stillSearching("isready during an infinite search")
	s.send("stop")
	s.expect("bestmove")
}

func TestServerNewGame(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("ucinewgame")
	s.position("", "e2e4")
	s.search("depth 3")
	s.quiet("ucinewgame")
	// The position is the GUI's to set: ucinewgame leaves it alone.
	s.search("depth 2")
	s.send("go infinite")
	s.expect("info depth")
	s.refused("ucinewgame")
	s.send("stop")
	s.expect("bestmove")
	s.quiet("ucinewgame")
}

func TestServerSetOption(t *testing.T) {
	s := newSrvSession(t)
	got := s.exchange("uci")
	// Every option, set to its default (a button without a value; Hash to
	// its minimum, to keep the test light), is accepted silently; so is a
	// name with other case.
	for _, l := range got[2 : len(got)-1] {
		o, err := ParseOption(l)
		if err != nil {
			t.Fatal(err)
		}
		cmd := "setoption name " + o.Name
		switch {
		case o.Name == "Hash":
			cmd += " value " + strconv.Itoa(o.Min)
		case o.Type != "button":
			cmd += " value " + o.Default
		}
		s.quiet(cmd)
	}
	s.quiet("setoption name hash value 2")
	s.quiet("setoption name Hash value 1")
	s.quiet("setoption name Clear Hash")
	s.quiet("setoption name Move Overhead value 10")
	s.quiet("setoption name Skill Level value 20")
	// A hidden option (a tuning constant) is set like a listed one.
	s.quiet("setoption name LMRBase value 80")
	s.quiet("setoption name lmrbase value 75")
	if got := s.refused("setoption name LMRBase value 9999"); !strings.Contains(got, "LMRBase") {
		t.Errorf("LMRBase 9999 refused with %q, which does not name it", got)
	}
	_, lines := s.search("depth 4")
	if srvField(srvLastInfo(t, lines), "hashfull") == "" {
		t.Errorf("no hashfull after a Hash resize: %q", lines)
	}
}

func TestServerSetOptionBad(t *testing.T) {
	s := newSrvSession(t)
	for _, cmd := range []string{
		"setoption",
		"setoption name",
		"setoption Hash value 2",
		"setoption name value 3",
		"setoption name No Such Option value 1",
		"setoption name Hash value 0",
		"setoption name Hash value 70000",
		"setoption name Hash value lots",
		"setoption name Hash",
		"setoption name Threads value -1",
		"setoption name MultiPV value 0",
		"setoption name MultiPV value 65",
		"setoption name MultiPV value three",
		"setoption name UCI_ShowWDL value yes",
		"setoption name UCI_Chess960 value 1",
		"setoption name Skill Level value 21",
		"setoption name " + strings.Repeat("x", 5000) + " value 1",
	} {
		s.refused(cmd)
	}
	// Nothing changed: one line per depth, no WDL, standard castling.
	s.position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	_, lines := s.search("depth 3")
	for _, l := range lines {
		if strings.Contains(l, " wdl ") || (strings.Contains(l, " multipv ") && srvField(l, "multipv") != "1") {
			t.Errorf("after refused options: %q", l)
		}
	}
	if best, _ := s.search("depth 1 searchmoves e1h1"); best[1] != "e1g1" {
		t.Errorf("castling spelled %q after a refused UCI_Chess960, want e1g1", best[1])
	}
	// During a search even a good setoption is refused.
	s.send("go infinite")
	s.expect("info depth")
	s.refused("setoption name MultiPV value 2")
	s.send("stop")
	s.expect("bestmove")
	if _, lines := s.search("depth 2"); slices.ContainsFunc(lines, func(l string) bool { return srvField(l, "multipv") == "2" }) {
		t.Errorf("MultiPV set during a search took effect: %q", lines)
	}
}

func TestServerSetOptionMultiPV(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("setoption name MultiPV value 3")
	_, lines := s.search("depth 3")
	seen := map[string]bool{}
	for _, l := range lines {
		if strings.HasPrefix(l, "info ") && srvField(l, "depth") == "3" && srvField(l, "pv") != "" {
			seen[srvField(l, "multipv")] = true
		}
	}
	if len(seen) != 3 || !seen["1"] || !seen["2"] || !seen["3"] {
		t.Errorf("MultiPV 3 at depth 3 gave lines %v: %q", seen, lines)
	}
	// Fewer legal moves than lines: one line per move.
	s.position("7k/8/8/8/8/8/8/K7 w - - 0 1") // Ka2, Kb1, Kb2
	_, lines = s.search("depth 2")
	seen = map[string]bool{}
	for _, l := range lines {
		if strings.HasPrefix(l, "info ") && srvField(l, "depth") == "2" {
			seen[srvField(l, "multipv")] = true
		}
	}
	if len(seen) != 3 {
		t.Errorf("three legal moves with MultiPV 3 gave lines %v", seen)
	}
}

func TestServerSetOptionShowWDL(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("setoption name UCI_ShowWDL value true")
	_, lines := s.search("depth 3")
	n := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "info depth") {
			continue
		}
		f := strings.Fields(l)
		i := slices.Index(f, "wdl")
		if i < 0 || i+3 >= len(f) {
			t.Errorf("no wdl in %q", l)
			continue
		}
		sum := 0
		for _, v := range f[i+1 : i+4] {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 {
				t.Errorf("bad wdl in %q", l)
			}
			sum += x
		}
		if sum != 1000 {
			t.Errorf("wdl in %q sums to %d", l, sum)
		}
		n++
	}
	if n == 0 {
		t.Fatalf("no info depth lines: %q", lines)
	}
	s.quiet("setoption name UCI_ShowWDL value false")
	if _, lines := s.search("depth 2"); slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " wdl ") }) {
		t.Errorf("wdl after UCI_ShowWDL false: %q", lines)
	}
}

func TestServerChess960(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("setoption name UCI_Chess960 value true")
	s.pos.SetChess960(true)
	fen := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1"
	s.position(fen, "e1h1")
	d := strings.Join(s.exchange("d"), "\n")
	if !strings.Contains(d, "Fen: "+s.pos.FEN()) || !strings.Contains(d, "| R | K |   | 1") {
		t.Errorf("after e1h1 in Chess960 mode d shows:\n%s", d)
	}
	s.position(fen)
	if best, _ := s.search("depth 1 searchmoves e1h1"); best[1] != "e1h1" {
		t.Errorf("Chess960 castling spelled %q, want e1h1", best[1])
	}
	// And back: standard castling is the king's two-square step.
	s.quiet("setoption name UCI_Chess960 value false")
	s.pos.SetChess960(false)
	s.position(fen)
	if best, _ := s.search("depth 1 searchmoves e1g1"); best[1] != "e1g1" {
		t.Errorf("standard castling spelled %q, want e1g1", best[1])
	}
}

func TestServerPosition(t *testing.T) {
	s := newSrvSession(t)
	fenOf := func() string {
		t.Helper()
		for _, l := range s.exchange("d") {
			if f, ok := strings.CutPrefix(l, "Fen: "); ok {
				return f
			}
		}
		t.Fatal("d printed no Fen line")
		return ""
	}
	s.position("")
	if got := fenOf(); got != chess.NewPosition().FEN() {
		t.Errorf("startpos: d shows %s", got)
	}
	s.position("", "e2e4", "e7e5", "g1f3")
	if got, want := fenOf(), s.pos.FEN(); got != want {
		t.Errorf("startpos moves: d shows %s, want %s", got, want)
	}
	s.position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "f1b5", "a7a6")
	if got, want := fenOf(), s.pos.FEN(); got != want {
		t.Errorf("fen moves: d shows %s, want %s", got, want)
	}
	s.quiet("position startpos moves") // an empty move list is allowed
	s.pos = chess.NewPosition()
	s.position("", "e2e4", "d7d5", "e4e5", "f7f5", "e5f6") // en passant
	s.position("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8r")    // underpromotion
	held := s.pos.FEN()

	// A command that is wrong before its moves changes nothing.
	for _, cmd := range []string{
		"position",
		"position start",
		"position fen",
		"position fen moves e2e4",
		"position fen not a fen",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1", // no kings
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk", // a seventh field
		"position startpos e2e4",
		"position " + strings.Repeat("x", 10000),
	} {
		s.refused(cmd)
		if got := fenOf(); got != held {
			t.Fatalf("after refused %.60q: d shows %s, want the previous %s", cmd, got, held)
		}
	}
	// A bad move keeps the moves before it, as Stockfish does (issue 18,
	// U1): the position is the one the GUI reached up to that move.
	for _, c := range []struct {
		cmd  string
		fen  string
		good []string
	}{
		{"position startpos moves e2e5", "", nil},
		{"position startpos moves e2e4 e2e4", "", []string{"e2e4"}},
		{"position startpos moves e2e4 e7e5 e1e3", "", []string{"e2e4", "e7e5"}},
		{"position startpos moves e2e4 zz", "", []string{"e2e4"}},
		{"position startpos moves e7e5", "", nil}, // black's move with white to move
		{"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d1e2 e8g8 e2e8", "", []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5", "d1e2", "e8g8"}},
		{"position startpos moves a7a8q", "", nil},
		{"position startpos moves e2e4x", "", nil},
		{"position startpos moves " + strings.Repeat("e2e4 ", 2000), "", []string{"e2e4"}},
		{"position fen 4k3/8/8/8/8/8/8/4K2Q b - - 0 1 moves e8d8 h1h8 d8e8", "4k3/8/8/8/8/8/8/4K2Q b - - 0 1", []string{"e8d8", "h1h8"}}, // into check
	} {
		s.refused(c.cmd)
		s.expectPosition(c.fen, c.good...)
		if got, want := fenOf(), s.pos.FEN(); got != want {
			t.Fatalf("after %.60q: d shows %s, want %s (the moves before the bad one)", c.cmd, got, want)
		}
	}
	// And a following go searches the kept position (the mirror checks the
	// bestmove against it).
	s.search("depth 2")
}

// TestServerPositionBadMove is issue 18's U1: "position startpos moves e2e4
// e7e5 zzzz" then "go" searched the start position (the whole command was
// thrown away). The moves before the bad one stand, the info string names
// the refused move, and go searches after 1. e4 e5.
func TestServerPositionBadMove(t *testing.T) {
	s := newSrvSession(t)
	msg := s.refused("position startpos moves e2e4 e7e5 zzzz")
	if !strings.Contains(msg, `"zzzz"`) || !strings.Contains(msg, "move 3") {
		t.Errorf("error line %q does not name move 3 \"zzzz\"", msg)
	}
	s.expectPosition("", "e2e4", "e7e5")
	shown := ""
	for _, l := range s.exchange("d") {
		if f, ok := strings.CutPrefix(l, "Fen: "); ok {
			shown = f
		}
	}
	if want := s.pos.FEN(); shown != want {
		t.Errorf("d shows %q, want the position after 1. e4 e5, %s", shown, want)
	}
	s.search("depth 3") // the session checks the bestmove against 1. e4 e5
}

func TestServerGoLimits(t *testing.T) {
	s := newSrvSession(t)
	_, lines := s.search("depth 3")
	if ds := srvDepths(lines); len(ds) == 0 || slices.Max(ds) != 3 {
		t.Errorf("go depth 3 reached depths %v", ds)
	}
	_, lines = s.search("nodes 3000")
	last := srvLastInfo(t, lines)
	if n, err := strconv.Atoi(srvField(last, "nodes")); err != nil || n == 0 || n > 3000+5000 {
		t.Errorf("go nodes 3000: last info %q", last)
	}
	s.search("movetime 30")
	s.search("wtime 2000 btime 2000 winc 20 binc 20 movestogo 30")
	s.search("wtime 300 btime 300")
	s.search("wtime -50 btime 1000") // a GUI may send a negative clock
	s.search("btime 100 wtime 100 winc 0 binc 0 depth 2")
	s.position("", "e2e4")
	s.search("wtime 2000 btime 2000 binc 10 winc 10") // black's clock
	s.position("")

	// searchmoves: only the given moves are played or searched.
	best, lines := s.search("searchmoves a2a3 h2h4 depth 4")
	if best[1] != "a2a3" && best[1] != "h2h4" {
		t.Errorf("searchmoves a2a3 h2h4: bestmove %s", best[1])
	}
	for _, l := range lines {
		if pv := srvField(l, "pv"); pv != "" && pv != "a2a3" && pv != "h2h4" {
			t.Errorf("searchmoves a2a3 h2h4: line %q", l)
		}
	}
	best, _ = s.search("depth 2 searchmoves g1h3")
	if best[1] != "g1h3" {
		t.Errorf("searchmoves g1h3 (before it: depth): bestmove %s", best[1])
	}
}

func TestServerGoBad(t *testing.T) {
	s := newSrvSession(t)
	for _, cmd := range []string{
		"go depth",
		"go depth x",
		"go depth -1",
		"go nodes -5",
		"go movetime",
		"go movetime 1e3",
		"go mate -2",
		"go movestogo -1",
		"go wtime",
		"go wtime 99999999999999999999",
		"go frobnicate 3",
		"go searchmoves",
		"go searchmoves e2e5",
		"go searchmoves e7e5 depth 1",
		"go depth 1 " + strings.Repeat("z", 5000),
	} {
		s.refused(cmd)
	}
	// A refused go leaves no search behind.
	s.search("depth 1")
}

func TestServerInfiniteStop(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("stop") // no search: nothing to say
	for range 3 {
		s.send("go infinite")
		s.expect("info depth")
		// A go during the search is refused and does not disturb it.
		s.refused("go depth 1")
		s.send("stop")
		got := s.expect("bestmove")
		// The stop was answered by bestmove and nothing after it.
		if after := s.exchange("isready"); len(after) != 0 {
			t.Fatalf("after bestmove: %q (before: %q)", after, got)
		}
		s.quiet("stop")
	}
	// stop on a search that already ended is harmless.
	s.search("depth 1")
	s.quiet("stop")
	// "go" with nothing else is an infinite search.
	s.send("go")
	s.expect("info depth")
	s.send("stop")
	s.expect("bestmove")
}

func TestServerPonder(t *testing.T) {
	s := newSrvSession(t)
	s.quiet("setoption name Ponder value true")
	// ponder, then ponderhit: the search goes on as a timed search and
	// ends by itself.
	s.position("", "e2e4")
	s.send("go ponder wtime 500 btime 500 winc 0 binc 0")
	s.expect("info depth")
	s.stillSearching("a ponder search before ponderhit")
	s.send("ponderhit")
	s.expect("bestmove")

	// ponder, then stop (the opponent played another move).
	s.send("go ponder wtime 500 btime 500")
	s.expect("info depth")
	s.send("stop")
	s.expect("bestmove")
	s.quiet("ponderhit") // no search: ignored

	// A ponder search with a depth limit still waits for ponderhit.
	s.send("go ponder depth 1 wtime 500 btime 500")
	s.expect("info depth 1")
	s.stillSearching("a finished ponder search before ponderhit")
	s.send("ponderhit")
	s.expect("bestmove")
}

// A GUI may send ponderhit at any moment after go ponder, even before the
// search has printed anything.
func TestServerPonderHitAtOnce(t *testing.T) {
	s := newSrvSession(t)
	for range 100 {
		s.send("go ponder wtime 100 btime 100")
		s.send("ponderhit")
		s.expect("bestmove")
	}
}

func TestServerQuitDuringSearch(t *testing.T) {
	s := newSrvSession(t)
	s.send("go infinite")
	s.expect("info depth")
	s.send("quit")
	s.expect("bestmove")
	s.ended("after quit")
}

func TestServerEndOfInput(t *testing.T) {
	// A search with limits is allowed to finish at the end of input, so a
	// piped script gets its answer; an infinite one is stopped.
	for _, args := range []string{"depth 4", "infinite", "ponder wtime 100 btime 100"} {
		t.Run(args, func(t *testing.T) {
			s := newSrvSession(t)
			s.send("go " + args)
			s.in.Close()
			s.expect("bestmove")
			s.ended("at the end of input")
		})
	}
}

func TestServerDisplayEval(t *testing.T) {
	s := newSrvSession(t)
	s.position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3") // fool's mate
	d := s.exchange("d")
	joined := strings.Join(d, "\n")
	if !strings.Contains(joined, "Fen: "+s.pos.FEN()) || !strings.Contains(joined, "Checkers: h4") {
		t.Errorf("d printed:\n%s", joined)
	}
	if !strings.Contains(joined, "| q | 4") {
		t.Errorf("d does not show the queen on h4:\n%s", joined)
	}
	for _, fen := range []string{"", srvMated, srvStalemate, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"} {
		s.position(fen)
		e := s.exchange("eval")
		if len(e) == 0 || !strings.HasPrefix(e[len(e)-1], "total ") {
			t.Errorf("eval in %s printed %q", s.pos.FEN(), e)
		}
	}
}

func TestServerUnknownCommand(t *testing.T) {
	s := newSrvSession(t)
	if e := s.refused("frobnicate now"); e != `info string error: unknown command "frobnicate"` {
		t.Errorf("got %q", e)
	}
	s.refused(strings.Repeat("y", 100000))
	s.quiet("")
	s.quiet("   \t ")
	s.quiet("debug on")
	s.quiet("register later")
	// Still working.
	s.search("depth 1")
}

func TestServerUnderpromotion(t *testing.T) {
	s := newSrvSession(t)
	s.position(srvUnderpromo)
	best, _ := s.search("depth 6")
	if best[1] != "e7e8n" {
		t.Errorf("bestmove %s, want the knight fork e7e8n", best[1])
	}
}

func TestServerMateDelivered(t *testing.T) {
	s := newSrvSession(t)
	s.position(srvMateIn1)
	for _, args := range []string{"depth 4", "mate 1", "nodes 5000", "wtime 1000 btime 1000"} {
		best, lines := s.search(args)
		if best[1] != "a1a8" {
			t.Errorf("go %s: bestmove %s, want a1a8", args, best[1])
		}
		last := srvLastInfo(t, lines)
		if !strings.Contains(last, " score mate 1 ") {
			t.Errorf("go %s: last info %q, want score mate 1", args, last)
		}
	}
	// The reply to the mate: the mated side gets 0000.
	s.position(srvMateIn1, "a1a8")
	s.search("depth 3")
}

// srvCheckMatedScore fails unless lines report the side to move as mated,
// however FormatInfo spells it (ParseInfo reads both "score mate 0" and
// the lowest centipawn score as -MatedCP).
func srvCheckMatedScore(t *testing.T, p *chess.Position, lines []string) {
	t.Helper()
	in, err := ParseInfo(srvLastInfo(t, lines), p)
	if err != nil {
		t.Fatal(err)
	}
	if in.Score.Mate != 0 || in.Score.CP != -MatedCP {
		t.Errorf("mated side's score %+v in %q", in.Score, lines)
	}
}

func TestServerMateReceived(t *testing.T) {
	s := newSrvSession(t)
	s.position(srvMated)
	for _, args := range []string{"depth 5", "mate 3", "nodes 100", "wtime 1000 btime 1000", "movetime 10"} {
		best, lines := s.search(args)
		if best[1] != "0000" {
			t.Errorf("go %s when mated: bestmove %s", args, best[1])
		}
		srvCheckMatedScore(t, s.pos, lines)
	}
	// Infinite and ponder searches with no move still wait for their end.
	s.send("go infinite")
	s.expect("info depth")
	if got := s.exchange("isready"); len(got) != 0 {
		t.Fatalf("infinite search when mated printed %q before stop", got)
	}
	s.send("stop")
	s.expect("bestmove 0000")
	s.send("go ponder wtime 100 btime 100")
	s.expect("info depth")
	s.send("stop")
	s.expect("bestmove 0000")
	// ponderhit ends a ponder search with no move to play.
	s.send("go ponder wtime 100 btime 100")
	s.expect("info depth")
	s.send("ponderhit")
	s.expect("bestmove 0000")
	s.send("go ponder wtime 100 btime 100")
	s.send("ponderhit")
	s.expect("bestmove 0000")
}

func TestServerStalemate(t *testing.T) {
	s := newSrvSession(t)
	s.position(srvStalemate)
	for _, args := range []string{"depth 5", "wtime 1000 btime 1000", "infinite", "ponder wtime 1000 btime 1000"} {
		s.send("go " + args)
		var lines []string
		switch args {
		case "infinite":
			lines = s.expect("info depth")
			s.send("stop")
		case "ponder wtime 1000 btime 1000":
			lines = s.expect("info depth")
			s.send("ponderhit")
		}
		lines = append(lines, s.expect("bestmove")...)
		if lines[len(lines)-1] != "bestmove 0000" {
			t.Errorf("go %s when stalemated: %q", args, lines[len(lines)-1])
		}
		if l := srvLastInfo(t, lines); srvField(l, "cp") != "0" || strings.Contains(l, " mate ") {
			t.Errorf("go %s when stalemated: %q, want score cp 0", args, l)
		}
	}
}

func TestServerGoAfterGameEnd(t *testing.T) {
	s := newSrvSession(t)
	// Fool's mate played out as moves: white is mated.
	s.position("", "f2f3", "e7e5", "g2g4", "d8h4")
	best, lines := s.search("wtime 60000 btime 60000")
	if best[1] != "0000" {
		t.Errorf("bestmove %s after mate", best[1])
	}
	srvCheckMatedScore(t, s.pos, lines)
	// Stalemate reached by a move.
	s.position("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1", "e7f7")
	if best, _ := s.search("depth 3"); best[1] != "0000" {
		t.Errorf("bestmove %s after stalemate", best[1])
	}
	// Moves after the mate are refused; the mate stands.
	s.refused("position startpos moves f2f3 e7e5 g2g4 d8h4 e1f2")
	s.search("depth 1")
	// Only searchmoves that exist are accepted: none here.
	s.refused("go searchmoves e1f2")
}

// Regression: bestmove was printed before the search counted as finished,
// so a go sent as soon as the bestmove was read could be refused.
func TestServerGoRightAfterBestmove(t *testing.T) {
	s := newSrvSession(t)
	for i := range 200 {
		if i%2 == 1 {
			// The same race with position (also refused during a search).
			s.send("position startpos moves e2e4")
			s.pos = chess.NewPosition()
			var u chess.Undo
			m, _ := s.pos.ParseUCI("e2e4")
			s.pos.MakeMove(m, &u)
		}
		s.send("go depth 1")
		lines := s.expect("bestmove")
		for _, l := range lines {
			if strings.HasPrefix(l, "info string error") {
				t.Fatalf("round %d: %q", i, l)
			}
		}
		if i%2 == 1 {
			s.send("position startpos")
			s.pos = chess.NewPosition()
		}
	}
	s.quiet("isready")
}
