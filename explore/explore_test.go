package explore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// testFiles are real games of package pgn's test data: tournament games,
// lichess games with clocks and evaluations, games from FEN set-ups, a game
// cut off mid-move (an error) and a castling through a queen (another).
var testFiles = []string{
	"pgn-parser/twic-01-232games.pgn",
	"pgn-parser/32games.pgn",
	"notnil-chess/0001.pgn", "notnil-chess/0010.pgn", "notnil-chess/0013.pgn", "notnil-chess/0014.pgn",
	"chess-library/corrupted.pgn", "chess-library/variations.pgn", "chess-library/threefold_repetition.pgn",
	"chess-library/black2move.pgn", "chess-library/no_result.pgn",
}

// joinedPGN writes the test files, one after the other, to a PGN file in a
// temporary directory and returns its path.
func joinedPGN(t testing.TB) string {
	t.Helper()
	var all []byte
	for _, f := range testFiles {
		data, err := os.ReadFile(filepath.Join("..", "pgn", "testdata", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, data...), "\n\n"...)
	}
	path := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// counted is the brute force's tally of one position.
type counted struct {
	pos   *chess.Position
	moves map[string]*[outcomes]uint64 // by SAN
}

// positionName names a position by its FEN's placement, side, castling,
// and en passant square when a legal move takes there.
func positionName(p *chess.Position) string {
	f := strings.Fields(p.FEN())
	ep := "-"
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if m.IsEnPassant() {
			ep = f[3]
		}
	}
	return strings.Join(append(f[:3], ep), " ")
}

// bruteForce counts, for every position of every good game's main line
// (up to plies, 0 for all), the games that played each move from it: the
// positions replayed from the root for every move, as pgn.Game.PositionAfter
// does, and named by their FEN.
func bruteForce(t testing.TB, path string, plies int) (map[string]*counted, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tally := map[string]*counted{}
	games := 0
	for g, err := range pgn.Games(bytes.NewReader(data)) {
		if err != nil {
			continue
		}
		games++
		out := outcomeOf(g.Result)
		seen := map[string]bool{}
		line := g.Mainline()
		for i, n := range line {
			if n.Move == chess.NullMove || plies > 0 && i >= plies {
				break
			}
			before := g.Root
			if i > 0 {
				before = line[i-1]
			}
			p, err := g.PositionAfter(before)
			if err != nil {
				t.Fatal(err)
			}
			name := positionName(p)
			if seen[name+" "+n.SAN] {
				continue
			}
			seen[name+" "+n.SAN] = true
			c := tally[name]
			if c == nil {
				c = &counted{pos: p, moves: map[string]*[outcomes]uint64{}}
				tally[name] = c
			}
			if c.moves[n.SAN] == nil {
				c.moves[n.SAN] = new([outcomes]uint64)
			}
			c.moves[n.SAN][out]++
		}
	}
	return tally, games
}

// checkAgainst compares every position of the brute force's tally with the
// index's answer.
func checkAgainst(t *testing.T, ix *Index, tally map[string]*counted, games int) {
	t.Helper()
	info := ix.Info()
	pairs := 0
	for _, c := range tally {
		pairs += len(c.moves)
	}
	if info.Games != uint64(games) || info.Positions != uint64(len(tally)) || info.Moves != uint64(pairs) {
		t.Errorf("index of %d games, %d positions, %d moves; brute force %d, %d, %d",
			info.Games, info.Positions, info.Moves, games, len(tally), pairs)
	}
	for name, c := range tally {
		got, err := ix.Moves(c.pos)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(c.moves) {
			t.Errorf("%s: %d moves, brute force %d", name, len(got), len(c.moves))
			continue
		}
		for i, m := range got {
			want := c.moves[m.SAN]
			if want == nil || m.White != want[whiteWins] || m.Draws != want[draw] || m.Black != want[blackWins] || m.Unfinished != want[unfinished] {
				t.Errorf("%s: %s +%d =%d -%d *%d, brute force %v", name, m.SAN, m.White, m.Draws, m.Black, m.Unfinished, want)
			}
			if i > 0 && (got[i-1].Games() < m.Games() || got[i-1].Games() == m.Games() && got[i-1].SAN > m.SAN) {
				t.Errorf("%s: %s before %s: not the most played first", name, got[i-1].SAN, m.SAN)
			}
		}
	}
}

