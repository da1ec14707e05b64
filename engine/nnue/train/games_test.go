package train

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// randomGames plays n games of random legal moves from the start and from
// a position with castling, en passant and promotions near, each move
// scored at random (mates among them), as datagen records them.
func randomGames(n int, seed uint64) []GameRecord {
	rng := rand.New(rand.NewPCG(seed, 7))
	starts := []string{chess.StartFEN, "r3k2r/1P4p1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 30"}
	var gs []GameRecord
	for i := range n {
		start, _ := chess.ParseFEN(starts[i%len(starts)])
		g := GameRecord{ID: 1000 + i, Start: start, Result: float64(rng.IntN(3)) / 2}
		p := start.Clone()
		var u chess.Undo
		for range 20 + rng.IntN(100) {
			var ml chess.MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			score := int16(rng.IntN(2000) - 1000)
			if rng.IntN(20) == 0 {
				score = MateScore
			}
			g.Plies = append(g.Plies, Ply{Move: m, Score: score})
			p.MakeMove(m, &u)
		}
		gs = append(gs, g)
	}
	return gs
}

// TestGameFormat: games written in the compact format read back move for
// move, their training positions are those the rule picks from the game
// (no mates, no checks, no captures or promotions), a block cut short at
// the end is counted and left out, and a position costs a few bytes.
func TestGameFormat(t *testing.T) {
	games := randomGames(40, 1)
	var b []byte
	var want []Position
	for i := range games {
		b = AppendGame(b, &games[i])
		p := games[i].Start.Clone()
		var u chess.Undo
		for _, pl := range games[i].Plies {
			if !p.InCheck() && !pl.Move.IsCapture() && pl.Move.Promotion() == chess.NoPieceType && pl.Score != MateScore {
				want = append(want, Pack(p, int(pl.Score), games[i].Result, games[i].ID))
			}
			p.MakeMove(pl.Move, &u)
		}
	}
	var back []GameRecord
	tail, err := ReadGames(bytes.NewReader(b), func(g *GameRecord) error {
		back = append(back, *g)
		return nil
	})
	if err != nil || tail != 0 || len(back) != len(games) {
		t.Fatalf("%d games back of %d, tail %d, %v", len(back), len(games), tail, err)
	}
	for i := range games {
		g, h := games[i], back[i]
		if g.ID != h.ID || g.Result != h.Result || g.Start.FEN() != h.Start.FEN() || !reflect.DeepEqual(g.Plies, h.Plies) {
			t.Fatalf("game %d read back differently", i)
		}
	}
	ps, tail, err := ReadGamePositions(bytes.NewReader(b))
	if err != nil || tail != 0 || !reflect.DeepEqual(ps, want) {
		t.Fatalf("%d positions (tail %d, %v), want %d", len(ps), tail, err, len(want))
	}
	if perPos := float64(len(b)) / float64(len(want)); perPos > 8 {
		t.Errorf("%.1f bytes a training position", perPos)
	}
	// Cut short: the last game is left out, its bytes counted.
	cut := b[:len(b)-5]
	ps2, tail, err := ReadGamePositions(bytes.NewReader(cut))
	last := len(AppendGame(nil, &games[len(games)-1]))
	if err != nil || tail != last-5 || len(ps2) != len(want)-len(games[len(games)-1].Positions()) {
		t.Errorf("cut short: %d positions, tail %d (want %d), %v", len(ps2), tail, last-5, err)
	}
	// A damaged block is an error naming it.
	bad := append([]byte(nil), b...)
	bad[4+4] = 9 // the first game's result
	if _, _, err := ReadGamePositions(bytes.NewReader(bad)); err == nil {
		t.Error("a result of 9 was read")
	}
}

// FuzzReadGames: any bytes read without a panic, and the games read, written
// again, read back as the same bytes (not the bytes first read: a FEN may
// be read in another spelling than the one written).
func FuzzReadGames(f *testing.F) {
	games := randomGames(3, 2)
	var b []byte
	for i := range games {
		b = AppendGame(b, &games[i])
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte("\x0c\x00\x00\x00\x01\x00\x00\x00\x01\x05 k K w")) // a FEN that does not parse
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var out []byte
		tail, _ := ReadGames(bytes.NewReader(data), func(g *GameRecord) error {
			out = AppendGame(out, g)
			_ = g.Positions()
			return nil
		})
		if tail < 0 || tail > len(data) {
			t.Fatalf("a tail of %d from %d bytes", tail, len(data))
		}
		var again []byte
		if _, err := ReadGames(bytes.NewReader(out), func(g *GameRecord) error {
			again = AppendGame(again, g)
			return nil
		}); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("games written do not read back the same: %v", err)
		}
	})
}
