package search

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/engine/tablebase/tbtest"
)

// tbDir is the 3-4 piece Syzygy set bundled with the repository.
var tbDir = tbtest.Dir()

func openTB(t testing.TB) *tablebase.Tablebase {
	t.Helper()
	tb, err := tablebase.Open(tbDir)
	if err != nil || tb.MaxPieces() == 0 {
		t.Fatalf("bundled Syzygy tables missing at %s: %v", tbDir, err)
	}
	return tb
}

// tbPosition is a labelled position of the bundled endgame set.
type tbPosition struct {
	fen string
	wdl int // for the side to move
}

func readTBPositions(t *testing.T) []tbPosition {
	t.Helper()
	f, err := os.Open(tbtest.Positions())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []tbPosition
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "FEN(4 fields) wdl_table N; wdl N; dtz N;"
		fs := strings.Fields(sc.Text())
		if len(fs) < 8 || fs[6] != "wdl" {
			t.Fatalf("unexpected line %q", sc.Text())
		}
		w, err := strconv.Atoi(strings.TrimSuffix(fs[7], ";"))
		if err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		ps = append(ps, tbPosition{fen: strings.Join(fs[:4], " ") + " 0 1", wdl: w})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ps
}

// tbSearcher is a one-thread Searcher probing tb.
func tbSearcher(t testing.TB, tb *tablebase.Tablebase) *Searcher {
	t.Helper()
	s := New()
	if err := s.SetOption("Hash", "1"); err != nil {
		t.Fatal(err)
	}
	s.SetTablebase(tb, 1, true)
	return s
}

// zeroingInto reports whether p has a capture or pawn move into a
// position the search probes (not mate, not a draw by material), and
// whether one of those wins for the side to move.
func zeroingInto(t *testing.T, tb *tablebase.Tablebase, p *chess.Position) (probed, wins bool) {
	t.Helper()
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	var u chess.Undo
	for _, m := range ml.Moves[:ml.N] {
		if !m.IsCapture() && m.Piece().Type() != chess.Pawn {
			continue
		}
		p.MakeMove(m, &u)
		if !p.IsCheckmate() && !p.InsufficientMaterial() {
			probed = true
			w, ok := tb.ProbeWDL(p)
			if !ok {
				t.Fatalf("%s: no WDL after %v", p.FEN(), m)
			}
			wins = wins || w == -2
		}
		p.UnmakeMove(m, &u)
	}
	return probed, wins
}

// drawnBand is how far from 0 a search with the tables may score a
// drawn ending: the tables prove a draw only where a capture or a pawn
// move reaches them (a probe needs the fifty-move counter at 0), and every
// other leaf is the evaluation's view — r4b-256b8.sqnn's of
// K7/5N2/8/8/3p4/8/k7/8 w at depth 6, where Black's king moves keep the
// pawn on d4 and out of the tables, is −1.03 (r3-256b8 scored it within ±1.00).
const drawnBand = 150

// TestTablebaseEndgames searches the labelled endgames with the tables:
// every score agrees with the label, a win reachable by a capture or pawn
// move is reported as a tablebase win, and every search whose root has
// such a move probed the tables and says so in tbhits. Without the tables
// the same searcher reports no tbhits.
func TestTablebaseEndgames(t *testing.T) {
	tb := openTB(t)
	ps := readTBPositions(t)
	s := tbSearcher(t, tb)
	var total uint64
	decisive := 0
	for _, tp := range ps {
		p, err := chess.ParseFEN(tp.fen)
		if err != nil {
			t.Fatal(err)
		}
		if !p.HasLegalMoves() {
			continue
		}
		probed, wins := zeroingInto(t, tb, p)
		if err := s.NewGame(); err != nil {
			t.Fatal(err)
		}
		g := engine.Game{Start: p}
		res, infos := run(t, s, g, engine.Limits{Depth: 6})
		checkResult(t, p, res, infos)
		sc := res.Last.Score
		switch {
		case tp.wdl == 2 && scoreOrder(sc) <= 0,
			tp.wdl == -2 && scoreOrder(sc) >= 0,
			tp.wdl == 0 && (sc.Mate != 0 || abs(sc.CP) > drawnBand):
			t.Errorf("%s (wdl %d): score %v", tp.fen, tp.wdl, sc)
		}
		if wins {
			decisive++
			if sc.Mate <= 0 && sc.CP < tbCP-maxPly {
				t.Errorf("%s: a capture or pawn move wins, but the score is %v", tp.fen, sc)
			}
		}
		if probed && res.Last.TBHits == 0 {
			t.Errorf("%s: no tbhits", tp.fen)
		}
		total += res.Last.TBHits
	}
	if decisive < 20 || total == 0 {
		t.Errorf("%d positions with a winning capture or pawn move, %d tbhits: the set no longer tests probing", decisive, total)
	}
	s.SetTablebase(nil, 1, true)
	for _, tp := range ps[:20] {
		res, _ := run(t, s, game(t, tp.fen), engine.Limits{Depth: 4})
		if res.Last.TBHits != 0 {
			t.Errorf("%s: %d tbhits without tables", tp.fen, res.Last.TBHits)
		}
	}
}