// TestIndexMatchesBruteForce (issue 36, acceptance 3): the index's answer
// for every position of real games equals a brute-force count over the
// file, built in memory and, with tiny runs, merged from run files.
func TestIndexMatchesBruteForce(t *testing.T) {
	path := joinedPGN(t)
	tally, games := bruteForce(t, path, 0)
	if games < 270 || len(tally) < 10000 {
		t.Fatalf("%d games, %d positions: too few to test with", games, len(tally))
	}
	for _, runRecords := range []int{0, 997} {
		var errs []string
		info, err := Build(path, Options{runRecords: runRecords, OnError: func(err error) { errs = append(errs, err.Error()) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(errs) != 2 || !strings.Contains(errs[0], ":25: move 63. Kx: not a move in SAN") ||
			!strings.Contains(errs[1], ":5: move 1... 0-0-0: castling is not legal here") || info.Skipped != 2 {
			t.Errorf("errors reported: %q, %d skipped; want corrupted.pgn's and black2move.pgn's", errs, info.Skipped)
		}
		runs, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".explore-run-*"))
		if len(runs) != 0 {
			t.Errorf("run files left behind: %v", runs)
		}
		ix, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainst(t, ix, tally, games)
		ix.Close()
	}
	// The start position, most played first: 1. e4 and 1. d4 lead.
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	moves, err := ix.Moves(chess.NewPosition())
	if err != nil || len(moves) < 4 || moves[0].SAN != "e4" && moves[0].SAN != "d4" {
		t.Errorf("start position: %v, %v", moves, err)
	}
	// A position no game reached.
	p, _ := chess.ParseFEN("8/8/8/4k3/8/8/4K3/4R3 w - - 0 1")
	if moves, err := ix.Moves(p); moves != nil || err != nil {
		t.Errorf("a position no game reached: %v, %v", moves, err)
	}
}

// TestPlies: with Plies set only the first plies of each game are indexed.
func TestPlies(t *testing.T) {
	path := joinedPGN(t)
	tally, games := bruteForce(t, path, 6)
	if _, err := Build(path, Options{Plies: 6}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Info().Plies != 6 {
		t.Errorf("Plies %d, want 6", ix.Info().Plies)
	}
	checkAgainst(t, ix, tally, games)
}

// TestEnsure: the index is built when missing, reused while the PGN file
// is unchanged, and rebuilt when the file changes, when it is corrupt,
// and when other Plies are asked for.
func TestEnsure(t *testing.T) {
	path := joinedPGN(t)
	ensure := func(what string, opt Options, wantBuilt bool) {
		t.Helper()
		ix, built, err := Ensure(path, opt)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if built != wantBuilt {
			t.Errorf("%s: built %v, want %v", what, built, wantBuilt)
		}
		ix.Close()
	}
	if _, err := Open(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open without an index: %v, want not exist", err)
	}
	ensure("no index", Options{}, true)
	ensure("unchanged", Options{}, false)

	// The PGN file grows by a game: the new game is found after the rebuild.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "\n[Event \"new\"]\n\n1. a4 h5 2. a5 1-0\n")
	f.Close()
	if _, err := Open(path); !errors.Is(err, ErrStale) {
		t.Errorf("Open after the file grew: %v, want ErrStale", err)
	}
	ensure("file changed", Options{}, true)
	p, _ := chess.ParseFEN("rnbqkbnr/ppppppp1/8/7p/P7/8/1PPPPPPP/RNBQKBNR w KQkq - 0 2")
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if moves, err := ix.Moves(p); err != nil || len(moves) != 1 || moves[0].SAN != "a5" || moves[0].White != 1 {
		t.Errorf("the new game: %v, %v", moves, err)
	}
	ix.Close()

	// Same size, new time.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	ensure("touched", Options{}, true)

	// A flipped byte in a block: found at look-up (the checksum) and by
	// Ensure's rebuild of an index whose directory or trailer is hit.
	data, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{preambleSize + 10, len(data) - trailerSize - 5, len(data) - 20, 3} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x40
		if err := os.WriteFile(IndexPath(path), bad, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, later, later) // WriteFile kept the PGN's time; keep it so
		ix, err := Open(path)
		if err == nil {
			_, err = ix.Moves(chess.NewPosition())
			if err == nil {
				err = ix.each(func(entry) {})
			}
			ix.Close()
		}
		if err == nil {
			t.Errorf("byte %d flipped: no error", at)
		}
		if !errors.Is(err, ErrStale) && !errors.Is(err, errCorrupt) {
			t.Errorf("byte %d flipped: %v, want a corrupt index", at, err)
		}
	}
	os.WriteFile(IndexPath(path), []byte("garbage"), 0o644)
	ensure("garbage index", Options{}, true)
	ensure("other plies", Options{Plies: 10}, true)
	ensure("same plies", Options{Plies: 10}, false)
}

// TestScore: the mover's score over finished games.
func TestScore(t *testing.T) {
	m := Move{White: 3, Draws: 2, Black: 5, Unfinished: 7}
	if s, ok := m.Score(chess.White); !ok || s != 0.4 {
		t.Errorf("White's score %v, %v, want 0.4", s, ok)
	}
	if s, ok := m.Score(chess.Black); !ok || s != 0.6 {
		t.Errorf("Black's score %v, %v, want 0.6", s, ok)
	}
	if m.Games() != 17 {
		t.Errorf("games %d, want 17", m.Games())
	}
	if _, ok := (Move{Unfinished: 2}).Score(chess.White); ok {
		t.Errorf("a score without a finished game")
	}
}

// FuzzRead: no bytes, however corrupt, make the index reader panic or
// read past what it was given; the seeds are real indexes.
func FuzzRead(f *testing.F) {
	for _, movetext := range []string{
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n1. e4 c5 2. Nf3 d6 1/2-1/2\n\n1. d4 Nf6 *\n",
		"[FEN \"8/8/8/4k3/8/8/4K3/4R3 w - - 0 1\"]\n\n1. Re2+ Kd4 2. Kd2 Kc4 0-1\n",
		"",
	} {
		var b bytes.Buffer
		if _, err := write(&b, strings.NewReader(movetext), "seed", f.TempDir(), Options{}, trailer{}); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		ix.each(func(entry) {})
		p := chess.NewPosition()
		for _, san := range []string{"e4", "e5", "Nf3"} {
			ix.Moves(p)
			m, _ := p.ParseSAN(san)
			var u chess.Undo
			p.MakeMove(m, &u)
		}
	})
}

