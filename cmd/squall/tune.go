package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/tune"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/internal/plural"
)

// tuneCommand fits the evaluation weights to labelled positions (Texel's
// method) and writes them as the generated Go file engine/eval compiles in;
// with --spsa it tunes the search's constants by games instead.
func tuneCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tune --data FILE | --spsa --state FILE",
		Short: "Tune the evaluation weights (Texel, --data) or the search's constants (SPSA, --spsa)",
		Long: "With --data, fits the evaluation weights to game results (Texel's method) and writes them as\n" +
			"the Go file engine/eval compiles in.\n\n" +
			"With --spsa, plays the built-in engine with its search constants nudged up against itself\n" +
			"with them nudged down, and moves them by the results (SPSA). The state file holds the\n" +
			"values and the games and is rewritten after every iteration: a run stopped at any moment\n" +
			"resumes where it was, on any machine. --print shows the values as a confirming match.\n" +
			"See docs/TUNING.md.",
		Args: argsBetween(0, 0, "no arguments"),
	}
	fs := cmd.Flags()
	sp := spsaFlags(fs)
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
		if err := sp.exclusive(fs, "data", "epochs", "rate", "l2", "lambda", "out", "seed-only"); err != nil {
			return err
		}
		if *sp.on {
			return sp.run(cmd.Context(), fs, stdout)
		}
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

// spsaOptions are tune --spsa's flags.
type spsaOptions struct {
	on, init, print                     *bool
	state, tc                           *string
	iterations, pairs, threads, planned *int
	nodes                               *uint64
}

// spsaOnly are the flags that mean something with --spsa only.
var spsaOnly = []string{"state", "init", "planned", "iterations", "pairs", "nodes", "tc", "threads", "print"}

func spsaFlags(fs *pflag.FlagSet) spsaOptions {
	return spsaOptions{
		on:         fs.Bool("spsa", false, "tune the search's constants by games (SPSA) instead of the evaluation"),
		state:      fs.String("state", "", "with --spsa: the state `FILE`, read at the start and rewritten after every iteration (docs/spsa/search.txt)"),
		init:       fs.Bool("init", false, "with --spsa: start a new state file from the engine's defaults (refused if FILE exists)"),
		planned:    minFlag(fs, "planned", 10000, 1, "with --init: the `N` iterations the step sizes are planned for (c_end, r_end are reached there)"),
		iterations: minFlag(fs, "iterations", 10, 0, "with --spsa: `N` iterations to add"),
		pairs:      minFlag(fs, "pairs", 2, 1, "with --spsa: `P` game pairs (an opening, colours swapped) per iteration"),
		nodes:      minFlag(fs, "nodes", uint64(6000), 1, "with --spsa: `N` nodes per move (with --tc: only if given)"),
		tc:         fs.String("tc", "", "with --spsa: play on a clock, `TC` base+increment in seconds (2+0.02), instead of at a node budget"),
		threads:    minFlag(fs, "threads", 1, 1, "with --spsa: `N` games played at once"),
		print:      fs.Bool("print", false, "with --spsa: print the state's values as the options of a confirming squall match, and play nothing"),
	}
}

// exclusive refuses Texel's flags (texel) with --spsa, and SPSA's without.
func (o spsaOptions) exclusive(fs *pflag.FlagSet, texel ...string) error {
	for _, name := range texel {
		if *o.on && fs.Changed(name) {
			return usagef("--%s is for the evaluation's tuning, not --spsa", name)
		}
	}
	for _, name := range spsaOnly {
		if !*o.on && fs.Changed(name) {
			return usagef("--%s needs --spsa", name)
		}
	}
	return nil
}

