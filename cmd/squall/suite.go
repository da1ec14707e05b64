package main

import (
	"context"
	"errors"

	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/epd"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui"
	"github.com/squall-chess/squall/tui/suiteview"
	"github.com/squall-chess/squall/tui/view"
)

// searchFlags choose the engine and the limits of each position's search,
// for the commands that search positions one by one (suite, review).
type searchFlags struct {
	movetime time.Duration
	depth    int
	nodes    uint64
	threads  int
	hash     int
	engine   spec.Flags
	// defaultMoveTime is the limit when no flag gives one.
	defaultMoveTime time.Duration
}

// add defines the flags on fs, with the time per position when no limit is
// given.
func (f *searchFlags) add(fs *pflag.FlagSet, defaultMoveTime time.Duration) {
	f.defaultMoveTime = defaultMoveTime
	durationVar(fs, &f.movetime, "movetime", 0, fmt.Sprintf("time per position (default %v when no limit is given)", defaultMoveTime))
	// Each refuses a value outside its range, saying the range (0 for
	// --threads or --hash was ignored in silence).
	minVar(fs, &f.depth, "depth", 0, 1, "search each position to depth `N`")
	minVar(fs, &f.nodes, "nodes", 0, 1, "search each position for `N` nodes")
	minVar(fs, &f.threads, "threads", 1, 1, "`N` search threads")
	minVar(fs, &f.hash, "hash", 0, 1, "hash table size in `MB` (default: the engine's)")
	f.engine.Register(fs, "the engine (default squall)")
}

// suiteFlags are the options of `squall suite`.
type suiteFlags struct {
	searchFlags
	out     string
	compare string
	tui     bool
}

