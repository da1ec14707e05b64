package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/review"
	"github.com/squall-chess/squall/termtext"
)

// reviewMoveTime is a review's time per position when no limit is given:
// `squall review` and the board's review view search alike.
const reviewMoveTime = 200 * time.Millisecond

// reviewCommand analyses one game of a PGN file and writes it annotated like
// lichess: ?!/?/?? with "Best was …" comments and [%eval] on every move, to
// --out or else to standard output (the summary then goes to standard
// error, so that the output is the PGN alone).
func reviewCommand() *cobra.Command {
	var f searchFlags
	cmd := &cobra.Command{
		Use:   "review GAME.pgn [--out OUT.pgn]",
		Short: "Review a game like lichess: ?!/?/?? with better moves and [%eval] written into the PGN",
		Args:  argsBetween(1, 1, "one PGN file"),
	}
	fs := cmd.Flags()
	gameNo := fs.Int("game", 1, "which game `N` of the file to review (1-based)")
	out := fs.String("out", "", "write the annotated game to the PGN file `FILE` instead of standard output")
	force := fs.Bool("force", false, "replace the --out file if it exists (never the file reviewed)")
	f.add(fs, reviewMoveTime)
	cmd.RunE = func(cmd *cobra.Command, rest []string) error {
		if *gameNo < 1 {
			return fmt.Errorf("--game %d: games are numbered from 1", *gameNo)
		}
		lim, err := f.limits()
		if err != nil {
			return err
		}
		g, err := readGame(rest[0], *gameNo)
		if err != nil {
			return err
		}
		start, moves, err := review.GameLine(g)
		if err != nil {
			return err
		}
		// The output is settled before the analysis, which takes minutes.
		pgnOut, report := cmd.OutOrStdout(), cmd.OutOrStdout()
		if *out == "" {
			report = cmd.ErrOrStderr()
		} else {
			file, err := createOutput(*out, *force, rest[0])
			if err != nil {
				return err
			}
			defer file.Discard()
			pgnOut = file
		}

		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		a, err := openAnalyzer(ctx, &f)
		if err != nil {
			return err
		}
		defer a.Close()
		n := start.MovesIn(len(moves))
		fmt.Fprintf(report, "%s vs %s: %s, %s, %s\n", termtext.SafeLine(g.Tag("White")), termtext.SafeLine(g.Tag("Black")),
			plural.Count(n, "move"), termtext.SafeLine(a.Name()), lim.String())
		r, err := analyzeWithProgress(ctx, a, start, moves, lim, report)
		if err != nil {
			return err
		}
		printReview(report, g, r)
		if err := r.Annotate(g); err != nil {
			return err
		}
		g.SetTag("Annotator", a.Name())
		if err := pgn.Write(pgnOut, g); err != nil {
			return err
		}
		if file, ok := pgnOut.(*atomicfile.File); ok {
			if err := file.Commit(); err != nil {
				return err
			}
			fmt.Fprintf(report, "annotated game written to %s\n", termtext.SafeLine(*out))
		}
		return nil
	}
	return cmd
}

// analyzeWithProgress reviews the line, showing "analysing position i/n"
// on w while it goes when w is a terminal.
func analyzeWithProgress(ctx context.Context, a engine.Analyzer, start *chess.Position, moves []chess.Move, lim engine.Limits, w io.Writer) (*review.Report, error) {
	tty := isTerminal(w)
	r, err := review.Analyze(ctx, a, start, moves, lim, func(p review.Progress) {
		if tty {
			fmt.Fprintf(w, "\r\x1b[Kanalysing position %d/%d", p.Done, p.Total)
		}
	})
	if tty {
		fmt.Fprint(w, "\r\x1b[K")
	}
	return r, err
}

// printReview prints the judged moves and each side's totals.
func printReview(w io.Writer, g *pgn.Game, r *review.Report) {
	for _, mv := range r.Moves {
		if mv.Judgment == review.Good {
			continue
		}
		dots := "."
		if mv.Color == chess.Black {
			dots = "..."
		}
		fmt.Fprintf(w, "%3d%s %-7s %-10s %6s → %-6s %s\n", mv.Number, dots, mv.SAN+mv.Judgment.Symbol(),
			mv.Judgment, mv.Before, mv.After, mv.Comment())
	}
	for c, side := range []string{"White", "Black"} {
		p := r.Players[c]
		fmt.Fprintf(w, "%-5s %-20s %s, ACPL %s, accuracy %s\n",
			side, termtext.SafeLine(g.Tag(side)), p.Counts(), p.ACPLText(), p.AccuracyText())
	}
}

// readGame reads game n (1-based) of a PGN file.
func readGame(path string, n int) (*pgn.Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	i := 0
	for g, err := range pgn.NewReader(f, path).All() {
		if g == nil && err != nil {
			return nil, err
		}
		i++
		if i < n {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", n, err)
		}
		return g, nil
	}
	return nil, fmt.Errorf("%s has %d games, no game %d", path, i, n)
}