// TestTablebaseEndgamesDeeper: the labelled endgames' scores also agree
// with the labels at depths 7 to 9, where more of the tree ends in probed
// positions and a line that loses in the tables must not make the search
// stop looking for the move that holds.
func TestTablebaseEndgamesDeeper(t *testing.T) {
	tb := openTB(t)
	ps := readTBPositions(t)
	s := tbSearcher(t, tb)
	for depth := 7; depth <= 9; depth++ {
		for _, tp := range ps {
			p, err := chess.ParseFEN(tp.fen)
			if err != nil {
				t.Fatal(err)
			}
			if !p.HasLegalMoves() {
				continue
			}
			if err := s.NewGame(); err != nil {
				t.Fatal(err)
			}
			res, _ := run(t, s, engine.Game{Start: p}, engine.Limits{Depth: depth})
			sc := res.Last.Score
			switch {
			case tp.wdl == 2 && scoreOrder(sc) <= 0,
				tp.wdl == -2 && scoreOrder(sc) >= 0,
				tp.wdl == 0 && (sc.Mate != 0 || abs(sc.CP) > drawnBand):
				t.Errorf("%s (wdl %d): score %v at depth %d, PV %v", tp.fen, tp.wdl, sc, depth, res.Last.PV)
			}
		}
	}
}

