package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/chess"
)

// perftCommand prints a perft divide in Stockfish's format, then the speed.
func perftCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "perft DEPTH",
		Short: "Count leaf nodes of the legal move tree",
		Long:  "Counts the leaf nodes of the legal move tree to DEPTH, move by move (a divide in\nStockfish's format), then the total and the speed.",
		Args:  argsBetween(1, 1, "one DEPTH"),
	}
	fen := cmd.Flags().String("fen", chess.StartFEN, "the position `FEN` to count from")
	c960 := cmd.Flags().Bool("chess960", false, "write castling moves as king-takes-rook (Chess960)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return perft(cmd.OutOrStdout(), args[0], *fen, *c960)
	}
	return cmd
}

func perft(stdout io.Writer, depthArg, fen string, c960 bool) error {
	depth, err := parseArgNumber("DEPTH", depthArg, 1, 20)
	if err != nil {
		return err
	}
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return err
	}
	if c960 {
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
