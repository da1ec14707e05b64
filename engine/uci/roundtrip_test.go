package uci

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// TestGoRoundTrip: what the client writes, the server reads back as the
// same limits (no limit at all is "go infinite").
func TestGoRoundTrip(t *testing.T) {
	p := chess.NewPosition()
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	rng := rand.New(rand.NewPCG(1, 2))
	ms := func() time.Duration { return time.Duration(rng.IntN(100000)) * time.Millisecond }
	for i := range 2000 {
		var lim engine.Limits
		if rng.IntN(2) == 0 {
			lim.WTime, lim.BTime = ms()+time.Millisecond, ms()+time.Millisecond
			if rng.IntN(2) == 0 {
				lim.WInc, lim.BInc = ms(), ms()
			}
			lim.MovesToGo = rng.IntN(3) * 20
		}
		if rng.IntN(4) == 0 {
			lim.Depth = 1 + rng.IntN(40)
		}
		if rng.IntN(4) == 0 {
			lim.Nodes = uint64(1 + rng.IntN(1e7))
		}
		if rng.IntN(6) == 0 {
			lim.Mate = 1 + rng.IntN(10)
		}
		if rng.IntN(4) == 0 {
			lim.MoveTime = ms() + time.Millisecond
		}
		lim.Ponder = rng.IntN(5) == 0
		lim.Infinite = rng.IntN(5) == 0
		for _, m := range ml.Slice() {
			if rng.IntN(8) == 0 {
				lim.SearchMoves = append(lim.SearchMoves, m)
			}
		}
		line := FormatGo(lim, false)
		got, err := ParseGo(strings.Fields(line)[1:], p)
		if err != nil {
			t.Fatalf("%d: %q: %v", i, line, err)
		}
		want := lim
		limited := lim.WTime > 0 || lim.Depth > 0 || lim.Nodes > 0 || lim.Mate > 0 || lim.MoveTime > 0
		want.Infinite = lim.Infinite || !limited
		if want.WInc == 0 && want.BInc == 0 || want.WTime == 0 {
			want.WInc, want.BInc = 0, 0
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d: %q read as %+v, want %+v", i, line, got, want)
		}
	}
}

// TestPositionRoundTrip: games from the start and from a FEN, Chess960
// castling included, come back move for move.
func TestPositionRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	starts := []string{chess.NewPosition().FEN(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"}
	for _, fen := range starts {
		for range 50 {
			start, err := chess.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			g := engine.Game{Start: start}
			p := start.Clone()
			var u chess.Undo
			for range rng.IntN(30) {
				var ml chess.MoveList
				if p.GenerateLegal(&ml); ml.N == 0 {
					break
				}
				m := ml.Moves[rng.IntN(ml.N)]
				g.Moves = append(g.Moves, m)
				p.MakeMove(m, &u)
			}
			line := FormatPosition(g)
			got, err := ParsePosition(strings.Fields(line)[1:], false)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if got.Start.FEN() != g.Start.FEN() || !reflect.DeepEqual(got.Moves, g.Moves) && len(g.Moves) > 0 {
				t.Fatalf("%q read as %s %v", line, got.Start.FEN(), got.Moves)
			}
		}
	}
}

// TestBestMoveRoundTrip: the server's line, the client's reading; an
// illegal ponder move is dropped on both sides.
func TestBestMoveRoundTrip(t *testing.T) {
	p := chess.NewPosition()
	e4, _ := p.ParseUCI("e2e4")
	after := p.Clone()
	var u chess.Undo
	after.MakeMove(e4, &u)
	e5, err := after.ParseUCI("e7e5")
	if err != nil {
		t.Fatal(err)
	}
	line := FormatBestMove(p, engine.Result{BestMove: e4, PonderMove: e5}, false)
	best, ponder, err := ParseBestMove(line, p)
	if err != nil || best != e4 || ponder.UCI(false) != "e7e5" {
		t.Errorf("%q read as %v %v, %v", line, best, ponder, err)
	}
	mated, _ := chess.ParseFEN("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	line = FormatBestMove(mated, engine.Result{}, false)
	if best, _, err := ParseBestMove(line, mated); line != "bestmove 0000" || err != nil || best != chess.NullMove {
		t.Errorf("mated: %q read as %v, %v", line, best, err)
	}
	if _, _, err := ParseBestMove("bestmove e2e5", p); err == nil {
		t.Error("illegal bestmove accepted")
	}
}
