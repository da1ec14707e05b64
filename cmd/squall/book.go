package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
)

// bookCommand builds, lists and teaches Polyglot opening books.
func bookCommand() *cobra.Command {
	return groupCommand("book", "Build, list and teach Polyglot opening books (build, probe, learn)",
		bookBuildCommand(), bookProbeCommand(), bookLearnCommand())
}

// eachGame calls fn for every game of a PGN file; games the reader
// rejects (illegal moves and the like) are counted and skipped.
func eachGame(path string, stderr io.Writer, fn func(*pgn.Game) error) (read, skipped int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	for g, err := range pgn.NewReader(f, path).All() {
		var perr *pgn.Error
		if errors.As(err, &perr) {
			skipped++
			fmt.Fprintf(stderr, "skipped: %s\n", termtext.SafeLine(err.Error()))
			continue
		}
		if err != nil {
			return read, skipped, err
		}
		read++
		if err := fn(g); err != nil {
			return read, skipped, fmt.Errorf("%s:%d: %w", path, g.Line, err)
		}
	}
	return read, skipped, nil
}

func bookBuildCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "build --pgn FILE --out BOOK",
		Short: "Build a Polyglot book from the games of a PGN file",
		Args:  argsBetween(0, 0, "no arguments"),
	}
	fs := cmd.Flags()
	in := fs.String("pgn", "", "the games `FILE` to build from (required)")
	out := fs.String("out", "", "the book `FILE` to write (replaced atomically; required)")
	maxPly := minFlag(fs, "max-ply", 24, 1, "enter positions of the first `N` plies")
	minGames := minFlag(fs, "min-games", 1, 1, "keep moves played in at least `N` games")
	onlyWinners := fs.Bool("only-winners", false, "count only the winning side's moves")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if *in == "" || *out == "" {
			return usagef("want --pgn and --out")
		}
		return buildBook(cmd.OutOrStdout(), cmd.ErrOrStderr(), *in, *out,
			book.BuildOptions{MaxPly: *maxPly, MinGames: *minGames, OnlyWinners: *onlyWinners})
	}
	return cmd
}

// buildBook writes the book of the games in the PGN file in to out.
func buildBook(stdout, stderr io.Writer, in, out string, opt book.BuildOptions) error {
	b := book.NewBuilder(opt)
	chess960 := 0
	read, skipped, err := eachGame(in, stderr, func(g *pgn.Game) error {
		bg, err := book.FromPGN(g)
		if errors.Is(err, book.ErrChess960) {
			chess960++
			return nil
		}
		if err != nil {
			return err
		}
		return b.Add(bg)
	})
	if err != nil {
		return err
	}
	es := b.Entries()
	if err := atomicfile.WriteFile(out, book.Marshal(es)); err != nil {
		return err
	}
	positions := 0
	for i, e := range es {
		if i == 0 || e.Key != es[i-1].Key {
			positions++
		}
	}
	fmt.Fprintf(stdout, "%s: %s read (%d with a result, %d skipped, %d Chess960 left out); %s, %s\n",
		out, plural.Count(read, "game"), b.Games(), skipped, chess960, plural.Count(positions, "position"), plural.Count(len(es), "move"))
	return nil
}

// bookArg takes the book file from --book or the one positional argument
// (never "", which openBook reads as no book).
func bookArg(args []string, flagValue string) (string, error) {
	switch {
	case flagValue != "" && len(args) == 0:
		return flagValue, nil
	case flagValue == "" && len(args) == 1 && args[0] != "":
		return args[0], nil
	}
	return "", usagef("want one BOOK file")
}

func bookProbeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "probe BOOK",
		Short: "List a position's book moves with their weights, learning and marks",
		Args:  argsBetween(0, 1, "one BOOK file"),
	}
	fen := cmd.Flags().String("fen", chess.StartFEN, "the position `FEN` to list")
	bookFlag := cmd.Flags().String("book", "", "the book `FILE` (or give it as the argument)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		path, err := bookArg(args, *bookFlag)
		if err != nil {
			return err
		}
		return probeBook(cmd.OutOrStdout(), path, *fen)
	}
	return cmd
}