// TestProgress: Build reports its reading about every megabyte, up to the
// file's size.
func TestProgress(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.pgn")
	game := "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {" + strings.Repeat("a long comment ", 1000) + "} 1-0\n\n"
	if err := os.WriteFile(path, []byte(strings.Repeat(game, 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	var reads []int64
	info, err := Build(path, Options{Progress: func(read, size int64) {
		if size != int64(200*len(game)) {
			t.Errorf("size %d, want %d", size, 200*len(game))
		}
		reads = append(reads, read)
	}})
	if err != nil || info.Games != 200 {
		t.Fatalf("%d games, %v", info.Games, err)
	}
	if len(reads) < 2 || !slices.IsSorted(reads) || reads[len(reads)-1] > int64(200*len(game)) {
		t.Errorf("progress %v for a %d-byte file", reads, 200*len(game))
	}
}

// FuzzBlock: the block decoder, which FuzzRead's mutations seldom reach
// past the checksums, never panics on any bytes and never yields a move
// that does not fit in 15 bits; the seeds are real blocks.
func FuzzBlock(f *testing.F) {
	var b bytes.Buffer
	movetext := "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n1. e4 c5 2. Nf3 d6 1/2-1/2\n\n1. e4 c5 *\n\n1. e4 c5 0-1\n"
	if _, err := write(&b, strings.NewReader(movetext), "seed", f.TempDir(), Options{}, trailer{}); err != nil {
		f.Fatal(err)
	}
	ix, err := read(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range ix.dir {
		f.Add(b.Bytes()[d.offset : d.offset+uint64(d.length)])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &blockReader{b: data}
		var moves []entry
		for range len(data) + 1 {
			_, got, ok, err := r.group(moves[:0])
			if err != nil || !ok {
				return
			}
			for _, e := range got {
				if e.mv >= 1<<15 {
					t.Fatalf("move %#x out of range", e.mv)
				}
			}
			moves = got
		}
		t.Fatalf("the decoder did not reach the end of %d bytes", len(data))
	})
}
