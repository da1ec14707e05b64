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
	var files []string
	for fs.NArg() > 0 { // flags may follow the file name
		files = append(files, fs.Arg(0))
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return err
		}
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
	if len(files) > 1 {
		fs.Usage()
		return fmt.Errorf("want at most one PGN file, have %d", len(files))
	}
	if len(files) > 0 {
		games, err := openPGN(files[0])
		if len(games) == 0 {
			if err == nil {
				err = fmt.Errorf("%s holds no games", files[0])
			}
			return err
		}
		// The games that could not be read are named on the board's
		// message line; the others open.
		opt.Games, opt.GamesErr = games, err
	}
	opt.Open = openPGN
	if dd := tui.DataDir(); dd != "" {
		opt.Autosave = filepath.Join(dd, "games.pgn")
	}
	opt.Views = boardViews()

	name := *theme
	if name == "" {
		name = set.Theme
	}
	r, th, noColor, err := terminalLook(name, userThemes)
	if err != nil {
		return err
	}
	opt.Theme, opt.NoColor = th, noColor
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

// terminalLook is the renderer for stdout and the theme to draw with:
// the named one (built-in or the user's), or monochrome when the terminal
// cannot show the board's colours (NO_COLOR, 16 colours), with noColor set.
func terminalLook(name string, userThemes []themes.Theme) (r *lipgloss.Renderer, th themes.Theme, noColor bool, err error) {
	r = lipgloss.NewRenderer(os.Stdout, termenv.WithColorCache(true))
	th, ok := themes.ByName(name, userThemes...)
	if !ok {
		return nil, th, false, fmt.Errorf("unknown theme %q (have %s)", name, strings.Join(themes.Sorted(userThemes), ", "))
	}
	if p := r.ColorProfile(); p == termenv.Ascii || p == termenv.ANSI {
		return r, themes.Monochrome(), true, nil
	}
	return r, th, false, nil
}

// boardViews are the full-screen views the board opens by key: the WAC
// suite runner and the review of the game on the board.
func boardViews() []tui.ViewEntry {
	lim := engine.Limits{MoveTime: 200 * time.Millisecond} // as `squall review`
	review := tui.ReviewViewEntry(tui.ReviewOptions{Limits: lim})
	// Each review saves to its own file, named when it opens, so a second
	// review does not overwrite the first.
	review.New = func(env tui.Env) tui.View {
		name := "squall-review-" + time.Now().Format("20060102-150405") + ".pgn"
		return tui.NewReviewView(env, tui.ReviewOptions{Limits: lim, SavePath: name})
	}
	return []tui.ViewEntry{
		tui.SuiteViewEntry("wac", engine.Limits{MoveTime: time.Second}),
		review,
	}
}

// openPGN reads the games of a PGN file. Games with an illegal move or
// another problem are left out; the error names each (file:line:column)
// and is returned with the games that could be read.
func openPGN(path string) ([]*tui.Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return tui.ReadPGN(f, path)
}
