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

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/match"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/referee"
	"github.com/squall-chess/squall/termtext"
)

// matchCommand plays an engine-versus-engine match and prints the score, the
// Elo difference with its 95% error and, with --sprt, the test's progress.
func matchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "match",
		Short: "Play an engine-versus-engine match (built-in or UCI engines) with Elo and SPRT",
		Args:  argsBetween(0, 0, "no arguments"),
	}
	fs := cmd.Flags()
	var ef spec.Flags
	ef.RegisterEngines(fs, "the engines, first then second")
	n1 := fs.String("n1", "", "the first engine's `NAME` (default: the engine's own)")
	n2 := fs.String("n2", "", "the second engine's `NAME` (default: the engine's own)")
	tcFlag := fs.String("tc", "10+0.1", "time control `TC`: base+increment in seconds")
	margin := durationFlag(fs, "margin", 50*time.Millisecond, "how far an engine may overrun its clock before it loses on time")
	nodes := fs.Uint64("nodes", 0, "also limit every move to `N` nodes")
	games := minFlag(fs, "games", 100, 1, "`N` games to play (rounded up to whole pairs)")
	openings := fs.String("openings", "", "the openings `FILE`, EPD or FEN, or \"balanced\" for the 1,000 built-in ones, either with :FROM-TO for its openings FROM to TO only (balanced:201-400); each played with both colours (default: the start position)")
	concurrency := minFlag(fs, "concurrency", 1, 1, "`N` games played at once")
	maxPlies := minFlag(fs, "maxplies", 0, 0, "adjudicate a draw after `N` plies (0 = never)")
	sprtFlag := fs.String("sprt", "", "stop early by the SPRT `TEST`: elo0,elo1[,alpha,beta] or elo0=…,elo1=…,alpha=…,beta=… (alpha, beta default 0.05)")
	pgnOut := fs.String("pgn", "", "write the games to the PGN file `FILE`")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		stdout := cmd.OutOrStdout()
		tc, err := clock.ParseSeconds(*tcFlag)
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
		specs, err := ef.Specs(2, spec.Builtin, spec.Builtin)
		if err != nil {
			return err
		}
		p1, err := matchPlayer(ctx, specs[0], *n1)
		if err != nil {
			return fmt.Errorf("engine 1: %w", err)
		}
		p2, err := matchPlayer(ctx, specs[1], *n2)
		if err != nil {
			return fmt.Errorf("engine 2: %w", err)
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
			line := fmt.Sprintf("Score after %s: %s", plural.Count(p.Games, "game"), wldLine(p.Stats))
			if sprt != nil {
				lo, hi := sprt.Bounds()
				line += fmt.Sprintf(", LLR %.2f (%.2f, %.2f)", p.LLR, lo, hi)
			}
			fmt.Fprintf(stdout, "%s, %.1f games/min\n", line, float64(p.Games)/time.Since(t0).Minutes())
		}
		rep, runErr := playMatch(ctx, cfg, *pgnOut, "")
		if rep.Stats.Games > 0 || runErr == nil {
			printMatchReport(stdout, rep, sprt)
		}
		if *pgnOut != "" && len(rep.Games) > 0 && runErr == nil {
			fmt.Fprintf(stdout, "%s written to %s\n", plural.Count(len(rep.Games), "game"), *pgnOut)
		}
		if errors.Is(runErr, context.Canceled) {
			return errors.New("interrupted")
		}
		return runErr
	}
	return cmd
}

// matchPlayer makes a Player that opens s for each game. The engine is
// opened once here first, so that a command that does not start or an
// option it refuses is an error before the match, not a lost game.
func matchPlayer(ctx context.Context, s spec.Spec, name string) (match.Player, error) {
	a, err := s.Open(ctx)
	if err != nil {
		return match.Player{}, err
	}
	a.Close()
	return match.Player{Name: name, New: func() (engine.Analyzer, error) { return s.Open(ctx) }}, nil
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
	counts := map[referee.Termination]int{}
	for _, in := range rep.Incidents {
		counts[in.Kind]++
	}
	fmt.Fprintf(w, "Incidents: %s, %s, %s\n", plural.Count(counts[referee.TimeForfeit], "time loss"),
		plural.Count(counts[referee.IllegalMove], "illegal move"), plural.Count(counts[referee.EngineFailure], "engine failure"))
	for _, in := range rep.Incidents {
		fmt.Fprintf(w, "  %s\n", termtext.SafeLine(in.String()))
	}
}

// fmtElo prints an Elo figure with one decimal, or "inf" for a sweep;
// an even score is 0.0, not -0.0.
func fmtElo(x float64) string {
	if x == 0 {
		return "0.0"
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		if x < 0 {
			return "-inf"
		}
		return "inf"
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// playMatch runs cfg and, when pgnPath is set, writes the games there as
// they finish (writeMatchGame, with event as their Event tag). They go to a new version of the file that replaces the old
// one only when the run ends with at least one game, so an interrupted run
// keeps the games it finished and a run that played none leaves an
// existing file alone.
func playMatch(ctx context.Context, cfg match.Config, pgnPath, event string) (*match.Report, error) {
	if pgnPath == "" {
		return match.Run(ctx, cfg)
	}
	f, err := atomicfile.Create(pgnPath)
	if err != nil {
		return &match.Report{}, err
	}
	defer f.Discard()
	cfg.Finished = func(g *match.Game, names [2]string) error {
		if err := writeMatchGame(f, g, names, event, cfg.TC); err != nil {
			return fmt.Errorf("write %s: %w", pgnPath, err)
		}
		return nil
	}
	rep, err := match.Run(ctx, cfg)
	if len(rep.Games) > 0 {
		err = errors.Join(err, f.Commit())
	}
	return rep, err
}
