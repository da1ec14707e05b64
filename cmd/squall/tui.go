package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/uci"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui"
)

// runTUI opens the terminal board (also what `squall` alone does).
func runTUI(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tui", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pieces := fs.String("pieces", "", "piece style: glyphs or letters")
	theme := fs.String("theme", "", "colour theme: "+strings.Join(themes.Names(), ", ")+" or a user theme")
	board := fs.String("board", "", "board size: auto, small or large")
	mode := fs.String("mode", "engine", "engine (play the engine), watch (engine vs engine), humans, analysis")
	black := fs.Bool("black", false, "play Black against the engine")
	level := fs.Int("level", 0, fmt.Sprintf("engine level 1-%d (default from config, else %d)", len(tui.Levels), tui.DefaultLevel))
	clock := fs.String("clock", "", "time control MINUTES+INCREMENT, e.g. 5+3 (default none)")
	multipv := fs.Int("multipv", 3, "analysis lines (1-5)")
	fen := fs.String("fen", "", "start from this position")
	scoreSide := fs.Bool("score-side", false, "show scores from the side to move (default: White's view)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: squall [tui] [flags] [FILE.pgn]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfgDir := tui.ConfigDir()
	cfgPath := filepath.Join(cfgDir, "config.toml")
	set, err := tui.LoadSettings(cfgPath)
	if err != nil {
		fmt.Fprintln(stderr, "squall:", err, "(using defaults for the rest)")
	}
	userThemes, terrs := themes.LoadDir(filepath.Join(cfgDir, "themes"))
	for _, e := range terrs {
		fmt.Fprintln(stderr, "squall:", e)
	}
	if cfgDir == "" {
		cfgPath = ""
	}
	opt := tui.Options{Themes: userThemes, Settings: set, ConfigPath: cfgPath, MultiPV: *multipv, Level: set.Level, Board: set.Board,
		Letters: set.Pieces == "letters", ScoreSTM: set.Score == "side"}
	if *pieces != "" {
		if *pieces != "letters" && *pieces != "glyphs" {
			return fmt.Errorf("--pieces %q: want glyphs or letters", *pieces)
		}
		opt.Letters = *pieces == "letters"
	}
	if *board != "" {
		opt.Board = *board
	}
	if *scoreSide {
		opt.ScoreSTM = true
	}
	if *level != 0 {
		if *level < 1 || *level > len(tui.Levels) {
			return fmt.Errorf("--level %d: want 1-%d", *level, len(tui.Levels))
		}
		opt.Level = *level
	}
	tc := set.Clock
	if *clock != "" {
		tc = *clock
	}
	if opt.Clock, opt.Increment, err = tui.ParseClock(tc); err != nil {
		return err
	}
	switch *mode {
	case "engine":
		opt.Mode = tui.VsEngine
	case "watch":
		opt.Mode = tui.Watch
	case "humans":
		opt.Mode = tui.TwoHumans
	case "analysis":
		opt.Mode = tui.Analysis
	default:
		return fmt.Errorf("--mode %q: want engine, watch, humans or analysis", *mode)
	}
	if *black {
		opt.Human = chess.Black
	}
	if *fen != "" {
		p, err := chess.ParseFEN(*fen)
		if err != nil {
			return err
		}
		opt.Start = p
	}
	if fs.NArg() > 0 {
		games, err := openPGN(fs.Arg(0))
		if err != nil {
			return err
		}
		opt.Games = games
	}
	opt.Open = openPGN
	if dd := tui.DataDir(); dd != "" {
		opt.Autosave = filepath.Join(dd, "games.pgn")
	}

	r := lipgloss.NewRenderer(os.Stdout, termenv.WithColorCache(true))
	name := *theme
	if name == "" {
		name = set.Theme
	}
	th, ok := themes.ByName(name, userThemes...)
	if !ok {
		return fmt.Errorf("unknown theme %q (have %s)", name, strings.Join(themes.Sorted(userThemes), ", "))
	}
	// Under NO_COLOR or on a 16-colour terminal the board cannot be
	// coloured reliably: draw it in monochrome.
	if p := r.ColorProfile(); p == termenv.Ascii || p == termenv.ANSI {
		th = themes.Monochrome()
		opt.NoColor = true
	}
	opt.Theme = th
	opt.Clipboard = func(s string) error {
		seq := osc52.New(s)
		if os.Getenv("TMUX") != "" {
			seq = seq.Tmux()
		}
		_, err := seq.WriteTo(os.Stderr)
		return err
	}

	eng := newEngine(set, stderr)
	m := tui.New(r, eng, opt)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion())
	final, runErr := p.Run()
	if fm, ok := final.(tui.Model); ok {
		fm.Close()
	}
	eng.Close()
	return runErr
}

// newEngine starts the configured engine: Squall's own searcher, or an
// external UCI engine given by its command line. An external engine that
// fails to start is reported and the built-in one is used instead.
func newEngine(set tui.Settings, stderr io.Writer) engine.Analyzer {
	var a engine.Analyzer
	if set.Engine != "" && set.Engine != "builtin" {
		c, err := startUCI(set.Engine)
		if err != nil {
			fmt.Fprintf(stderr, "squall: engine %q: %v; using the built-in engine\n", set.Engine, err)
		} else {
			a = c
		}
	}
	if a == nil {
		a = search.New()
	}
	for _, o := range a.Options() {
		switch {
		case strings.EqualFold(o.Name, "Threads") && set.Threads > 0:
			_ = a.SetOption(o.Name, strconv.Itoa(set.Threads))
		case strings.EqualFold(o.Name, "Hash") && set.Hash > 0:
			_ = a.SetOption(o.Name, strconv.Itoa(set.Hash))
		}
	}
	return a
}

func startUCI(cmdline string) (engine.Analyzer, error) {
	path, args, err := uci.ParseCommand(cmdline)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return uci.Start(ctx, uci.Config{Path: path, Args: args})
}

// openPGN reads the games of a PGN file.
func openPGN(path string) ([]*tui.Tree, error) {
	return nil, fmt.Errorf("open %s: PGN reading is not in this build yet", path)
}
