package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/explore"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
)

// exploreCommand is an opening explorer over a PGN file: it builds the
// file's index beside it when there is none or the file changed (what it
// did on standard error), then prints the moves played from a position
// with their games and scores on standard output.
func exploreCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explore FILE.pgn",
		Short: "Opening explorer over a PGN file: the moves played from a position, with games and scores",
		Long: "Indexes FILE.pgn into FILE.pgn.sqx beside it (again whenever the file changes) and prints the moves its games\n" +
			"played from a position (the start, --fen's, or after --moves), the most played first, with the games won by\n" +
			"White, drawn and won by Black after each and the mover's score, as lichess's opening explorer shows them.",
		Args: argsBetween(1, 1, "one PGN file"),
	}
	fs := cmd.Flags()
	fen := fs.String("fen", "", "the position `FEN` to look up (default: the start position)")
	moves := fs.String("moves", "", "look up the position after `MOVES` (SAN or UCI, e.g. \"e4 e5 Nf3\"), played from --fen's position or the start")
	plies := fs.Int("plies", 0, "index only the first `N` plies of each game (0: whole games); an index built otherwise is rebuilt")
	rebuild := fs.Bool("rebuild", false, "build the index again even if it is up to date")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if *plies < 0 {
			return fmt.Errorf("--plies %d: out of range: at least 0", *plies)
		}
		p, err := explorePosition(*fen, *moves)
		if err != nil {
			return err
		}
		name := args[0]
		f, _, err := pgn.OpenFile(name) // a directory is refused by name
		if err != nil {
			return err
		}
		f.Close()
		opt := explore.Options{Plies: *plies, OnError: func(err error) {
			clearLine(stderr)
			fmt.Fprintln(stderr, termtext.SafeLine(err.Error()))
		}}
		if isTerminal(stderr) {
			opt.Progress = func(read, size int64) {
				fmt.Fprintf(stderr, "\r\x1b[Kindexing %s: %d%%", termtext.SafeLine(name), 100*read/max(size, 1))
			}
			defer clearLine(stderr)
		}
		if *rebuild {
			if err := buildIndex(name, opt, stderr); err != nil {
				return err
			}
		}
		start := time.Now()
		ix, built, err := explore.Ensure(name, opt)
		if err != nil {
			return err
		}
		defer ix.Close()
		if built {
			reportIndex(stderr, name, ix.Info(), time.Since(start))
		}
		found, err := ix.Moves(p)
		if err != nil {
			return fmt.Errorf("%s: %w (squall explore --rebuild builds it again)", explore.IndexPath(name), err)
		}
		printExplorer(stdout, name, p, found)
		return nil
	}
	return cmd
}

// buildIndex builds the index of name and reports it.
func buildIndex(name string, opt explore.Options, stderr io.Writer) error {
	start := time.Now()
	info, err := explore.Build(name, opt)
	if err != nil {
		return err
	}
	reportIndex(stderr, name, info, time.Since(start))
	return nil
}

// clearLine clears the progress line, if w is a terminal.
func clearLine(w io.Writer) {
	if isTerminal(w) {
		fmt.Fprint(w, "\r\x1b[K")
	}
}

// reportIndex says what a build made.
func reportIndex(w io.Writer, name string, info explore.Info, took time.Duration) {
	clearLine(w)
	line := fmt.Sprintf("%s: %s indexed", termtext.SafeLine(explore.IndexPath(name)), plural.Count(int(info.Games), "game"))
	if info.Skipped > 0 {
		line += fmt.Sprintf(" (%d left out)", info.Skipped)
	}
	fmt.Fprintf(w, "%s, %s, %s, %.1f MB, in %v\n", line, plural.Count(int(info.Positions), "position"),
		plural.Count(int(info.Moves), "move"), float64(info.Size)/1e6, took.Round(time.Millisecond))
}

// explorePosition is the position to look up: fen's (or the start) after
// moves.
func explorePosition(fen, moves string) (*chess.Position, error) {
	if fen == "" {
		fen = chess.StartFEN
	}
	p, err := chess.ParseFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("--fen %q: %w", fen, err)
	}
	for _, tok := range strings.Fields(moves) {
		// Move numbers ("1.", "1...", "1.e4") are allowed and skipped.
		tok = strings.TrimLeft(tok, "0123456789")
		tok = strings.TrimLeft(tok, ".")
		if tok == "" {
			continue
		}
		m, err := p.ParseTyped(tok)
		if err != nil {
			return nil, fmt.Errorf("--moves: %w", err)
		}
		var u chess.Undo
		p.MakeMove(m, &u)
	}
	return p, nil
}

// printExplorer prints the moves found for p as a table: move, games and
// their share, White's wins, draws and Black's wins in per cent of the
// finished games, and the mover's score; then the totals.
func printExplorer(w io.Writer, name string, p *chess.Position, moves []explore.Move) {
	fmt.Fprintf(w, "%s\n", p.FEN())
	if len(moves) == 0 {
		fmt.Fprintf(w, "no game of %s reaches this position\n", termtext.SafeLine(name))
		return
	}
	var total explore.Move
	for _, m := range moves {
		total.White += m.White
		total.Draws += m.Draws
		total.Black += m.Black
		total.Unfinished += m.Unfinished
	}
	fmt.Fprintf(w, "%-8s %9s %7s %7s %7s %7s %7s\n", "move", "games", "", "white", "draw", "black", "score")
	row := func(label string, m explore.Move) {
		fmt.Fprintf(w, "%-8s %9d %6.1f%% %s\n", label, m.Games(), 100*float64(m.Games())/float64(total.Games()), outcomes(m, p.SideToMove()))
	}
	for _, m := range moves {
		row(m.SAN, m)
	}
	row("total", total)
}

// outcomes is the white/draw/black and score columns of one row; a dash
// where no game finished.
func outcomes(m explore.Move, mover chess.Color) string {
	finished := m.White + m.Draws + m.Black
	score, ok := m.Score(mover)
	if !ok {
		return fmt.Sprintf("%7s %7s %7s %7s", "-", "-", "-", "-")
	}
	pc := func(n uint64) float64 { return 100 * float64(n) / float64(finished) }
	return fmt.Sprintf("%6.1f%% %6.1f%% %6.1f%% %6.1f%%", pc(m.White), pc(m.Draws), pc(m.Black), 100*score)
}