// probeBook lists the book moves of the position fen in the book at path.
func probeBook(stdout io.Writer, path, fen string) error {
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return err
	}
	bk, learn, err := openBook(path)
	if err != nil {
		return err
	}
	cs := bk.Candidates(pos, learn)
	fmt.Fprintf(stdout, "%s: %s (key %016x)\n", path, plural.Count(len(cs), "book move"), book.Key(pos))
	if o, ok := opening.Lookup(pos); ok {
		fmt.Fprintf(stdout, "opening: %s\n", o)
	}
	if len(cs) == 0 {
		return nil
	}
	var total, totalEff float64
	for _, c := range cs {
		total += float64(c.Weight)
		totalEff += c.Effective
	}
	pct := func(w, sum float64) float64 {
		if sum == 0 {
			return 0
		}
		return 100 * w / sum
	}
	// "played" is the share once learning and marks are applied: what
	// Pick at full variety would choose. "leads to" names the opening the
	// move reaches, when it is a named position.
	fmt.Fprintf(stdout, "%-8s %-6s %7s %7s %6s %-6s %7s  %s\n", "move", "uci", "weight", "%", "learn", "mark", "played", "leads to")
	for _, c := range cs {
		var name string
		var u chess.Undo
		pos.MakeMove(c.Move, &u)
		if o, ok := opening.Lookup(pos); ok {
			name = o.String()
		}
		pos.UnmakeMove(c.Move, &u)
		line := fmt.Sprintf("%-8s %-6s %7d %6.1f%% %+6d %-6s %6.1f%%  %s",
			pos.SAN(c.Move), c.Move.UCI(false), c.Weight, pct(float64(c.Weight), total), c.Score, c.Mark, pct(c.Effective, totalEff), name)
		fmt.Fprintln(stdout, strings.TrimRight(line, " "))
	}
	return nil
}

// bookLearnCommand credits the results of a player's games to the book moves
// they played, as the engine does after its own games: it follows each
// game while the player's moves are in the book.
func bookLearnCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "learn --pgn FILE BOOK",
		Short: "Credit the results of a player's games to the book moves they played",
		Args:  argsBetween(0, 1, "one BOOK file"),
	}
	in := cmd.Flags().String("pgn", "", "the games `FILE` played from the book (required)")
	player := cmd.Flags().String("player", "Squall", "the player `NAME` whose book moves learn (White or Black tag)")
	bookFlag := cmd.Flags().String("book", "", "the book `FILE` (or give it as the argument)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		path, err := bookArg(args, *bookFlag)
		if err != nil {
			return err
		}
		if *in == "" {
			return usagef("want --pgn")
		}
		return learnBook(cmd.OutOrStdout(), cmd.ErrOrStderr(), path, *in, *player)
	}
	return cmd
}

// learnBook credits the book at path with player's games in the PGN file in.
func learnBook(stdout, stderr io.Writer, path, in, player string) error {
	bk, learn, err := openBook(path)
	if err != nil {
		return err
	}
	games, moves := 0, 0
	_, _, err = eachGame(in, stderr, func(g *pgn.Game) error {
		line, r, ok := bookLine(bk, g, player)
		if !ok || len(line) == 0 {
			return nil
		}
		learn.Update(line, r)
		games++
		moves += len(line)
		return nil
	})
	if err != nil {
		return err
	}
	if err := learn.Save(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: learned from %s (%s)\n", book.LearnPath(path), plural.Count(games, "game"), plural.Count(moves, "book move"))
	return nil
}

// bookLine returns the book moves player made in g, up to the first move
// that left the book, and the result for player; ok is false when player
// did not play g or it has no result.
func bookLine(bk *book.Book, g *pgn.Game, player string) (line []book.Played, r book.Result, ok bool) {
	var side chess.Color
	switch {
	case strings.EqualFold(g.Tag("White"), player):
		side = chess.White
	case strings.EqualFold(g.Tag("Black"), player):
		side = chess.Black
	default:
		return nil, 0, false
	}
	bg, err := book.FromPGN(g)
	if err != nil || !bg.Decided {
		return nil, 0, false
	}
	r = bg.Result
	if side == chess.Black {
		r = -r
	}
	p := bg.Start
	for _, m := range bg.Moves {
		if p.SideToMove() == side {
			key, code := book.Key(p), book.EncodeMove(m)
			inBook := false
			for _, e := range bk.Lookup(key) {
				// Decoded, so old books' e1g1 castling matches too.
				if bm, ok := book.DecodeMove(p, e.Move); ok && bm == m {
					inBook = true
				}
			}
			if !inBook {
				break
			}
			line = append(line, book.Played{Key: key, Move: code})
		}
		var u chess.Undo
		p.MakeMove(m, &u)
	}
	return line, r, true
}
