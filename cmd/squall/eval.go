package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/engine/nnue"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/termtext"
)

// evalCommand prints the static evaluation of a position term by term, or
// with --epd the score of every position in a file and the pawn-hash hit
// rate over them.
func evalCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval [FEN]",
		Short: "Print the static evaluation of a position, term by term",
		Long:  "Prints the hand-crafted evaluation of FEN (default: the start position) term by term,\nthen the built-in network's score (or --net's); with --epd the score of every position of a file.",
		Args:  cobra.ArbitraryArgs,
	}
	fs := cmd.Flags()
	epd := fs.String("epd", "", "evaluate every position of the EPD file `FILE` instead")
	netPath := fs.String("net", "", "print the score of the evaluation network `FILE` (squall train's output) instead of the built-in one's")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		stdout := cmd.OutOrStdout()
		e := eval.New()
		if *epd != "" {
			return evalFile(e, *epd, stdout)
		}
		fen := strings.Join(args, " ")
		if fen == "" {
			fen = chess.StartFEN
		}
		p, err := chess.ParseFEN(fen)
		if err != nil {
			return fmt.Errorf("position %q: %w", fen, err)
		}
		e.Trace(p).Print(stdout)
		net, name := nnue.Default(), nnue.DefaultName
		if *netPath != "" {
			data, err := os.ReadFile(*netPath)
			if err != nil {
				return err
			}
			if net, err = nnue.Parse(data); err != nil {
				return fmt.Errorf("%s: %w", *netPath, err)
			}
			name = filepath.Base(*netPath)
		}
		var acc nnue.Accumulator
		net.Refresh(&acc, p)
		v := net.Evaluate(&acc, p)
		hce := e.Evaluate(p)
		if p.SideToMove() == chess.Black {
			v, hce = -v, -hce
		}
		fmt.Fprintf(stdout, "network %s: %+.2f (hand-crafted %+.2f), White's view\n", termtext.SafeLine(name), float64(v)/100, float64(hce)/100)
		return nil
	}
	return cmd
}

// evalFile prints "score FEN" for each EPD line, the score in pawns from
// White's view.
func evalFile(e *eval.Evaluator, name string, stdout io.Writer) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) < 4 {
			return fmt.Errorf("%s:%d: want at least 4 FEN fields", name, line)
		}
		p, err := chess.ParseFEN(strings.Join(fields[:4], " "))
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		v := e.Evaluate(p)
		if p.SideToMove() == chess.Black {
			v = -v
		}
		fmt.Fprintf(stdout, "%+6.2f %s\n", float64(v)/100, p.FEN())
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	probes, hits := e.PawnHashStats()
	if probes > 0 {
		fmt.Fprintf(stdout, "pawn hash %s, %s (%.1f%%)\n", plural.Count(probes, "probe"), plural.Count(hits, "hit"), 100*float64(hits)/float64(probes))
	}
	return nil
}
