package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
)

// pgnCommand checks PGN files the way pgn-extract does: every problem with its
// file:line:col, move and reason, a summary line per file, and exit status
// 1 if anything was wrong. --reformat writes the readable games in export
// format, --fen prints each readable game's final position. --filter
// selects the games those two see and, without --reformat, writes them to
// standard output (the report then goes to standard error). Files are read
// as a stream, so memory does not grow with their size; without those
// flags every move is checked but no game kept (pgn.Reader.CheckNext),
// which is twice as fast.
func pgnCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pgn FILE.pgn...",
		Short: "Check PGN files: every error with file:line:col and a summary per file; --reformat, --fen, --filter",
		Args:  argsBetween(1, -1, "at least one PGN file"),
	}
	fs := cmd.Flags()
	reformat := fs.String("reformat", "", "write every readable game, in PGN export format, to this `FILE`")
	force := fs.Bool("force", false, "replace the --reformat file if it exists")
	fen := fs.Bool("fen", false, "print the final position (FEN) of every readable game")
	filters := fs.StringArray("filter", nil, "select the games with `KEY=VALUE`, written to standard output unless --reformat is given: "+pgn.FilterHelp)
	cmd.RunE = func(cmd *cobra.Command, files []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		c := pgnCheck{fen: *fen}
		if len(*filters) > 0 {
			f, err := pgn.ParseFilter(*filters)
			if err != nil {
				return err
			}
			c.filter = &f
			if *reformat == "" {
				// The games are the output; the report goes beside them.
				// On a terminal their text from the file is shown safely;
				// piped, it is kept byte for byte.
				c.out, c.screen, stdout = stdout, isTerminal(stdout), stderr
			}
		}
		c.stdout = stdout
		var out *atomicfile.File
		if *reformat != "" {
			var err error
			if out, err = createOutput(*reformat, *force, files...); err != nil {
				return err
			}
			defer out.Discard()
		}
		if out != nil {
			c.out = out // a nil *File in the interface would not be nil
		}
		if isTerminal(stderr) {
			c.progress = stderr
		}
		problems := false
		for _, name := range files {
			s, err := c.file(name)
			if err != nil {
				return err
			}
			line := fmt.Sprintf("%s: %s", termtext.SafeLine(name), s.counts())
			if s.skipped > 0 {
				line += fmt.Sprintf(", %d skipped (variants)", s.skipped)
			}
			if c.filter != nil {
				line += fmt.Sprintf(", %d selected", s.selected)
			}
			fmt.Fprintln(stdout, line)
			problems = problems || s.errors > 0
		}
		if out != nil {
			if err := out.Commit(); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s written to %s\n", plural.Count(c.written, "game"), termtext.SafeLine(*reformat))
		}
		if problems {
			return errReported // the per-file lines said it
		}
		return nil
	}
	return cmd
}

// pgnCheck reads files for runPGN.
type pgnCheck struct {
	stdout   io.Writer
	progress io.Writer // the terminal for a progress line, or nil
	out      io.Writer // the --reformat file (or, with a filter, standard output), or nil
	filter   *pgn.Filter
	screen   bool // out is a terminal: the games go through termtext.Safe
	fen      bool
	written  int
	buf      []byte
}

type pgnStats struct{ games, errors, skipped, selected int }

// counts is "1 game, 2 errors".
func (s pgnStats) counts() string {
	return plural.Count(s.games, "game") + ", " + plural.Count(s.errors, "error")
}

// file reads one file, printing its problems (and positions) as it goes.
// Only an I/O error is returned: a bad game is a problem to report.
func (c *pgnCheck) file(name string) (pgnStats, error) {
	var s pgnStats
	f, fi, err := pgn.OpenFile(name)
	if err != nil {
		return s, err
	}
	defer f.Close()
	size := fi.Size()
	cr := &countingReader{r: f}
	last := time.Now()
	defer c.clearProgress()
	rd := pgn.NewReader(cr, name)
	keep := c.out != nil || c.fen || c.filter != nil // the games are needed
	for {
		var g *pgn.Game
		var err error
		if keep {
			g, err = rd.Next()
		} else {
			err = rd.CheckNext()
		}
		if err == io.EOF {
			break
		}
		var perr *pgn.Error
		switch {
		case errors.Is(err, pgn.ErrVariant):
			s.skipped++
			c.clearProgress()
			fmt.Fprintf(c.stdout, "%s (skipped)\n", termtext.SafeLine(err.Error()))
			continue
		case errors.As(err, &perr):
			s.games++
			s.errors++
			c.clearProgress()
			fmt.Fprintln(c.stdout, termtext.SafeLine(err.Error()))
			continue
		case err != nil:
			return s, fmt.Errorf("%s: %w", name, err)
		}
		s.games++
		if keep && (c.filter == nil || c.filter.Match(g)) {
			s.selected++
			if err := c.game(name, g); err != nil {
				return s, err
			}
		}
		if c.progress != nil && time.Since(last) > 200*time.Millisecond {
			last = time.Now()
			fmt.Fprintf(c.progress, "\r\x1b[K%s: %s, %d%%", termtext.SafeLine(name), s.counts(), 100*cr.n/max(size, 1))
		}
	}
	return s, nil
}

// game writes a readable game to the --reformat file and prints its final
// position for --fen.
func (c *pgnCheck) game(name string, g *pgn.Game) error {
	if c.out != nil {
		var err error
		if c.buf, err = pgn.AppendGame(c.buf[:0], g); err != nil {
			return fmt.Errorf("%s:%d: %w", name, g.Line, err)
		}
		text := c.buf
		if c.screen {
			text = []byte(termtext.Safe(string(text)))
		}
		if _, err := c.out.Write(text); err != nil {
			return err
		}
		c.written++
	}
	if c.fen {
		line := g.Mainline()
		end := g.Root
		if len(line) > 0 {
			end = line[len(line)-1]
		}
		p, err := g.PositionAfter(end)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, g.Line, err)
		}
		c.clearProgress()
		fmt.Fprintf(c.stdout, "%s:%d: %s\n", termtext.SafeLine(name), g.Line, p.FEN())
	}
	return nil
}

func (c *pgnCheck) clearProgress() {
	if c.progress != nil {
		fmt.Fprint(c.progress, "\r\x1b[K")
	}
}

// countingReader counts the bytes read, for the progress line.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
