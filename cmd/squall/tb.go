package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/tablebase"
)

// runTB probes Syzygy tablebases: `squall tb probe --path DIR --fen FEN`.
func runTB(args []string, stdout, stderr io.Writer) error {
	const usage = "usage: squall tb probe --path DIR[" + string(filepath.ListSeparator) + "DIR...] --fen FEN [--no50]"
	if len(args) == 0 || args[0] != "probe" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprintln(stdout, usage)
			return errHelp
		}
		fmt.Fprintln(stderr, usage)
		return fmt.Errorf("want the probe subcommand")
	}
	fs := newFlagSet("tb probe", usage, stdout, stderr)
	path := fs.String("path", "", "Syzygy table directories, separated by '"+string(filepath.ListSeparator)+"'")
	fen := fs.String("fen", "", "position to probe")
	no50 := fs.Bool("no50", false, "ignore the 50-move rule when ranking moves (cursed wins count as wins)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *path == "" || *fen == "" || fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("want --path and --fen")
	}
	tb, err := tablebase.Open(filepath.SplitList(*path)...)
	if err != nil {
		return err
	}
	if tb.Files() == 0 {
		return fmt.Errorf("no Syzygy tables (*.rtbw, *.rtbz) in %s", *path)
	}
	pos, err := chess.ParseFEN(*fen)
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
	moves, ok := tb.RootMoves(pos, !*no50)
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
