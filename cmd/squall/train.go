package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/nnue"
	"github.com/squall-chess/squall/engine/nnue/train"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/termtext"
)

// trainCommand fits the evaluation network to self-play positions (squall
// datagen's EPD, or the packed binary format) and writes the quantised
// network. With --checkpoint the trainer's state is saved after every
// epoch and a run started again continues from it.
func trainCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train --data FILES --out NET.sqnn",
		Short: "Train the evaluation network on self-play positions",
		Args:  argsBetween(0, 0, "no arguments"),
	}
	fs := cmd.Flags()
	data := fs.String("data", "", "data `FILES`, comma-separated: datagen's EPD (ce and c9 opcodes), whole games (*.sqg) or packed records (*.bin)")
	out := fs.String("out", "", "the network `FILE` to write (the SQNN format of engine/nnue)")
	epochs := minFlag(fs, "epochs", 10, 0, "`N` epochs in all (a resumed run counts those done; 0 writes the --init network back)")
	lr := fs.Float64("lr", 0.001, "Adam's learning `RATE`")
	lrDrop := minFlag(fs, "lr-drop", 0, 0, "from epoch `N` (counted from 0) on, a tenth of --lr (0: never)")
	lambda := new(float64)
	rangeVar(fs, lambda, "lambda", 0.25, 0, 1, "weight `W`, 0–1, of the game result in the target; the rest is the search score (0: scores only, 1: results only)")
	wdlScale := fs.Float64("wdl-scale", 0, "one unit of the logistic that turns scores into win probabilities, in `CENTIPAWNS` (0: fitted to the training data's results)")
	mirror := fs.Bool("mirror", true, "train on each position or its left-right mirror image, one at random each epoch")
	batch := minFlag(fs, "batch", 16384, 1, "`N` positions per Adam step")
	threads := minFlag(fs, "threads", runtime.NumCPU(), 1, "`N` workers per batch")
	seed := fs.Uint64("seed", 1, "random `SEED` of the initial weights and of each epoch's order")
	ckPath := fs.String("checkpoint", "", "the trainer state `FILE`, saved after each epoch and resumed from if it exists")
	initPath := fs.String("init", "", "start from the weights of the network `FILE` (an earlier round's) instead of random ones; a checkpoint that exists wins")
	hidden := minFlag(fs, "hidden", 256, nnue.HiddenStep, "hidden width `N` of a new network: a multiple of 16 up to 512 (--init: the network's, or wider)")
	buckets := minFlag(fs, "buckets", 1, 1, "`N` output buckets of a new network, by material: 1, 2, 4, 8, 16 or 32 (--init: the network's)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if *data == "" || *out == "" {
			return usagef("want --data and --out")
		}
		var ps []train.Position
		for _, path := range strings.Split(*data, ",") {
			got, err := readTrainingData(path, stderr)
			if err != nil {
				return err
			}
			ps = append(ps, got...)
		}
		tr, valid := train.Split(ps, 10)
		fmt.Fprintf(stdout, "%s: %d to train on, %d held out (every 10th game)\n", plural.Count(len(ps), "position"), len(tr), len(valid))
		if len(tr) == 0 || len(valid) == 0 {
			return errors.New("too little data to train and validate on")
		}

		scale := *wdlScale
		if scale == 0 {
			scale = train.FitScale(tr)
			fmt.Fprintf(stdout, "WDL scale %.0f: fitted to the training games' results\n", scale)
		} else if scale < 0 {
			return usagef("--wdl-scale %v: want a positive number of centipawns", scale)
		}
		opt := train.Options{Lambda: *lambda, WDLScale: scale, Mirror: *mirror, LR: *lr, LRDrop: *lrDrop, BatchSize: *batch, Threads: *threads, Seed: *seed}
		if _, err := nnue.NewNet(*hidden, *buckets); err != nil || 32%*buckets != 0 {
			return usagef("--hidden %d --buckets %d: want a multiple of %d up to %d, and a divisor of 32", *hidden, *buckets, nnue.HiddenStep, nnue.MaxHidden)
		}
		model := train.NewModel(*hidden, *buckets, *seed)
		var initQB int32 // the --init network's output scale
		if *initPath != "" {
			data, err := os.ReadFile(*initPath)
			if err != nil {
				return err
			}
			net, err := nnue.Parse(data)
			if err != nil {
				return fmt.Errorf("%s: %w", *initPath, err)
			}
			model = train.FromNet(net)
			initQB = net.QB
			// Its shape, unless --hidden or --buckets ask otherwise: then
			// it is widened (new hidden units that start silent) and its
			// one bucket split into several; neither changes its scores.
			if !cmd.Flags().Changed("hidden") {
				*hidden = net.Hidden
			}
			if !cmd.Flags().Changed("buckets") {
				*buckets = net.Buckets
			}
			if net.Hidden > *hidden || (net.Buckets != *buckets && net.Buckets != 1) {
				return usagef("--init %s is %d wide with %d output buckets: it cannot start --hidden %d --buckets %d", termtext.SafeLine(*initPath), net.Hidden, net.Buckets, *hidden, *buckets)
			}
			if *buckets != net.Buckets {
				if model, err = model.SplitBuckets(*buckets); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "its output layer split into %d buckets\n", *buckets)
			}
			if *hidden != net.Hidden {
				if model, err = model.Widen(*hidden, *seed); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "widened from %d to %d hidden units, the new ones silent\n", net.Hidden, *hidden)
			}
			fmt.Fprintf(stdout, "starting from the weights of %s\n", termtext.SafeLine(*initPath))
		}
		t := train.New(model, opt)
		if *ckPath != "" {
			if f, err := os.Open(*ckPath); err == nil {
				t, err = train.Load(f)
				f.Close()
				if err != nil {
					return fmt.Errorf("%s: %w", *ckPath, err)
				}
				t.Opt.Threads = *threads // the machine's, not the saved one's
				t.Opt.LRDrop = *lrDrop   // the schedule as given now
				t.Opt.Mirror = *mirror
				fmt.Fprintf(stdout, "resumed from %s after %s (WDL scale %.0f, as saved)\n", termtext.SafeLine(*ckPath), plural.Count(t.Epochs, "epoch"), t.Opt.WDLScale)
			} else if !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		fmt.Fprintf(stdout, "epoch %d: held-out loss %.6f\n", t.Epochs, t.Loss(valid))
		for t.Epochs < *epochs {
			t0 := time.Now()
			loss := t.Epoch(tr)
			el := time.Since(t0)
			rate := float64(len(tr)) / el.Seconds()
			eta := time.Duration(float64(*epochs-t.Epochs) * float64(el))
			fmt.Fprintf(stdout, "epoch %d: training loss %.6f, held-out loss %.6f, %.0f positions/s, ETA %v\n",
				t.Epochs, loss, t.Loss(valid), rate, eta.Round(time.Second))
			if *ckPath != "" {
				var b bytes.Buffer
				if err := t.Save(&b); err != nil {
					return err
				}
				if err := atomicfile.WriteFile(*ckPath, b.Bytes()); err != nil {
					return err
				}
			}
		}
		// The output scale whose rounding (and clipping) costs least on
		// the held-out games: the quantised weights' loss (in float, so
		// without the integer evaluation's truncations) against the model's.
		// Trained for no epoch, the --init network is written back at its
		// own scale, exactly (widened or split, with the same scores).
		var (
			net   *nnue.Net
			qLoss float64
			err   error
		)
		if t.Epochs == 0 && initQB != 0 {
			net, qLoss, err = t.QuantiseAt(initQB, valid)
		} else {
			net, qLoss, err = t.QuantiseBest(valid)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "quantised (QB %d): held-out loss %.6f, the float model's %.6f\n", net.QB, qLoss, t.Loss(valid))
		var b bytes.Buffer
		if err := net.Write(&b); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(*out, b.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "network written to %s (%s)\n", termtext.SafeLine(*out), plural.Count(b.Len(), "byte"))
		return nil
	}
	return cmd
}

// readTrainingData reads one data file: whole games in the compact format
// by the .sqg extension, packed records by .bin, else datagen's EPD.
func readTrainingData(path string, stderr io.Writer) ([]train.Position, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	switch dataFormat(path) {
	case formatGames:
		ps, tail, err := train.ReadGamePositions(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if tail > 0 {
			fmt.Fprintf(stderr, "%s: %s of a game cut short at the end left out\n", termtext.SafeLine(path), plural.Count(tail, "byte"))
		}
		return ps, nil
	case formatPacked:
		ps, tail, err := train.ReadRecords(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if tail > 0 {
			fmt.Fprintf(stderr, "%s: %s of a partial record at the end left out\n", termtext.SafeLine(path), plural.Count(tail, "byte"))
		}
		return ps, nil
	}
	ps, skipped, err := train.ReadEPD(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if skipped > 0 {
		fmt.Fprintf(stderr, "%s: %s without a score and a result left out\n", termtext.SafeLine(path), plural.Count(skipped, "position"))
	}
	return ps, nil
}
