package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// runPerft prints a perft divide in Stockfish's format, then the speed.
func runPerft(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", "usage: squall perft [--fen FEN] [--chess960] DEPTH", stdout, stderr)
	fen := fs.String("fen", chess.StartFEN, "position to count from")
	c960 := fs.Bool("chess960", false, "write castling moves as king-takes-rook (Chess960)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("want one DEPTH argument")
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 1 || depth > 20 {
		return fmt.Errorf("depth %q: want a number from 1 to 20", fs.Arg(0))
	}
	pos, err := chess.ParseFEN(*fen)
	if err != nil {
		return err
	}
	if *c960 {
		pos.SetChess960(true)
	}
	start := time.Now()
	var total uint64
	for _, e := range pos.Divide(depth) {
		fmt.Fprintf(stdout, "%s: %d\n", e.Move.UCI(pos.Chess960()), e.Nodes)
		total += e.Nodes
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "\nNodes searched: %d\n\n", total)
	nps := float64(total) / max(elapsed.Seconds(), 1e-9)
	fmt.Fprintf(stdout, "time %d ms, %.0f nodes/second\n", elapsed.Milliseconds(), nps)
	return nil
}
