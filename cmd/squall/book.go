package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/termtext"
)

const bookUsage = `usage:
  squall book build --pgn FILE --out BOOK [--max-ply N] [--min-games N] [--only-winners]
  squall book probe [--fen FEN] BOOK
  squall book learn --pgn FILE --player NAME BOOK`

// runBook builds, lists and teaches Polyglot opening books.
func runBook(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, bookUsage)
		return fmt.Errorf("want build, probe or learn")
	}
	switch args[0] {
	case "build":
		return runBookBuild(args[1:], stdout, stderr)
	case "probe":
		return runBookProbe(args[1:], stdout, stderr)
	case "learn":
		return runBookLearn(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, bookUsage)
		return nil
	}
	fmt.Fprintln(stderr, bookUsage)
	return fmt.Errorf("unknown book command %q", args[0])
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

func runBookBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("book build", bookUsage, stdout, stderr)
	in := fs.String("pgn", "", "games to build from")
	out := fs.String("out", "", "book file to write (replaced atomically)")
	maxPly := fs.Int("max-ply", 24, "enter positions of the first N plies")
	minGames := fs.Int("min-games", 1, "keep moves played in at least N games")
	onlyWinners := fs.Bool("only-winners", false, "count only the winning side's moves")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || *out == "" || fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("want --pgn and --out")
	}
	b := book.NewBuilder(book.BuildOptions{MaxPly: *maxPly, MinGames: *minGames, OnlyWinners: *onlyWinners})
	chess960 := 0
	read, skipped, err := eachGame(*in, stderr, func(g *pgn.Game) error {
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
	if err := atomicfile.WriteFile(*out, book.Marshal(es)); err != nil {
		return err
	}
	positions := 0
	for i, e := range es {
		if i == 0 || e.Key != es[i-1].Key {
			positions++
		}
	}
	fmt.Fprintf(stdout, "%s: %d games read (%d with a result, %d skipped, %d Chess960 left out); %d positions, %d moves\n",
		*out, read, b.Games(), skipped, chess960, positions, len(es))
	return nil
}

// bookArg takes the book file from --book or the one positional argument
// (never "", which openBook reads as no book).
func bookArg(fs *flag.FlagSet, flagValue string) (string, error) {
	switch {
	case flagValue != "" && fs.NArg() == 0:
		return flagValue, nil
	case flagValue == "" && fs.NArg() == 1 && fs.Arg(0) != "":
		return fs.Arg(0), nil
	}
	fs.Usage()
	return "", fmt.Errorf("want one BOOK file")
}

func runBookProbe(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("book probe", bookUsage, stdout, stderr)
	fen := fs.String("fen", chess.StartFEN, "position to list")
	bookFlag := fs.String("book", "", "book file (or give it as the argument)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := bookArg(fs.FlagSet, *bookFlag)
	if err != nil {
		return err
	}
	pos, err := chess.ParseFEN(*fen)
	if err != nil {
		return err
	}
	bk, learn, err := openBook(path)
	if err != nil {
		return err
	}
	cs := bk.Candidates(pos, learn)
	fmt.Fprintf(stdout, "%s: %d book moves (key %016x)\n", path, len(cs), book.Key(pos))
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

// runBookLearn credits the results of a player's games to the book moves
// they played, as the engine does after its own games: it follows each
// game while the player's moves are in the book.
func runBookLearn(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("book learn", bookUsage, stdout, stderr)
	in := fs.String("pgn", "", "games played from the book")
	player := fs.String("player", "Squall", "the player whose book moves learn (White or Black tag)")
	bookFlag := fs.String("book", "", "book file (or give it as the argument)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := bookArg(fs.FlagSet, *bookFlag)
	if err != nil {
		return err
	}
	if *in == "" {
		fs.Usage()
		return fmt.Errorf("want --pgn")
	}
	bk, learn, err := openBook(path)
	if err != nil {
		return err
	}
	games, moves := 0, 0
	_, _, err = eachGame(*in, stderr, func(g *pgn.Game) error {
		line, r, ok := bookLine(bk, g, *player)
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
	fmt.Fprintf(stdout, "%s: learned from %d games (%d book moves)\n", book.LearnPath(path), games, moves)
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
