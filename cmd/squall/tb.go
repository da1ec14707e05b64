package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/tablebase"
)

// tbCommand probes Syzygy tablebases: `squall tb probe --path DIR --fen FEN`.
func tbCommand() *cobra.Command {
	probe := &cobra.Command{
		Use:   "probe --path DIR[" + string(filepath.ListSeparator) + "DIR...] --fen FEN",
		Short: "Print a position's WDL and DTZ and its moves ranked by the tables",
		Args:  argsBetween(0, 0, "no arguments"),
	}
	path := probe.Flags().String("path", "", "Syzygy table directories `DIRS`, separated by '"+string(filepath.ListSeparator)+"' (required)")
	fen := probe.Flags().String("fen", "", "the position `FEN` to probe (required)")
	no50 := probe.Flags().Bool("no50", false, "ignore the 50-move rule when ranking moves (cursed wins count as wins)")
	probe.RunE = func(cmd *cobra.Command, _ []string) error {
		if *path == "" || *fen == "" {
			return usagef("want --path and --fen")
		}
		return probeTB(cmd.OutOrStdout(), *path, *fen, !*no50)
	}
	return groupCommand("tb", "Probe Syzygy endgame tablebases (wdl, dtz, best moves)", probe)
}

// probeTB prints what the tables in the directories of path say of fen.
func probeTB(stdout io.Writer, path, fen string, rule50 bool) error {
	tb, err := tablebase.Open(filepath.SplitList(path)...)
	if err != nil {
		return err
	}
	if tb.Files() == 0 {
		return fmt.Errorf("no Syzygy tables (*.rtbw, *.rtbz) in %s", path)
	}
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return err
	}
	wdl, ok := tb.ProbeWDL(pos)
	if !ok {
		return fmt.Errorf("position not in the tables (pieces %d, largest table %d pieces, castling rights or a missing table)",
			pos.Occupied().Count(), tb.MaxPieces())
	}
	fmt.Fprintf(stdout, "wdl %d\n", wdl)
	if dtz, ok := tb.ProbeDTZ(pos); ok {
		fmt.Fprintf(stdout, "dtz %d\n", dtz)
	} else {
		fmt.Fprintln(stdout, "dtz unknown (DTZ table missing)")
	}
	moves, ok := tb.RootMoves(pos, rule50)
	if !ok {
		if pos.HasLegalMoves() {
			fmt.Fprintln(stdout, "moves unknown (DTZ table missing)")
		}
		return nil
	}
	// Best: the quickest conversion (or draw, or longest defence).
	fmt.Fprint(stdout, "best")
	for _, m := range moves {
		if m.Rank == moves[0].Rank && m.DTZ == moves[0].DTZ {
			fmt.Fprintf(stdout, " %s", pos.SAN(m.Move))
		}
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "\nmove     wdl   dtz")
	for _, m := range moves {
		fmt.Fprintf(stdout, "%-8s %3d %5d\n", pos.SAN(m.Move), m.WDL, m.DTZ)
	}
	return nil
}
