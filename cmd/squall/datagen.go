package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/nnue/train"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/engine/tune"
	"github.com/squall-chess/squall/internal/plural"
)

// datagenCommand plays fast self-play games and appends their quiet positions,
// labelled with the results, to an EPD file for `squall tune`. It resumes a
// file it finds, skipping the games already there.
func datagenCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "datagen",
		Short: "Play self-play games and write labelled positions for tuning and training",
		Args:  argsBetween(0, 0, "no arguments"),
	}
	fs := cmd.Flags()
	openings := fs.String("openings", opening.Balanced, "the starting positions `FILE`, EPD, or \"balanced\" for the 1,000 built-in ones, either with :FROM-TO for its positions FROM to TO only")
	out := fs.String("out", "datagen.epd", "the output `FILE`, appended to and resumable: EPD (for squall tune and train); for squall train, whole games in the compact format when it ends in .sqg (about 4 bytes a position) or packed 32-byte records when it ends in .bin")
	games := minFlag(fs, "games", 1000, 1, "`N` games to play in all (game ids 0 … N-1)")
	nodes := minFlag(fs, "nodes", uint64(5000), 1, "`N` nodes per move")
	threads := minFlag(fs, "threads", 2, 1, "`N` games played at once")
	random := minFlag(fs, "random-plies", 2, 0, "`N` random moves after the opening position, for variety")
	maxPlies := minFlag(fs, "max-plies", 400, 1, "adjudicate a draw after `N` plies")
	seed := fs.Int64("seed", 1, "random `SEED` (game N uses SEED+N)")
	var ef spec.Flags
	ef.Register(fs, "the engine that plays the games")
	external := fs.String("uci", "", "an external UCI engine `CMD` (as --engine)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if *external != "" {
			if ef.Given() > 0 {
				return errors.New("give the engine with --engine or with --uci, not both")
			}
			if err := ef.AddCommand(*external); err != nil {
				return err
			}
		}
		sp, err := ef.Spec(spec.Builtin)
		if err != nil {
			return err
		}
		// One game per engine, each single-threaded: games run in parallel
		// instead. A small table suits the tiny node budget (for the built-in
		// engine; an external one keeps its own).
		defaults := spec.Int("Threads", 1)
		if sp.IsBuiltin() {
			defaults = append(defaults, spec.Int("Hash", 8)...)
		}
		probe, err := sp.Open(context.Background(), defaults...) // a bad command or option stops here, not in every game
		if err != nil {
			return err
		}
		probe.Close()
		starts, err := opening.LoadStarts(*openings)
		if err != nil {
			return err
		}
		format := dataFormat(*out)
		done, err := datagenDone(*out, format, stderr)
		if err != nil {
			return fmt.Errorf("resume %s: %w", *out, err)
		}
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		todo := *games - len(done)
		t0 := time.Now()
		var encode func(*tune.PlayedGame) []byte // EPD
		switch format {
		case formatPacked:
			encode = packGame
		case formatGames:
			encode = compactGame
		}
		d := &tune.Datagen{
			Encode:   encode,
			Openings: starts, Games: *games, Nodes: *nodes, Threads: *threads, RandomPlies: *random,
			MaxPlies: *maxPlies, Seed: *seed, Done: done,
			Progress: func(g, p int) {
				const width = 30
				fill := width * g / max(todo, 1)
				el := time.Since(t0)
				rate := float64(p) / el.Seconds()
				eta := time.Duration(float64(el) / float64(g) * float64(todo-g)).Round(time.Minute)
				fmt.Fprintf(stderr, "\r[%s%s] %d/%d %s, %s, %.0f pos/s, ETA %v ", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), g, todo, plural.Noun(todo, "game"), plural.Count(p, "position"), rate, eta)
			},
		}
		fmt.Fprintf(stdout, "%s to play (%d already in %s)\n", plural.Count(todo, "game"), len(done), *out)
		newEngine := func() (engine.Analyzer, error) { return sp.Open(ctx, defaults...) }
		err = d.Run(ctx, newEngine, f)
		fmt.Fprintln(stderr)
		if err != nil {
			return err
		}
		return f.Sync()
	}
	return cmd
}

// datagenDone lists the games already in an output file. A packed file
// whose last record was cut short (a run killed mid-write) is truncated to
// its whole records first, so that the next records line up: each game is
// written as one block, and a block cut short costs only that game.
func datagenDone(path string, format dataFormatKind, stderr io.Writer) (map[int]bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	done := map[int]bool{}
	var whole int64 // the bytes of whole records or games
	var tail int
	switch format {
	case formatEPD:
		return tune.ReadDone(f)
	case formatPacked:
		var ps []train.Position
		if ps, tail, err = train.ReadRecords(f); err != nil {
			return nil, err
		}
		for _, p := range ps {
			done[int(p.Game)] = true
		}
		whole = int64(len(ps)) * train.RecordSize
	case formatGames:
		tail, err = train.ReadGames(f, func(g *train.GameRecord) error {
			done[g.ID] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		whole = fi.Size() - int64(tail)
	}
	if tail > 0 {
		fmt.Fprintf(stderr, "%s: %s of a record cut short dropped\n", path, plural.Count(tail, "byte"))
		if err := os.Truncate(path, whole); err != nil {
			return nil, err
		}
	}
	return done, nil
}

// dataFormatKind is a data file's format, told by its name's extension.
type dataFormatKind int

const (
	formatEPD    dataFormatKind = iota // datagen's EPD (ce and c9 opcodes)
	formatPacked                       // .bin: packed 32-byte positions
	formatGames                        // .sqg: whole games, the compact format
)

func dataFormat(path string) dataFormatKind {
	switch {
	case strings.HasSuffix(path, ".bin"):
		return formatPacked
	case strings.HasSuffix(path, ".sqg"):
		return formatGames
	}
	return formatEPD
}

// compactGame encodes a game in the compact format (engine/nnue/train).
func compactGame(g *tune.PlayedGame) []byte {
	return train.AppendGame(nil, &train.GameRecord{ID: g.ID, Start: g.Start, Result: g.Result.Score(chess.White), Plies: g.Plies})
}

// packGame encodes a game as packed records (engine/nnue/train).
func packGame(g *tune.PlayedGame) []byte {
	result := g.Result.Score(chess.White)
	ps := make([]train.Position, len(g.Positions))
	for i, l := range g.Positions {
		ps[i] = train.Pack(l.Position, l.Score, result, g.ID)
	}
	var b bytes.Buffer
	_ = train.WriteRecords(&b, ps)
	return b.Bytes()
}
