package book

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

var twicPath = filepath.Join("..", "..", "pgn", "testdata", "pgn-parser", "twic-01-232games.pgn")

// readTWIC returns the 232 TWIC games of the pgn package's test data.
func readTWIC(t testing.TB) []*pgn.Game {
	t.Helper()
	f, err := os.Open(twicPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []*pgn.Game
	for g, err := range pgn.Games(f) {
		if err != nil {
			t.Fatalf("%s: %v", twicPath, err)
		}
		games = append(games, g)
	}
	if len(games) != 232 {
		t.Fatalf("read %d games from %s, want 232", len(games), twicPath)
	}
	return games
}

// bookMove is a (position, move) pair as the test counts it: the move as
// UCI text, so the count does not go through the package's move coding.
type bookMove struct {
	key uint64
	uci string
}

// countGames applies the builder's documented weight rule on its own: for
// every decided game and each of its first maxPly moves, the side that
// played it scores 2 for a win, 1 for a draw and 0 for a loss, once per
// game per (position, move); with onlyWinners, only the winner's moves
// count. It also returns a position for every key, to decode entries with.
func countGames(t testing.TB, games []*pgn.Game, maxPly int, onlyWinners bool) (points, played map[bookMove]int, pos map[uint64]*chess.Position) {
	points, played, pos = map[bookMove]int{}, map[bookMove]int{}, map[uint64]*chess.Position{}
	for _, g := range games {
		white := map[string]int{pgn.WhiteWins: 2, pgn.Draw: 1, pgn.BlackWins: 0}
		score, decided := white[g.Result]
		if !decided {
			continue
		}
		p, err := g.StartPosition()
		if err != nil {
			t.Fatal(err)
		}
		seen := map[bookMove]bool{}
		for ply, n := range g.Mainline() {
			if ply >= maxPly {
				break
			}
			s := score
			if p.SideToMove() == chess.Black {
				s = 2 - score
			}
			k := Key(p)
			if pos[k] == nil {
				pos[k] = p.Clone()
			}
			bm := bookMove{k, n.Move.UCI(false)}
			if (!onlyWinners || s == 2) && !seen[bm] {
				seen[bm] = true
				points[bm] += s
				played[bm]++
			}
			var u chess.Undo
			p.MakeMove(n.Move, &u)
		}
	}
	return points, played, pos
}

// buildTWIC builds a book from the TWIC games through FromPGN and Builder.
func buildTWIC(t testing.TB, games []*pgn.Game, opt BuildOptions) *Builder {
	t.Helper()
	b := NewBuilder(opt)
	for i, g := range games {
		bg, err := FromPGN(g)
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if err := b.Add(bg); err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
	}
	return b
}

// TestBuildRoundTrip builds books from the TWIC games, writes them, reads
// them back and checks that every (position, move) counted independently
// appears with its weight, and nothing else does.
func TestBuildRoundTrip(t *testing.T) {
	games := readTWIC(t)
	decided := 0
	for _, g := range games {
		if g.Result != pgn.Unknown {
			decided++
		}
	}
	for _, opt := range []BuildOptions{
		{MaxPly: 24, MinGames: 1},
		{MaxPly: 16, MinGames: 2},
		{MaxPly: 30, MinGames: 1, OnlyWinners: true},
	} {
		b := buildTWIC(t, games, opt)
		if b.Games() != decided {
			t.Errorf("%+v: builder counted %d games, %d are decided", opt, b.Games(), decided)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "twic.bin")
		if err := b.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		if files, _ := os.ReadDir(dir); len(files) != 1 {
			t.Errorf("%+v: directory holds %d files after writing, want only the book (no temp file left)", opt, len(files))
		}
		bk, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}

		points, played, pos := countGames(t, games, opt.MaxPly, opt.OnlyWinners)
		want := map[bookMove]int{}
		for bm, pts := range points {
			if played[bm] >= opt.MinGames && pts > 0 {
				if pts > 0xFFFF {
					t.Fatalf("weight %d would be scaled; the rule checked here is unscaled", pts)
				}
				want[bm] = pts
			}
		}
		if bk.Len() != len(want) {
			t.Errorf("%+v: book has %d entries, counting gives %d", opt, bk.Len(), len(want))
		}
		prev := uint64(0)
		for i, e := range bk.Entries() {
			if e.Key < prev {
				t.Fatalf("%+v: entry %d out of key order", opt, i)
			}
			prev = e.Key
			p := pos[e.Key]
			if p == nil {
				t.Fatalf("%+v: entry %d: key %016x of no position in the games", opt, i, e.Key)
			}
			m, ok := DecodeMove(p, e.Move)
			if !ok {
				t.Fatalf("%+v: entry %d: move %s not legal in %s", opt, i, CodeString(e.Move), p.FEN())
			}
			bm := bookMove{e.Key, m.UCI(false)}
			if w, in := want[bm]; !in || int(e.Weight) != w {
				t.Errorf("%+v: %s %s: weight %d, counting gives %d (in book: %v)", opt, p.FEN(), bm.uci, e.Weight, w, in)
			}
			delete(want, bm)
		}
		for bm, w := range want {
			t.Errorf("%+v: %s %s (weight %d) missing from the book", opt, pos[bm.key].FEN(), bm.uci, w)
		}
		t.Logf("%+v: %d entries, %d positions", opt, bk.Len(), len(pos))
	}
}

