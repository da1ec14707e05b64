package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/match"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/uci"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/tui/termtext"
)

// builtinEngine is the -e1/-e2 value that means Squall's own searcher,
// run in this process rather than as a UCI child.
const builtinEngine = "squall"

// optionList collects repeated "-o1 Name=Value" flags.
type optionList [][2]string

func (o *optionList) String() string { return fmt.Sprint(*o) }

func (o *optionList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("%q is not Name=Value", s)
	}
	*o = append(*o, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
	return nil
}

// runMatch plays an engine-versus-engine match and prints the score, the
// Elo difference with its 95% error and, with -sprt, the test's progress.
func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", "usage: squall match -e1 CMD|squall -e2 CMD|squall [-o1 K=V]... [-o2 K=V]... -tc 10+0.1 -games N -openings FILE -concurrency C [-sprt elo0,elo1] [-pgn OUT]", stderr)
	e1 := fs.String("e1", builtinEngine, `first engine: "squall" (built in) or a UCI command line`)
	e2 := fs.String("e2", builtinEngine, `second engine: "squall" (built in) or a UCI command line`)
	n1 := fs.String("n1", "", "name of the first engine (default: the engine's own)")
	n2 := fs.String("n2", "", "name of the second engine (default: the engine's own)")
	var o1, o2 optionList
	fs.Var(&o1, "o1", "option Name=Value for the first engine (repeatable)")
	fs.Var(&o2, "o2", "option Name=Value for the second engine (repeatable)")
	tcFlag := fs.String("tc", "10+0.1", "time control: base+increment in seconds")
	margin := fs.Duration("margin", 50*time.Millisecond, "how far an engine may overrun its clock before it loses on time")
	nodes := fs.Uint64("nodes", 0, "also limit every move to this many nodes")
	games := fs.Int("games", 100, "games to play (rounded up to whole pairs)")
	openings := fs.String("openings", "", "EPD/FEN file of openings, or \"balanced\" for the 1,000 built-in ones; each played with both colours (default: the start position)")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	maxPlies := fs.Int("maxplies", 0, "adjudicate a draw after this many plies (0 = never)")
	sprtFlag := fs.String("sprt", "", "stop early by SPRT: elo0,elo1[,alpha,beta] or elo0=…,elo1=…,alpha=…,beta=… (alpha, beta default 0.05)")
	pgnOut := fs.String("pgn", "", "write the games to this PGN file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	tc, err := match.ParseTimeControl(*tcFlag)
	if err != nil {
		return err
	}
	var sprt *match.SPRT
	if *sprtFlag != "" {
		s, err := parseSPRTFlag(*sprtFlag)
		if err != nil {
			return err
		}
		sprt = &s
	}
	starts := []*chess.Position{chess.NewPosition()}
	if *openings != "" {
		if starts, err = opening.LoadStarts(*openings); err != nil {
			return err
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p1, err := matchPlayer(ctx, *e1, *n1, o1)
	if err != nil {
		return fmt.Errorf("-e1: %w", err)
	}
	p2, err := matchPlayer(ctx, *e2, *n2, o2)
	if err != nil {
		return fmt.Errorf("-e2: %w", err)
	}
	cfg := match.Config{
		Players: [2]match.Player{p1, p2}, Openings: starts, Games: *games,
		TC: tc, Margin: *margin, Nodes: *nodes, MaxPlies: *maxPlies,
		Concurrency: *concurrency, SPRT: sprt,
	}

	t0 := time.Now()
	cfg.Progress = func(p match.Progress) {
		g := p.Game
		fmt.Fprintf(stdout, "Finished game %d/%d (%s vs %s): %s {%s}\n",
			g.Number, p.Total, termtext.SafeLine(p.Names[g.White]), termtext.SafeLine(p.Names[1-g.White]), g.Result, termtext.SafeLine(g.Detail))
		line := fmt.Sprintf("Score after %d games: %s", p.Games, wldLine(p.Stats))
		if sprt != nil {
			lo, hi := sprt.Bounds()
			line += fmt.Sprintf(", LLR %.2f (%.2f, %.2f)", p.LLR, lo, hi)
		}
		fmt.Fprintf(stdout, "%s, %.1f games/min\n", line, float64(p.Games)/time.Since(t0).Minutes())
	}
	rep, runErr := playMatch(ctx, cfg, *pgnOut)
	if rep.Stats.Games > 0 || runErr == nil {
		printMatchReport(stdout, rep, sprt)
	}
	if *pgnOut != "" && len(rep.Games) > 0 && runErr == nil {
		fmt.Fprintf(stdout, "%d games written to %s\n", len(rep.Games), *pgnOut)
	}
	if errors.Is(runErr, context.Canceled) {
		return errors.New("interrupted")
	}
	return runErr
}

// matchPlayer makes a Player for an -e flag: the built-in searcher in
// process, or a UCI engine started from the command line.
func matchPlayer(ctx context.Context, cmd, name string, opts optionList) (match.Player, error) {
	if strings.TrimSpace(cmd) == builtinEngine {
		return match.Player{Name: name, New: func() (engine.Analyzer, error) {
			return applyOptions(search.New(), opts)
		}}, nil
	}
	path, args, err := uci.ParseCommand(cmd)
	if err != nil {
		return match.Player{}, err
	}
	return uciPlayer(ctx, path, args, name, opts), nil
}

// uciPlayer makes a Player that starts the UCI engine path with args and
// sets opts on it.
func uciPlayer(ctx context.Context, path string, args []string, name string, opts optionList) match.Player {
	return match.Player{Name: name, New: func() (engine.Analyzer, error) {
		c, err := uci.Start(ctx, uci.Config{Path: path, Args: args})
		if err != nil {
			return nil, err
		}
		return applyOptions(c, opts)
	}}
}

// applyOptions sets opts on a fresh engine, closing it if one is refused.
func applyOptions(a engine.Analyzer, opts optionList) (engine.Analyzer, error) {
	for _, o := range opts {
		if err := a.SetOption(o[0], o[1]); err != nil {
			a.Close()
			return nil, fmt.Errorf("option %s=%s: %w", o[0], o[1], err)
		}
	}
	return a, nil
}

// parseSPRTFlag reads "elo0,elo1[,alpha,beta]" or ParseSPRT's key=value
// form.
func parseSPRTFlag(s string) (match.SPRT, error) {
	if strings.Contains(s, "=") {
		return match.ParseSPRT(s)
	}
	keys := []string{"elo0", "elo1", "alpha", "beta"}
	fs := strings.Split(s, ",")
	if len(fs) != 2 && len(fs) != 4 {
		return match.SPRT{}, fmt.Errorf("sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", s)
	}
	kv := make([]string, len(fs))
	for i, f := range fs {
		kv[i] = keys[i] + "=" + strings.TrimSpace(f)
	}
	return match.ParseSPRT(strings.Join(kv, ","))
}

// wldLine is "W - L - D [score] N".
func wldLine(s match.Stats) string {
	return fmt.Sprintf("%d - %d - %d [%.3f] %d", s.Wins, s.Losses, s.Draws, s.Score(), s.Games)
}

// printMatchReport prints the final summary in the shape cutechess and
// fastchess use, then any incidents.
func printMatchReport(w io.Writer, rep *match.Report, sprt *match.SPRT) {
	if rep == nil || rep.Stats.Games == 0 {
		fmt.Fprintln(w, "No games finished.")
		return
	}
	fmt.Fprintf(w, "\nScore of %s vs %s: %s\n", termtext.SafeLine(rep.Names[0]), termtext.SafeLine(rep.Names[1]), wldLine(rep.Stats))
	elo, e := rep.Pairs.Elo()
	if rep.Pairs.Pairs() < 2 {
		// One pair (or none) says nothing about the spread.
		elo, e = match.EloFromScore(rep.Score()), math.Inf(1)
	}
	fmt.Fprintf(w, "Elo difference: %s +/- %s\n", fmtElo(elo), fmtElo(e))
	p := rep.Pairs
	fmt.Fprintf(w, "Pairs (LL, LD, DD+WL, WD, WW): %d, %d, %d, %d, %d\n", p[0], p[1], p[2], p[3], p[4])
	if sprt != nil {
		lo, hi := sprt.Bounds()
		verdict := rep.Verdict
		if verdict == "" {
			verdict = "undecided"
		}
		fmt.Fprintf(w, "SPRT [%g, %g] alpha %g beta %g: LLR %.2f (%.2f, %.2f): %s\n",
			sprt.Elo0, sprt.Elo1, sprt.Alpha, sprt.Beta, rep.LLR, lo, hi, verdict)
	}
	counts := map[match.Termination]int{}
	for _, in := range rep.Incidents {
		counts[in.Kind]++
	}
	fmt.Fprintf(w, "Incidents: %d time losses, %d illegal moves, %d engine failures\n",
		counts[match.TimeForfeit], counts[match.IllegalMove], counts[match.EngineFailure])
	for _, in := range rep.Incidents {
		fmt.Fprintf(w, "  %s\n", termtext.SafeLine(in.String()))
	}
}

// fmtElo prints an Elo figure with one decimal, or "inf" for a sweep.
func fmtElo(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		if x < 0 {
			return "-inf"
		}
		return "inf"
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// playMatch runs cfg and, when pgnPath is set, writes the games there as
// they finish. They go to a new version of the file that replaces the old
// one only when the run ends with at least one game, so an interrupted run
// keeps the games it finished and a run that played none leaves an
// existing file alone.
func playMatch(ctx context.Context, cfg match.Config, pgnPath string) (*match.Report, error) {
	if pgnPath == "" {
		return match.Run(ctx, cfg)
	}
	f, err := atomicfile.Create(pgnPath)
	if err != nil {
		return &match.Report{}, err
	}
	defer f.Discard()
	cfg.PGN = f
	rep, err := match.Run(ctx, cfg)
	if len(rep.Games) > 0 {
		err = errors.Join(err, f.Commit())
	}
	return rep, err
}
