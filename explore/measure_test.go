package explore

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/pgn"
)

// The measurement of docs/PERFORMANCE.md, run by hand (it needs a big
// file, which is not in the repository):
//
//	SQUALL_EXPLORE_WRITE=/work/data/explore/100k.pgn SQUALL_EXPLORE_GAMES=100000 go test ./explore -run TestWriteGames -v
//	SQUALL_EXPLORE_MEASURE=/work/data/explore/100k.pgn go test ./explore -run TestMeasure -v
const (
	writeEnv   = "SQUALL_EXPLORE_WRITE"
	gamesEnv   = "SQUALL_EXPLORE_GAMES"
	measureEnv = "SQUALL_EXPLORE_MEASURE"
)

// randomGame plays a game as a stand-in for a database's: while it can,
// each move keeps the game in a named opening of engine/opening (a random
// one of the moves that do, so openings branch and transpose as real ones
// do), then random legal moves until mate, a draw by rule or a length
// drawn between 40 and 140 plies, where the side ahead by three pawns of
// material wins and anything closer is a draw.
func randomGame(rng *rand.Rand, round int) *pgn.Game {
	players := []string{"Carlsen, Magnus", "Nakamura, Hikaru", "Ding, Liren", "Caruana, Fabiano", "Firouzja, Alireza",
		"Nepomniachtchi, Ian", "Giri, Anish", "So, Wesley", "Aronian, Levon", "Vachier-Lagrave, Maxime"}
	g := pgn.NewGame()
	g.SetTag("Event", "Random games")
	g.SetTag("Date", fmt.Sprintf("%d.%02d.%02d", 1990+rng.IntN(36), 1+rng.IntN(12), 1+rng.IntN(28)))
	g.SetTag("Round", strconv.Itoa(round))
	w := rng.IntN(len(players))
	b := (w + 1 + rng.IntN(len(players)-1)) % len(players)
	g.SetTag("White", players[w])
	g.SetTag("Black", players[b])
	p := chess.NewPosition()
	node, eco := g.Root, ""
	var ml chess.MoveList
	var u chess.Undo
	inTheory := true
	length := 40 + rng.IntN(101)
	result := pgn.Draw
	for ply := 0; ; ply++ {
		p.GenerateLegal(&ml)
		switch {
		case ml.N == 0 && p.InCheck():
			result = pgn.WhiteWins
			if p.SideToMove() == chess.White {
				result = pgn.BlackWins
			}
		case ml.N == 0 || p.InsufficientMaterial() || p.FiftyMoveRule() || p.Repetitions() >= 2:
			result = pgn.Draw
		case ply >= length:
			result = materialResult(p)
		default:
			moves := ml.Slice()
			if inTheory {
				var named []chess.Move
				for _, m := range moves {
					p.MakeMove(m, &u)
					if _, ok := opening.Lookup(p); ok {
						named = append(named, m)
					}
					p.UnmakeMove(m, &u)
				}
				if inTheory = len(named) > 0 && rng.IntN(10) > 0; inTheory {
					moves = named
				}
			}
			m := moves[rng.IntN(len(moves))]
			node = node.AddChild(m, p.SAN(m))
			p.MakeMove(m, &u)
			if o, ok := opening.Lookup(p); ok {
				eco = o.ECO
			}
			continue
		}
		break
	}
	if eco != "" {
		g.SetTag("ECO", eco)
	}
	g.SetTag("Result", result)
	return g
}

// materialResult is the result of a game stopped at p: a win for the side
// ahead by at least three pawns of material, else a draw.
func materialResult(p *chess.Position) string {
	diff := 0
	for t := chess.Pawn; t <= chess.Queen; t++ {
		diff += chess.SEEValue(t) * (p.Pieces(chess.White, t).Count() - p.Pieces(chess.Black, t).Count())
	}
	switch {
	case diff >= 3*chess.SEEValue(chess.Pawn):
		return pgn.WhiteWins
	case diff <= -3*chess.SEEValue(chess.Pawn):
		return pgn.BlackWins
	}
	return pgn.Draw
}

// TestWriteGames writes the measurement's file (see the constants above).
func TestWriteGames(t *testing.T) {
	path := os.Getenv(writeEnv)
	if path == "" {
		t.Skip("set " + writeEnv + " (and " + gamesEnv + ") to write a file of random games")
	}
	n, err := strconv.Atoi(os.Getenv(gamesEnv))
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a number of games", gamesEnv, os.Getenv(gamesEnv))
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(36, 1))
	start := time.Now()
	var buf []byte
	for i := range n {
		if buf, err = pgn.AppendGame(buf[:0], randomGame(rng, i+1)); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	t.Logf("%d games, %.1f MB, written in %v", n, float64(fi.Size())/1e6, time.Since(start).Round(time.Millisecond))
}

// TestRandomGame: the stand-in games are legal PGN with a result, and
// start in named openings.
func TestRandomGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	named := 0
	for i := range 50 {
		g := randomGame(rng, i)
		text, err := pgn.AppendGame(nil, g)
		if err != nil {
			t.Fatal(err)
		}
		back, err := pgn.NewReader(bytes.NewReader(text), "g").Next()
		if err != nil || back.Result != g.Result || len(back.Mainline()) != len(g.Mainline()) {
			t.Fatalf("game %d does not read back: %v\n%s", i, err, text)
		}
		if g.Tag("ECO") != "" {
			named++
		}
	}
	if named < 45 {
		t.Errorf("%d of 50 games in a named opening", named)
	}
}

// TestMeasure builds the index of a big file and times look-ups of 1,000
// positions drawn from its games (see the constants above).
func TestMeasure(t *testing.T) {
	path := os.Getenv(measureEnv)
	if path == "" {
		t.Skip("set " + measureEnv + " to a PGN file to measure the explorer on it")
	}
	start := time.Now()
	info, err := Build(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pgnInfo, _ := os.Stat(path)
	t.Logf("build: %d games, %d positions, %d moves; PGN %.1f MB, index %.1f MB (%.1f bytes a move), in %v",
		info.Games, info.Positions, info.Moves, float64(pgnInfo.Size())/1e6, float64(info.Size)/1e6,
		float64(info.Size)/float64(info.Moves), time.Since(start).Round(time.Millisecond))

	// 1,000 positions: a reservoir sample of every main-line position a
	// move was played from.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(7, 7))
	var sample []*chess.Position
	seen := 0
	for g, err := range pgn.NewReader(f, path).All() {
		if err != nil {
			continue
		}
		line, err := g.MainlinePositions()
		if err != nil {
			continue
		}
		for p, m := range line {
			if m == chess.NullMove {
				break // the final position: no move played from it
			}
			seen++
			if len(sample) < 1000 {
				sample = append(sample, p.Clone())
			} else if i := rng.IntN(seen); i < 1000 {
				sample[i] = p.Clone()
			}
		}
	}
	start = time.Now()
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	t.Logf("open (trailer and directory): %v", time.Since(start).Round(time.Microsecond))
	for pass := range 2 {
		var took []time.Duration
		found := 0
		for _, p := range sample {
			s := time.Now()
			moves, err := ix.Moves(p)
			took = append(took, time.Since(s))
			if err != nil {
				t.Fatal(err)
			}
			if len(moves) > 0 {
				found++
			}
		}
		slices.Sort(took)
		t.Logf("pass %d: %d look-ups (%d found): p50 %v, p99 %v, max %v", pass+1, len(took), found,
			took[len(took)/2], took[len(took)*99/100], took[len(took)-1])
	}
}