// TestBuildMergesTranspositions: the same position reached by two move
// orders is one book position whose move counts add up.
func TestBuildMergesTranspositions(t *testing.T) {
	b := NewBuilder(BuildOptions{MaxPly: 10})
	for _, line := range []string{"g1f3 d7d5 d2d4", "d2d4 d7d5 g1f3"} {
		p := chess.NewPosition()
		var ms []chess.Move
		q := p.Clone()
		for _, s := range bytes.Fields([]byte(line)) {
			m, err := q.ParseUCI(string(s))
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
			var u chess.Undo
			q.MakeMove(m, &u)
		}
		// Both games go on with the same Black reply.
		m, err := q.ParseUCI("g8f6")
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		if err := b.Add(Game{Start: p, Moves: ms, Result: Draw, Decided: true}); err != nil {
			t.Fatal(err)
		}
	}
	bk := FromEntries(b.Entries())
	p := playUCI(t, "d2d4 d7d5 g1f3")
	cs := bk.Candidates(p, nil)
	if len(cs) != 1 || cs[0].Move.UCI(false) != "g8f6" || cs[0].Weight != 2 {
		t.Errorf("after the transposition: %v, want g8f6 with weight 2 (one draw from each game)", cs)
	}
}

// TestLearning plays lines out of a book built from the TWIC games and
// feeds their results to the learning file: a lost line's moves lose
// weight, a won line's gain, the change survives a reload from disk, and
// the book file itself is not touched.
func TestLearning(t *testing.T) {
	games := readTWIC(t)
	dir := t.TempDir()
	bookPath := filepath.Join(dir, "twic.bin")
	if err := buildTWIC(t, games, BuildOptions{MaxPly: 12}).WriteFile(bookPath); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(bookPath)
	if err != nil {
		t.Fatal(err)
	}
	bk, err := Open(bookPath)
	if err != nil {
		t.Fatal(err)
	}
	learnPath := LearnPath(bookPath)
	l, err := LoadLearning(learnPath)
	if err != nil {
		t.Fatal(err)
	}

	// effectiveOf is the effective weight of move m in p under l.
	effectiveOf := func(l *Learning, p *chess.Position, m chess.Move) float64 {
		for _, c := range bk.Candidates(p, l) {
			if c.Move == m {
				return c.Effective
			}
		}
		t.Fatalf("%s: %v is not a book move", p.FEN(), m)
		return 0
	}
	// playLine follows the book from the start position with first the
	// given move, then the heaviest moves, and returns White's moves (the
	// side "we" played) with their positions.
	type step struct {
		p *chess.Position
		m chess.Move
	}
	playLine := func(first string) (line []Played, steps []step) {
		p := chess.NewPosition()
		for ply := 0; ply < 8; ply++ {
			var m chess.Move
			if ply == 0 {
				var err error
				if m, err = p.ParseUCI(first); err != nil {
					t.Fatal(err)
				}
			} else {
				var ok bool
				if m, ok = bk.Pick(p, rand.New(rand.NewPCG(1, 1)), 0, nil); !ok {
					break
				}
			}
			if p.SideToMove() == chess.White {
				line = append(line, Played{Key(p), EncodeMove(m)})
				steps = append(steps, step{p.Clone(), m})
			}
			var u chess.Undo
			p.MakeMove(m, &u)
		}
		if len(steps) < 2 {
			t.Fatalf("line from %s left the book after %d White moves", first, len(steps))
		}
		return line, steps
	}

	start := chess.NewPosition()
	top := bk.Candidates(start, nil)
	if len(top) < 2 {
		t.Fatalf("start position: %d book moves, want at least 2", len(top))
	}
	lost, lostSteps := playLine(top[0].Move.UCI(false))
	won, wonSteps := playLine(top[1].Move.UCI(false))
	var lostBefore, wonBefore []float64
	for _, s := range lostSteps {
		lostBefore = append(lostBefore, effectiveOf(nil, s.p, s.m))
	}
	for _, s := range wonSteps {
		wonBefore = append(wonBefore, effectiveOf(nil, s.p, s.m))
	}

	// Three lost games with the main line, one won with the second.
	for range 3 {
		l.Update(lost, Loss)
	}
	l.Update(won, Win)
	l.Update(won, Draw) // a draw teaches nothing
	if err := l.Save(); err != nil {
		t.Fatal(err)
	}
	reloaded, err := LoadLearning(learnPath)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range lostSteps {
		after := effectiveOf(reloaded, s.p, s.m)
		if after >= lostBefore[i] {
			t.Errorf("lost line, %s %s: effective weight %.2f → %.2f, want it to fall", s.p.FEN(), s.p.SAN(s.m), lostBefore[i], after)
		}
		if score, _ := reloaded.Lookup(Key(s.p), EncodeMove(s.m)); score != -3 {
			t.Errorf("lost line, %s: score %d after 3 losses, want -3", s.p.SAN(s.m), score)
		}
	}
	for i, s := range wonSteps {
		after := effectiveOf(reloaded, s.p, s.m)
		if after <= wonBefore[i] {
			t.Errorf("won line, %s %s: effective weight %.2f → %.2f, want it to rise", s.p.FEN(), s.p.SAN(s.m), wonBefore[i], after)
		}
	}
	t.Logf("1.%s lost 3×: %.1f → %.1f; 1.%s won: %.1f → %.1f",
		start.SAN(top[0].Move), lostBefore[0], effectiveOf(reloaded, start, top[0].Move),
		start.SAN(top[1].Move), wonBefore[0], effectiveOf(reloaded, start, top[1].Move))
	// With learning, the heaviest first move is no longer the one that lost.
	if m, ok := bk.Pick(start, rand.New(rand.NewPCG(1, 1)), 0, reloaded); !ok || m == top[0].Move {
		t.Errorf("after three losses the book still picks %v first", m)
	}

	// A never mark keeps a move out of play whatever its weight.
	reloaded.SetMark(Key(start), EncodeMove(top[1].Move), Never)
	r := rand.New(rand.NewPCG(2, 3))
	for range 200 {
		if m, _ := bk.Pick(start, r, 100, reloaded); m == top[1].Move {
			t.Fatalf("picked %v, which is marked never", m)
		}
	}

	after, err := os.ReadFile(bookPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("learning rewrote the book file")
	}
}

// TestLearningFileErrors: a malformed learning file is an error naming
// the line, not a silent reset.
func TestLearningFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []string{
		"463b96181691fc9c e2e4 1\n",
		"zz3b96181691fc9c e2e4 1 -\n",
		"463b96181691fc9c e2e9 1 -\n",
		"463b96181691fc9c e2e4 x -\n",
		"463b96181691fc9c e2e4 1 sometimes\n",
	} {
		path := filepath.Join(dir, "bad.learn")
		if err := os.WriteFile(path, []byte("# comment\n"+bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadLearning(path); err == nil {
			t.Errorf("%q: no error", bad)
		} else if !bytes.Contains([]byte(err.Error()), []byte(":2:")) {
			t.Errorf("%q: error %q does not name line 2", bad, err)
		}
	}
}