// TestTablebaseOnlyWinningMove: where a single move keeps the win, the
// search with tables never proves another move a win, plays the winning
// one at every depth at which its own lines prove it (the tables show the
// other moves drawn or lost, and must not make the winning one look no
// better), and plays it at depth 8 in every position, with one thread and
// with Lazy SMP.
//
// Below the depth of the proof the choice is the evaluation's: at depth 4
// in KRkp (3K4/8/2P5/5k2) r6-256b8.sqnn scores Rd2+ +1.04, above Ke6,
// whose win the tables show only once the rook takes the pawn. A game
// never meets that choice: knowledge.Analyzer searches only the moves the
// tables rank best at the root (TestTablebaseRoot); this test is of the
// probes inside the tree.
func TestTablebaseOnlyWinningMove(t *testing.T) {
	tb := openTB(t)
	for _, c := range []struct{ fen, move string }{
		{"4k3/8/8/8/8/4b3/1K6/n7 b - - 0 1", "e3d4"},  // only Bd4+ saves the knight
		{"8/2k5/8/p2K2P1/8/8/8/8 w - - 0 1", "g5g6"},  // the pawn race
		{"3K4/8/2P5/5k2/8/8/5r2/8 b - - 0 1", "f5e6"}, // the king stops the pawn
		{"5k2/8/4K3/8/3r1B2/8/8/8 b - - 0 1", "d4f4"}, // into KRvK
		{"8/8/Q1q5/8/8/2k5/4K3/8 w - - 0 1", "a6c6"},  // into KQvK
		{"8/6K1/1k1P4/8/7p/8/8/8 b - - 0 1", "b6c6"},  // catch the pawn first
		{"8/8/3k2q1/8/8/R7/1K6/8 w - - 0 1", "a3a6"},  // the skewer
		{"8/4N3/8/k7/8/5p2/1K6/8 b - - 0 1", "f3f2"},  // the pawn runs
		{"7K/8/8/N6P/7k/8/8/8 w - - 0 1", "h5h6"},     // the pawn runs
		{"8/8/8/2r5/1K6/8/3P4/k7 b - - 0 1", "c5d5"},  // cut the king off
		{"8/1KP5/8/8/4k3/8/8/3r4 w - - 0 1", "c7c8q"}, // the queen, not a rook
		{"R7/8/8/4k3/8/K7/8/4r3 b - - 0 1", "e1a1"},   // the skewer
		{"8/8/K6k/8/8/5R2/7b/8 w - - 0 1", "f3h3"},    // the pin
		{"1K6/8/1b2k3/8/7R/8/8/8 w - - 0 1", "h4h6"},  // the skewer
		{"8/k7/6N1/8/8/5p2/8/2K5 b - - 0 1", "f3f2"},  // the pawn runs
		{"K4N2/8/8/8/3p4/8/1k6/8 b - - 0 1", "d4d3"},  // the pawn runs
		{"8/8/7k/8/1N5K/8/2r5/8 b - - 0 1", "c2c4"},   // the fork
		{"8/1P6/2k5/6b1/8/8/8/7K w - - 0 1", "b7b8q"}, // promote at once
		{"8/2k5/8/8/8/4Qr2/6K1/8 b - - 0 1", "f3e3"},  // the queen for the rook
		{"8/4r3/8/K7/4R3/8/8/5k2 w - - 0 1", "e4e7"},  // the trade of rooks
	} {
		g := game(t, c.fen)
		p := rootOf(t, g)
		// The premise: exactly one move wins.
		rm, ok := tb.RootMoves(p, true)
		if !ok {
			t.Fatalf("%s: not in the tables", c.fen)
		}
		var wins []string
		for _, r := range rm {
			if r.WDL == 2 {
				wins = append(wins, r.Move.UCI(false))
			}
		}
		if len(wins) != 1 || wins[0] != c.move {
			t.Fatalf("%s: winning moves %v, the test expects only %s", c.fen, wins, c.move)
		}
		win := rm[0].Move
		for _, lim := range []struct{ depth, threads int }{{2, 1}, {3, 1}, {4, 1}, {6, 1}, {8, 1}, {8, 2}} {
			search := func(moves ...chess.Move) engine.Result {
				s := tbSearcher(t, tb)
				if err := s.SetOption("Threads", strconv.Itoa(lim.threads)); err != nil {
					t.Fatal(err)
				}
				res, infos := run(t, s, g, engine.Limits{Depth: lim.depth, SearchMoves: moves})
				checkResult(t, p, res, infos)
				return res
			}
			res := search()
			got, sc := res.BestMove.UCI(false), res.Last.Score
			if got == c.move && scoreOrder(sc) > 0 {
				continue
			}
			if proven(sc) {
				t.Errorf("%s depth %d threads %d: %s %v, a proven win for a move the tables do not win with", c.fen, lim.depth, lim.threads, got, sc)
			}
			if alone := search(win).Last.Score; proven(alone) || lim.depth >= 8 {
				t.Errorf("%s depth %d threads %d: %s %v, want %s winning (searched alone: %v)", c.fen, lim.depth, lim.threads, got, sc, c.move, alone)
			}
		}
	}
}

// proven reports whether a search score is a win the search proved: a
// mate, or a tablebase win.
func proven(s engine.Score) bool {
	return s.Mate > 0 || (s.Mate == 0 && s.CP >= tbCP-maxPly)
}

