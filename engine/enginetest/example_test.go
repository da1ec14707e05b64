package enginetest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// An engine that plays 1. e4 at a scripted score, two plies deep, and
// records the search it was asked for.
func Example() {
	e := &enginetest.Engine{
		MaxDepth: 2,
		Best:     enginetest.MovesByPly(map[int]string{0: "e4"}),
		Score:    enginetest.ScoresByPly(map[int]engine.Score{0: {CP: 35}}),
	}
	g := engine.Game{Start: chess.NewPosition()}
	res, err := e.Search(context.Background(), g, engine.Limits{MoveTime: time.Second}, func(in engine.Info) {
		fmt.Printf("depth %d score %v nodes %d pv %v\n", in.Depth, in.Score, in.Nodes, in.PV)
	})
	fmt.Println("bestmove", res.BestMove, err)
	fmt.Println(e.Searches(), "search, movetime", e.Limits()[0].MoveTime)
	// Output:
	// depth 1 score +0.35 nodes 12345 pv [e2e4 a7a6]
	// depth 2 score +0.35 nodes 24690 pv [e2e4 a7a6]
	// bestmove e2e4 <nil>
	// 1 search, movetime 1s
}
