package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/match"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/termtext"
)

// endgamesCommand tests how Squall plays endings: it draws random positions
// whose tablebase value is known and plays each out against another engine
// with Squall to move, counting the won ones converted and the drawn ones
// held.
func endgamesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "endgames --syzygy DIRS",
		Short: "Play random tablebase-labelled endings against another engine: won ones converted, drawn ones held",
		Args:  argsBetween(0, 0, "no arguments"),
	}
	fs := cmd.Flags()
	tbPath := fs.String("syzygy", "", "Syzygy table directories `DIRS` that label the positions, separated by '"+string(filepath.ListSeparator)+"'")
	noTB := fs.Bool("no-tb", false, "Squall plays without the tables (they still label the positions): a test of its search and evaluation")
	materials := fs.String("material", "", "the tables `LIST` to draw from, comma-separated, e.g. KQvK,KRvK (default: every 4-piece table, one at random per position)")
	want := fs.String("want", "win", "what Squall must do, `RESULT`: win: won positions Squall must convert; draw: drawn positions Squall, the weaker side, must hold (either way, positions where some move spoils the result)")
	count := minFlag(fs, "count", 20, 1, "`N` positions per table given with --material, or in all")
	seed := fs.Uint64("seed", 1, "random `SEED`: the same seed draws the same positions")
	moveTime := durationFlag(fs, "movetime", time.Second, "time per move for both engines")
	nodes := fs.Uint64("nodes", 0, "also limit every move to `N` nodes (as match's --nodes: a result the machine's load cannot change)")
	var ef spec.Flags
	ef.RegisterEngines(fs, `the engines: first the one tested (default "squall"), then its opponent (default /usr/games/stockfish)`)
	concurrency := minFlag(fs, "concurrency", 1, 1, "`N` games played at once")
	pgnOut := fs.String("pgn", "", "write the games to the PGN file `FILE`")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		stdout := cmd.OutOrStdout()
		if *tbPath == "" {
			return usagef("want --syzygy DIRS")
		}
		if *want != "win" && *want != "draw" {
			return usagef("--want %s: want win or draw", *want)
		}
		specs, err := ef.Specs(2, spec.Builtin, "/usr/games/stockfish")
		if err != nil {
			return err
		}
		tb, err := tablebase.Open(filepath.SplitList(*tbPath)...)
		if err != nil {
			return err
		}
		if tb.Files() == 0 {
			return fmt.Errorf("no Syzygy tables (*.rtbw, *.rtbz) in %s", *tbPath)
		}

		// Only positions where a wrong move spoils the result are kept: a
		// win some move throws away and that is at least minDTZ plies from
		// its conversion, a draw some move loses. Random placement otherwise
		// yields mostly endings that play themselves (a mate in one, two
		// knights that cannot mate).
		const minDTZ = 9
		keep := func(p *chess.Position, wdl int) bool {
			if wdl != 2 || !canGoWrong(tb, p, 2) {
				return false
			}
			dtz, ok := tb.ProbeDTZ(p)
			return ok && dtz >= minDTZ
		}
		if *want == "draw" {
			keep = func(p *chess.Position, wdl int) bool {
				return wdl == 0 && weaker(p) && canGoWrong(tb, p, 0)
			}
		}
		rng := rand.New(rand.NewPCG(*seed, *seed^0x5eed))
		var starts []*chess.Position
		var probes int
		if *materials != "" {
			for _, m := range strings.Split(*materials, ",") {
				ps, n, err := tb.Sample(rng, strings.TrimSpace(m), *count, 200000, keep)
				probes += n
				if err != nil {
					return err
				}
				if len(ps) < *count {
					return fmt.Errorf("%s: found only %s to %s in %s", m, plural.Count(len(ps), "position"), *want, plural.Count(n, "try"))
				}
				starts = append(starts, ps...)
			}
		} else {
			var fours []string
			for _, name := range tb.Tables() {
				if len(name) == 5 { // four pieces and the 'v'
					fours = append(fours, name)
				}
			}
			if len(fours) == 0 {
				return fmt.Errorf("no 4-piece tables in %s", *tbPath)
			}
			for tries := 0; len(starts) < *count; tries++ {
				if tries > 1000**count {
					return fmt.Errorf("found only %s to %s", plural.Count(len(starts), "position"), *want)
				}
				ps, n, err := tb.Sample(rng, fours[rng.IntN(len(fours))], 1, 2000, keep)
				probes += n
				if err != nil {
					return err
				}
				starts = append(starts, ps...)
			}
		}
		fmt.Fprintf(stdout, "%s drawn (seed %d, %s)\n", plural.Count(len(starts), "position"), *seed, plural.Count(probes, "WDL probe"))

		if specs[0].IsBuiltin() {
			// Squall runs as a UCI child, as a GUI would run it: the
			// tables' root move filtering is the UCI server's.
			if specs[0].Command, err = selfUCI(); err != nil {
				return err
			}
			if !*noTB {
				specs[0].Options = append([]spec.Option{{Name: "SyzygyPath", Value: *tbPath}}, specs[0].Options...)
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		own, err := matchPlayer(ctx, specs[0], "Squall")
		if err != nil {
			return fmt.Errorf("engine 1: %w", err)
		}
		opp, err := matchPlayer(ctx, specs[1], "")
		if err != nil {
			return fmt.Errorf("engine 2: %w", err)
		}
		cfg := match.Config{
			Players:     [2]match.Player{own, opp},
			Openings:    starts,
			Games:       len(starts),
			MoveTime:    *moveTime,
			Nodes:       *nodes,
			Margin:      time.Second, // judges hangs, not milliseconds: a move time is not a clock
			FirstToMove: true,
			Concurrency: *concurrency,
		}
		good := 0
		success := func(g *match.Game) bool {
			if *want == "win" {
				return g.Points() == 2
			}
			return g.Points() >= 1
		}
		cfg.Progress = func(p match.Progress) {
			g := p.Game
			mark := "ok"
			if success(g) {
				good++
			} else {
				mark = "FAILED"
			}
			fmt.Fprintf(stdout, "%3d/%d %-6s %-40s %s {%s} %s  %s\n", g.Number, p.Total, materialName(g.Start),
				g.Start.FEN(), g.Result, termtext.SafeLine(g.Detail), plural.Count(len(g.Moves), "ply"), mark)
		}
		rep, runErr := playMatch(ctx, cfg, *pgnOut, "Squall endgames")
		verb := "converted"
		if *want == "draw" {
			verb = "held"
		}
		if rep.Stats.Games > 0 {
			tables := "with the tables"
			if *noTB {
				tables = "without tables"
			}
			limit := fmt.Sprint(*moveTime)
			if *nodes > 0 {
				limit += fmt.Sprintf(" or %d nodes", *nodes)
			}
			fmt.Fprintf(stdout, "\n%s %s %d/%d %s (%s to move, %s, %s a move, against %s); %s\n",
				rep.Names[0], verb, good, rep.Stats.Games, plural.Noun(rep.Stats.Games, "position"), rep.Names[0], tables, limit,
				termtext.SafeLine(rep.Names[1]), plural.Count(len(rep.Incidents), "incident"))
			for _, in := range rep.Incidents {
				fmt.Fprintf(stdout, "  %s\n", termtext.SafeLine(in.String()))
			}
		}
		if errors.Is(runErr, context.Canceled) {
			return errors.New("interrupted")
		}
		return runErr
	}
	return cmd
}