// TestTablebaseScore checks the conversion of WDL values to scores and
// that tablebase scores keep their meaning through the hash table and in
// the reported score.
func TestTablebaseScore(t *testing.T) {
	const ply = 7
	for _, c := range []struct {
		wdl    int
		rule50 bool
		score  int
		bound  int
	}{
		{2, true, tbWin - ply, boundLower},
		{1, true, 2, boundExact}, // cursed win: a draw, a little better than one
		{0, true, 0, boundExact},
		{-1, true, -2, boundExact},
		{-2, true, -tbWin + ply, boundUpper},
		{2, false, tbWin - ply, boundLower},
		{1, false, tbWin - ply, boundLower}, // without the 50-move rule, a win
		{0, false, 0, boundExact},
		{-1, false, -tbWin + ply, boundUpper},
		{-2, false, -tbWin + ply, boundUpper},
	} {
		s, b := tbScore(c.wdl, ply, c.rule50)
		if s != c.score || b != c.bound {
			t.Errorf("tbScore(%d, %d, %v) = %d, %d; want %d, %d", c.wdl, ply, c.rule50, s, b, c.score, c.bound)
		}
	}
	// Between evaluations and mates, on both sides, at every ply.
	for ply := 0; ply < maxPly; ply++ {
		win, _ := tbScore(2, ply, true)
		if win < tbWinBound || win >= mateBound {
			t.Fatalf("tablebase win at ply %d scores %d, outside [%d, %d)", ply, win, tbWinBound, mateBound)
		}
		if loss, _ := tbScore(-2, ply, true); loss != -win {
			t.Fatalf("tablebase loss at ply %d scores %d, win %d", ply, loss, win)
		}
		if m := mate - ply; win >= m {
			t.Fatalf("tablebase win at ply %d (%d) not below a mate at that ply (%d)", ply, win, m)
		}
	}
	// Stored at ply 3 from a probe at ply 7 (four plies on), the win
	// read at ply 5 is still four plies on: tbWin-9.
	stored := toTT(tbWin-7, 3)
	if got := fromTT(stored, 5); got != tbWin-9 {
		t.Errorf("a tablebase win through the table: %d, want %d", got, tbWin-9)
	}
	if got := fromTT(toTT(-tbWin+7, 3), 5); got != -tbWin+9 {
		t.Errorf("a tablebase loss through the table: %d, want %d", got, -tbWin+9)
	}
	if got := fromTT(toTT(1234, 3), 5); got != 1234 {
		t.Errorf("an evaluation through the table: %d", got)
	}
	if got := uciScore(tbWin-4, engine.Lower); got != (engine.Score{CP: tbCP - 4, Bound: engine.Lower}) {
		t.Errorf("uciScore(tablebase win in 4 plies) = %+v", got)
	}
	if got := uciScore(-tbWin+4, engine.Exact); got != (engine.Score{CP: -tbCP + 4}) {
		t.Errorf("uciScore(tablebase loss in 4 plies) = %+v", got)
	}
	if got := uciScore(mate-3, engine.Exact); got != (engine.Score{Mate: 2}) {
		t.Errorf("uciScore(mate in 3 plies) = %+v", got)
	}
}

// TestTablebaseProbeConditions checks which positions the search probes:
// only after a capture or pawn move, without castling rights, with few
// enough pieces, at the largest piece count only from the probe depth,
// and never a checkmate (the search scores it as the mate it is).
func TestTablebaseProbeConditions(t *testing.T) {
	tb := openTB(t)
	cs := &search{tb: tbProbe{tb: tb, pieces: tb.MaxPieces(), depth: 3, rule50: true}}
	th := newThread(0)
	th.s = cs
	for _, c := range []struct {
		fen   string
		depth int
		ok    bool
		score int
	}{
		{"8/8/8/8/8/2k5/8/K2q4 w - - 0 1", 1, true, -tbWin + 4},  // KvKQ, 3 pieces: at any depth, in check too
		{"8/8/8/8/8/2k5/8/K2q4 w - - 1 1", 5, false, 0},          // the counter is not 0
		{"8/7p/8/8/8/2k5/8/K2q4 w - - 0 1", 2, false, 0},         // 4 pieces below the probe depth
		{"8/7p/8/8/8/2k5/8/K2q4 w - - 0 1", 3, true, -tbWin + 4}, // 4 pieces at it
		{"8/6pp/8/8/8/2k5/8/K2q4 w - - 0 1", 9, false, 0},        // 5 pieces
		{"4k3/8/8/8/8/8/8/R3K3 b Q - 0 1", 9, false, 0},          // castling rights
		{"8/8/R2k4/8/8/K7/8/4r3 b - - 0 1", 9, true, 0},          // KRvKR, drawn
		{"8/8/8/8/8/2k5/1q6/K7 w - - 0 1", 9, false, 0},          // mated
		{"k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", 9, true, 0},           // stalemate
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		th.p = p
		hits := th.tbHits
		v, _, ok := th.probeTB(c.depth, 4)
		if ok != c.ok || (ok && v != c.score) {
			t.Errorf("%s depth %d: probe %d %v, want %d %v", c.fen, c.depth, v, ok, c.score, c.ok)
		}
		if th.tbHits-hits != uint64(b2i(ok)) {
			t.Errorf("%s: tbhits went from %d to %d", c.fen, hits, th.tbHits)
		}
		if p.FEN() != c.fen {
			t.Errorf("probing changed the position to %s", p.FEN())
		}
	}
	// The search's probe allocates nothing (Lazy SMP threads probe it
	// millions of times), in check or not.
	for _, fen := range []string{"8/8/8/3k4/8/1PK5/8/4r3 w - - 0 1", "8/8/8/8/8/2k5/8/K2q4 w - - 0 1"} {
		th.p, _ = chess.ParseFEN(fen)
		if n := testing.AllocsPerRun(100, func() { th.probeTB(9, 4) }); n != 0 {
			t.Errorf("%s: a probe allocates %v times", fen, n)
		}
	}
}