// run is tune --spsa.
func (o spsaOptions) run(ctx context.Context, fs *pflag.FlagSet, stdout io.Writer) error {
	if *o.state == "" {
		return usagef("--spsa wants --state FILE")
	}
	if fs.Changed("planned") && !*o.init {
		return usagef("--planned needs --init: a run's plan is in its state file")
	}
	st, err := o.load()
	if err != nil {
		return err
	}
	if *o.print {
		printSPSA(stdout, *o.state, st)
		return nil
	}
	m := tune.SPSAMatch{State: st, Openings: opening.BalancedStarts(), Pairs: *o.pairs, Nodes: *o.nodes,
		Concurrency: *o.threads, Hash: 8, MaxPlies: 400}
	if *o.tc != "" {
		if m.TC, err = clock.ParseSeconds(*o.tc); err != nil {
			return err
		}
		if !fs.Changed("nodes") {
			m.Nodes = 0
		}
	} else {
		for _, q := range st.Params {
			if search.ClockOnly(q.Name) {
				return fmt.Errorf("%s: %s acts only on a clock: tune it with --tc", *o.state, q.Name)
			}
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	fmt.Fprintf(stdout, "%s: iteration %d of %d planned, %s so far (theta+ %s)\n", *o.state, st.Iteration, st.Planned,
		plural.Count(st.Games, "game"), spsaWDL(st.Wins, st.Draws, st.Losses))
	t0 := time.Now()
	save := func(st *tune.SPSAState) error { return atomicfile.WriteFile(*o.state, st.Format()) }
	err = st.Run(ctx, *o.iterations, m.Play, save, func(p tune.Perturbation, w, d, l int) {
		var b strings.Builder
		for _, q := range st.Params {
			fmt.Fprintf(&b, " %s=%.2f", q.Name, q.Value)
		}
		fmt.Fprintf(stdout, "iteration %d: theta+ %s in %.1f s;%s\n", p.K, spsaWDL(w, d, l), time.Since(t0).Seconds(), b.String())
		t0 = time.Now()
	})
	fmt.Fprintf(stdout, "%s: iteration %d, %s (theta+ %s)\n", *o.state, st.Iteration, plural.Count(st.Games, "game"), spsaWDL(st.Wins, st.Draws, st.Losses))
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted (the state file holds every iteration finished)")
	}
	return err
}

// load reads the state file, or with --init makes a new one.
func (o spsaOptions) load() (*tune.SPSAState, error) {
	opts := search.Tunables()
	if *o.init {
		if _, err := os.Stat(*o.state); err == nil {
			return nil, fmt.Errorf("%s exists: --init starts a new run only in a new file", *o.state)
		}
		var tuned []engine.Option
		for _, opt := range opts {
			if !search.ClockOnly(opt.Name) || *o.tc != "" {
				tuned = append(tuned, opt)
			}
		}
		st, err := tune.NewSPSAState(tuned, *o.planned)
		if err != nil {
			return nil, err
		}
		return st, atomicfile.WriteFile(*o.state, st.Format())
	}
	f, err := os.Open(*o.state)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file (--init starts a new run)", *o.state)
		}
		return nil, err
	}
	defer f.Close()
	st, err := tune.ParseSPSAState(f, *o.state)
	if err != nil {
		return nil, err
	}
	if err := st.Check(opts); err != nil {
		return nil, fmt.Errorf("%s: %w", *o.state, err)
	}
	return st, nil
}

func spsaWDL(w, d, l int) string { return fmt.Sprintf("+%d =%d -%d", w, d, l) }

// printSPSA prints the state's values, rounded as the engine plays them,
// as the --option flags of the match that must confirm them (docs/TUNING.md)
// before they become the defaults: only those that differ from today's.
func printSPSA(w io.Writer, path string, st *tune.SPSAState) {
	defaults := map[string]string{}
	for _, o := range search.Tunables() {
		defaults[o.Name] = o.Default
	}
	fmt.Fprintf(w, "# %s: iteration %d, %s\n", path, st.Iteration, plural.Count(st.Games, "game"))
	var flags []string
	for i, v := range st.Rounded() {
		if q := st.Params[i]; strconv.Itoa(v) != defaults[q.Name] {
			flags = append(flags, fmt.Sprintf("--option 1:%s=%d", q.Name, v))
		}
	}
	if len(flags) == 0 {
		fmt.Fprintln(w, "# every value rounds to the engine's default: nothing to confirm")
		return
	}
	fmt.Fprintln(w, "squall match --engine squall --engine squall --tc 10+0.1 --games 400 --openings balanced --concurrency 2 --sprt 0,5 \\")
	fmt.Fprintf(w, "  %s\n", strings.Join(flags, " \\\n  "))
}
