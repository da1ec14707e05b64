package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/review"
	"github.com/squall-chess/squall/tui/termtext"
)

// reviewMoveTime is a review's time per position when no limit is given:
// `squall review` and the board's review view search alike.
const reviewMoveTime = 200 * time.Millisecond

// reviewCommand analyses one game of a PGN file and writes it annotated like
// lichess: ?!/?/?? with "Best was …" comments and [%eval] on every move.
func reviewCommand() *cobra.Command {
	var f searchFlags
	cmd := &cobra.Command{
		Use:   "review GAME.pgn --out OUT.pgn",
		Short: "review a game like lichess: ?!/?/?? with better moves and [%eval] written into the PGN",
		Args:  argsBetween(1, 1, "one PGN file"),
	}
	fs := cmd.Flags()
	gameNo := fs.Int("game", 1, "which game of the file to review (1-based)")
	out := fs.String("out", "", "write the annotated game to this PGN file (required)")
	f.add(fs, reviewMoveTime)
	cmd.RunE = func(cmd *cobra.Command, rest []string) error {
		stdout := cmd.OutOrStdout()
		if *out == "" {
			return usagef("want --out")
		}
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

		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		a, err := openAnalyzer(ctx, &f)
		if err != nil {
			return err
		}
		defer a.Close()
		fmt.Fprintf(stdout, "%s vs %s: %d moves, %s, %s\n", termtext.SafeLine(g.Tag("White")), termtext.SafeLine(g.Tag("Black")), len(moves), termtext.SafeLine(a.Name()), lim.String())
		tty := isTerminal(stdout)
		r, err := review.Analyze(ctx, a, start, moves, lim, func(p review.Progress) {
			if tty {
				fmt.Fprintf(stdout, "\r\x1b[Kanalysing position %d/%d", p.Done, p.Total)
			}
		})
		if tty {
			fmt.Fprint(stdout, "\r\x1b[K")
		}
		if err != nil {
			return err
		}
		for _, mv := range r.Moves {
			if mv.Judgment == review.Good {
				continue
			}
			dots := "."
			if mv.Color == chess.Black {
				dots = "..."
			}
			fmt.Fprintf(stdout, "%3d%s %-7s %-10s %6s → %-6s %s\n", mv.Number, dots, mv.SAN+mv.Judgment.Symbol(),
				mv.Judgment, mv.Before, mv.After, mv.Comment())
		}
		for c, side := range []string{"White", "Black"} {
			p := r.Players[c]
			fmt.Fprintf(stdout, "%-5s %-20s %d inaccuracies, %d mistakes, %d blunders, ACPL %d, accuracy %.0f%%\n",
				side, termtext.SafeLine(g.Tag(side)), p.Inaccuracies, p.Mistakes, p.Blunders, p.ACPL, p.Accuracy)
		}
		if err := r.Annotate(g); err != nil {
			return err
		}
		g.SetTag("Annotator", a.Name())
		if err := pgn.WriteFile(*out, []*pgn.Game{g}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "annotated game written to %s\n", *out)
		return nil
	}
	return cmd
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