// TestSetTablebaseDuringSearch: tables dropped while a search runs leave
// that search probing the tables it started with; the next search has
// none. One thread makes the counts exact: every depth is reported, so
// the drop lands mid-search. Lazy SMP promises no report per depth (on a
// loaded machine a helper can finish the last iteration before the main
// thread reports the first), so with three threads the test checks only
// the hand-over, which -race watches, and the next search.
func TestSetTablebaseDuringSearch(t *testing.T) {
	tb := openTB(t)
	g := game(t, "8/8/8/p2K4/8/6P1/8/2k5 w - - 0 1")
	for _, threads := range []string{"1", "3"} {
		s := tbSearcher(t, tb)
		if err := s.SetOption("Threads", threads); err != nil {
			t.Fatal(err)
		}
		var hits []uint64
		var dropped bool
		var hitsAtDrop uint64
		res, err := s.Search(t.Context(), g, engine.Limits{Depth: 12}, func(in engine.Info) {
			if in.Depth == 0 {
				return
			}
			hits = append(hits, in.TBHits)
			if !dropped && (in.Depth == 6 || threads != "1") {
				dropped, hitsAtDrop = true, in.TBHits
				s.SetTablebase(nil, 1, true) // during the search
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if threads == "1" && (len(hits) != 12 || hitsAtDrop == 0 || res.Last.TBHits <= hitsAtDrop) {
			t.Errorf("tbhits by depth %v, last %d: the search stopped probing when the tables were dropped at depth 6", hits, res.Last.TBHits)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i] < hits[i-1] {
				t.Errorf("%s threads: tbhits by depth %v decrease", threads, hits)
			}
		}
		res, _ = run(t, s, g, engine.Limits{Depth: 8})
		if res.Last.TBHits != 0 {
			t.Errorf("%s threads: after SetTablebase(nil): %d tbhits", threads, res.Last.TBHits)
		}
	}
}

// BenchmarkTablebaseSearch compares a 4-piece endgame searched to a fixed
// depth with and without probing: nps, and the nodes and tbhits each
// search needs.
func BenchmarkTablebaseSearch(b *testing.B) {
	tb := openTB(b)
	g := game(b, "8/8/8/2r5/1K6/8/3P4/k7 b - - 0 1")
	for _, probe := range []bool{false, true} {
		name := "noprobe"
		if probe {
			name = "probe"
		}
		b.Run(name, func(b *testing.B) {
			s := New()
			if err := s.SetOption("Hash", "16"); err != nil {
				b.Fatal(err)
			}
			if probe {
				s.SetTablebase(tb, 1, true)
			}
			var nodes, hits uint64
			for b.Loop() {
				b.StopTimer()
				if err := s.NewGame(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, _ := run(b, s, g, engine.Limits{Depth: 16})
				nodes += res.Last.Nodes
				hits += res.Last.TBHits
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nps")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(hits)/float64(b.N), "tbhits/op")
		})
	}
}

// BenchmarkTablebaseProbe is the cost of one probe made by the search,
// over positions of the bundled endgame set (tables already mapped).
func BenchmarkTablebaseProbe(b *testing.B) {
	tb := openTB(b)
	f, err := os.Open(tbtest.Positions())
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var ps []*chess.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		p, err := chess.ParseFEN(strings.Join(fs[:4], " ") + " 0 1")
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	th := newThread(0)
	th.s = &search{tb: tbProbe{tb: tb, pieces: tb.MaxPieces(), depth: 1, rule50: true}}
	for _, p := range ps { // map the files
		th.p = p
		th.probeTB(1, 1)
	}
	i := 0
	for b.Loop() {
		th.p = ps[i%len(ps)]
		th.probeTB(1, 1)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}