// canGoWrong reports whether some legal move of p gives up its value wdl
// (the 50-move rule counting).
func canGoWrong(tb *tablebase.Tablebase, p *chess.Position, wdl int) bool {
	moves, ok := tb.RootMoves(p, true)
	if !ok {
		return false
	}
	for _, m := range moves {
		if m.WDL < wdl {
			return true
		}
	}
	return false
}

// pieceValue ranks material for deciding which side is the weaker one.
var pieceValue = [...]int{chess.Pawn: 1, chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9}

// weaker reports whether the side to move has less material than the
// other: in a drawn position it is the side that must hold the draw.
func weaker(p *chess.Position) bool {
	us, them := p.SideToMove(), p.SideToMove().Other()
	var own, other int
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		own += pieceValue[pt] * p.Pieces(us, pt).Count()
		other += pieceValue[pt] * p.Pieces(them, pt).Count()
	}
	return own < other
}

// materialName is the table name of p's material, the side to move first
// ("KRvKP").
func materialName(p *chess.Position) string {
	side := func(c chess.Color) string {
		s := "K"
		for _, pt := range []chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight, chess.Pawn} {
			s += strings.Repeat(string("PNBRQ"[pt-chess.Pawn]), p.Pieces(c, pt).Count())
		}
		return s
	}
	return side(p.SideToMove()) + "v" + side(p.SideToMove().Other())
}