// suiteCommand runs an EPD test suite headless and prints `solved X/N`.
func suiteCommand() *cobra.Command {
	var f suiteFlags
	cmd := &cobra.Command{
		Use:   "suite NAME|FILE.epd",
		Short: "Run a test suite (wac, ecm, wcsac, bk or an EPD file) and report solved X/N",
		Args:  argsBetween(1, 1, "one suite name or EPD file"),
	}
	fs := cmd.Flags()
	f.add(fs, time.Second)
	fs.StringVar(&f.out, "out", "", "write results to the .json or .csv `FILE`")
	fs.StringVar(&f.compare, "compare", "", "list positions newly solved or failed since the earlier .json `FILE`")
	fs.BoolVar(&f.tui, "tui", false, "open the suite runner view instead of running headless")
	cmd.RunE = func(cmd *cobra.Command, rest []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		lim, err := f.limits()
		if err != nil {
			return err
		}
		suite, err := epd.Load(rest[0])
		if err != nil {
			return err
		}
		for _, e := range suite.Errors {
			fmt.Fprintf(stderr, "%s: %v\n", suite.Name, e)
		}
		if len(suite.Records) == 0 {
			return fmt.Errorf("%s: no positions", suite.Name)
		}
		var earlier *epd.Results
		if f.compare != "" {
			if earlier, err = epd.LoadResults(f.compare); err != nil {
				return err
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		a, err := openAnalyzer(ctx, &f.searchFlags)
		if err != nil {
			return err
		}
		defer a.Close()
		if f.tui {
			start := time.Now()
			out, err := runSuiteTUI(suite, a, lim, f.out)
			if err != nil {
				return err
			}
			// The score stays on the terminal after the view closes.
			if err := report(stdout, suite, a.Name(), lim, out, earlier, f.out, time.Since(start)); err != nil {
				return err
			}
			return suiteIncomplete(len(out), len(suite.Records))
		}

		tty := isTerminal(stdout)
		n := len(suite.Records)
		solved := 0
		fmt.Fprintf(stdout, "%s: %s, %s, %s\n", suite.Name, plural.Count(n, "position"), a.Name(), lim.String())
		start := time.Now()
		out := epd.Run(ctx, a, suite.Records, lim, func(o epd.Outcome) {
			if o.Solved {
				solved++
			}
			if tty {
				fmt.Fprint(stdout, "\r\x1b[K")
			}
			if !o.Solved {
				fmt.Fprintln(stdout, failureLine(o))
			} else if !tty {
				fmt.Fprintf(stdout, "ok   %-10s %-7s %7s  depth %2d  %.2fs\n", label(o), o.Move, o.Score, o.Depth, time.Duration(o.SolveTime).Seconds())
			}
			if tty {
				fmt.Fprint(stdout, progressBar(o.Index+1, n, solved, 30))
			}
		})
		if tty {
			fmt.Fprint(stdout, "\r\x1b[K")
		}
		if err := report(stdout, suite, a.Name(), lim, out, earlier, f.out, time.Since(start)); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return errors.New("interrupted")
		}
		return nil
	}
	return cmd
}

// suiteIncomplete is the error of a run that ended (the view quit, Ctrl-C)
// before every position was searched: a script must not take a partial
// score for the suite's.
func suiteIncomplete(done, total int) error {
	if done < total {
		return fmt.Errorf("interrupted after %d of %s", done, plural.Count(total, "position"))
	}
	return nil
}

// report prints the score of a run (out holds the positions run, in
// order), the comparison with an earlier run, and saves the results when
// asked to.
func report(stdout io.Writer, suite *epd.Suite, engineName string, lim engine.Limits, out []epd.Outcome,
	earlier *epd.Results, path string, took time.Duration) error {
	n := len(suite.Records)
	sum := epd.Summarize(out)
	line := fmt.Sprintf("solved %d/%d", sum.Solved, sum.Total)
	if sum.MaxPoints > 0 {
		line += fmt.Sprintf(", points %d/%d", sum.Points, sum.MaxPoints)
	}
	if sum.Total < n {
		line += fmt.Sprintf(" (interrupted after %d of %d)", sum.Total, n)
	}
	fmt.Fprintf(stdout, "%s  [%s, %.0fs]\n", line, engineName, took.Seconds())

	res := &epd.Results{Suite: suite.Name, Engine: engineName, Limits: lim.String(), Date: time.Now().UTC(),
		Solved: sum.Solved, Total: sum.Total, Points: sum.Points, Outcomes: out}
	if earlier != nil {
		printComparison(stdout, earlier, out)
	}
	if path != "" && len(out) > 0 {
		if err := res.Save(path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "results written to %s\n", path)
	}
	return nil
}

// limits are the limits of each position's search: the one flag given, or
// the default time per position.
func (f searchFlags) limits() (engine.Limits, error) {
	set := 0
	for _, on := range []bool{f.movetime != 0, f.depth != 0, f.nodes != 0} {
		if on {
			set++
		}
	}
	switch {
	case set > 1:
		return engine.Limits{}, errors.New("give one of --movetime, --depth, --nodes")
	case f.movetime < 0:
		return engine.Limits{}, fmt.Errorf("--movetime %v: out of range: more than 0s", f.movetime)
	case set == 0:
		return engine.Limits{MoveTime: f.defaultMoveTime}, nil
	}
	return engine.Limits{MoveTime: f.movetime, Depth: f.depth, Nodes: f.nodes}, nil
}

// openAnalyzer starts the engine the flags ask for, with --threads and
// --hash before its --option settings.
func openAnalyzer(ctx context.Context, f *searchFlags) (engine.Analyzer, error) {
	sp, err := f.engine.Spec(spec.Builtin)
	if err != nil {
		return nil, err
	}
	return sp.Open(ctx, append(spec.Int("Threads", f.threads), spec.Int("Hash", f.hash)...)...)
}

func label(o epd.Outcome) string {
	if o.ID != "" {
		return o.ID
	}
	return "#" + strconv.Itoa(o.Index+1)
}

// failureLine is one line per failed position.
func failureLine(o epd.Outcome) string {
	if o.Error != "" {
		return fmt.Sprintf("FAIL %-10s error: %s", label(o), o.Error)
	}
	want := "bm " + strings.Join(o.Expected, " ")
	if len(o.Expected) == 0 {
		want = "am " + strings.Join(o.Avoid, " ")
	}
	mv := o.Move
	if mv == "" {
		mv = "(none)"
	}
	s := fmt.Sprintf("FAIL %-10s %-7s %7s  depth %2d  want %s", label(o), mv, o.Score, o.Depth, want)
	if o.MaxPoints > 0 {
		s += fmt.Sprintf("  points %d/%d", o.Points, o.MaxPoints)
	}
	return s
}

func progressBar(done, total, solved, width int) string {
	fill := done * width / total
	return fmt.Sprintf("[%s%s] %d/%d  solved %d", strings.Repeat("█", fill), strings.Repeat("░", width-fill), done, total, solved)
}

func printComparison(w io.Writer, earlier *epd.Results, now []epd.Outcome) {
	solved, failed := epd.Compare(earlier.Outcomes, now)
	fmt.Fprintf(w, "compared with %s (%s, %d/%d): %d newly solved, %d newly failed\n",
		earlier.Engine, earlier.Limits, earlier.Solved, earlier.Total, len(solved), len(failed))
	for _, c := range solved {
		fmt.Fprintf(w, "  + %-10s %s (was %s)\n", c.Key, c.Now.Move, orNone(c.Before.Move))
	}
	for _, c := range failed {
		fmt.Fprintf(w, "  - %-10s %s (was %s)\n", c.Key, orNone(c.Now.Move), c.Before.Move)
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// runSuiteTUI runs the suite in the suite view, every position queued as
// it opens, drawn with the board's configured theme. It returns the
// outcomes of the positions that finished, in suite order (the last run of
// a position run twice).
func runSuiteTUI(s *epd.Suite, a engine.Analyzer, lim engine.Limits, out string) ([]epd.Outcome, error) {
	cfgDir := tui.ConfigDir()
	set, _ := tui.LoadSettings(filepath.Join(cfgDir, "config.toml")) // a bad config leaves the defaults
	userThemes, _ := themes.LoadDir(filepath.Join(cfgDir, "themes"))
	r, th, _, err := terminalLook(set.Theme, userThemes)
	if err != nil {
		r, th, _, _ = terminalLook(themes.Default, nil)
	}
	done := make(map[int]epd.Outcome)
	runner := live.New(a)
	defer runner.Close()
	v := suiteview.New(view.Env{Renderer: r, Theme: th, Runner: runner},
		suiteview.Options{Name: s.Name, Records: s.Records, Limits: lim, Out: out, AutoRun: true,
			Finished: func(o epd.Outcome) { done[o.Index] = o }})
	vp := view.NewProgram(v)
	_, err = tea.NewProgram(vp, tea.WithAltScreen()).Run()
	vp.Close() // the search stops before the engine closes
	outs := make([]epd.Outcome, 0, len(done))
	for i := range s.Records {
		if o, ok := done[i]; ok {
			outs = append(outs, o)
		}
	}
	return outs, err
}
