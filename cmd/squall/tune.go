package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/engine/tune"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/internal/plural"
)

// tuneCommand fits the evaluation weights to labelled positions (Texel's
// method) and writes them as the generated Go file engine/eval compiles in.
func tuneCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tune --data FILE",
		Short: "Fit the evaluation weights to game results (Texel tuning)",
		Args:  argsBetween(0, 0, "no arguments"),
	}
	fs := cmd.Flags()
	data := fs.String("data", "", "an EPD `FILE` from squall datagen: positions labelled c9 \"1-0\" / \"0-1\" / \"1/2-1/2\"")
	epochs := minFlag(fs, "epochs", 400, 0, "`N` full-batch Adam steps")
	rate := fs.Float64("rate", 1, "Adam step size `CENTIPAWNS`")
	l2 := minFlag(fs, "l2", 0.0, 0, "pull `L2` towards the seed weights: penalty l2·(w−seed)² per weight")
	lambda := new(float64)
	rangeVar(fs, lambda, "lambda", 1, 0, 1, "weight `W`, 0–1, of the game result in the target; the rest is the search score (ce) where the data has one")
	out := fs.String("out", "engine/eval/weights_gen.go", "the generated weights `FILE` to write")
	seedOnly := fs.Bool("seed-only", false, "write the untuned seed weights (no data needed)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		stdout := cmd.OutOrStdout()
		seed := eval.SeedWeights()
		// The header records the command with the data file's base name, not
		// the path it had on one machine: docs/TUNING.md holds the recipe that
		// regenerates the data, and the size and hash say which data it was.
		cmdline := "squall tune"
		fs.Visit(func(f *pflag.Flag) { cmdline += " --" + f.Name + "=" + f.Value.String() })
		if *data != "" {
			cmdline = strings.ReplaceAll(cmdline, *data, filepath.Base(*data))
		}
		if *seedOnly {
			src, err := tune.GoSource(&seed, []string{cmdline, "Untuned seed weights (eval.SeedWeights)."})
			if err != nil {
				return err
			}
			return atomicfile.WriteFile(*out, src)
		}
		if *data == "" {
			return usagef("want --data (or --seed-only)")
		}
		f, err := os.Open(*data)
		if err != nil {
			return err
		}
		t0 := time.Now()
		h := sha256.New()
		ds, err := tune.Load(io.TeeReader(f, h), *data)
		f.Close()
		if err != nil {
			return err
		}
		dataLine := fmt.Sprintf("data: %s, sha256 %x (how it is made: docs/TUNING.md)", filepath.Base(*data), h.Sum(nil)[:8])
		fmt.Fprintf(stdout, "loaded %s (%d decided by endgame knowledge, skipped) in %v\n",
			plural.Count(len(ds.Samples), "position"), ds.Skipped, time.Since(t0).Round(time.Millisecond))
		p := tune.FromWeights(&seed)
		t1 := time.Now()
		r := ds.Tune(p, tune.Options{Epochs: *epochs, Rate: *rate, L2: *l2, Lambda: *lambda, Log: stdout, Every: max(*epochs/10, 1)})
		el := time.Since(t1)
		fmt.Fprintf(stdout, "%s in %v (%v per epoch)\n", plural.Count(*epochs, "epoch"), el.Round(time.Millisecond), (el / time.Duration(max(*epochs, 1))).Round(time.Microsecond))
		w := p.Weights()
		src, err := tune.GoSource(&w, []string{
			cmdline,
			dataLine,
			fmt.Sprintf("%s (%d training, %d validation); K = %.4f", plural.Count(len(ds.Samples), "position"), r.Train, r.Valid, r.K),
			fmt.Sprintf("MSE training (target: λ-blend) %.6f -> %.6f, validation (target: results) %.6f -> %.6f", r.TrainBefore, r.TrainAfter, r.ValidBefore, r.ValidAfter),
		})
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(*out, src); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", *out)
		return nil
	}
	return cmd
}
