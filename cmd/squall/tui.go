package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/knowledge"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui"
	"github.com/squall-chess/squall/tui/gamelist"
	"github.com/squall-chess/squall/tui/reviewview"
	"github.com/squall-chess/squall/tui/suiteview"
	"github.com/squall-chess/squall/tui/view"
)

// boardFlags are the board's command-line settings: each overrides the
// config file's for this run only.
type boardFlags struct {
	pieces, theme, board, mode, clock, fen string
	book, syzygy                           string
	black, scoreSide                       bool
	pace                                   time.Duration
	level, multipv                         int
	chess960                               int // -1: none
	engine                                 spec.Flags
	broadcast                              broadcastArgs
}

// boardMode is one of --mode's values.
type boardMode struct {
	name, help string
	mode       tui.Mode
}

// boardModes are --mode's values, in the order the help lists them.
var boardModes = []boardMode{
	{"engine", "play the engine", tui.VsEngine},
	{"watch", "engine against engine", tui.Watch},
	{"humans", "two people on one board", tui.TwoHumans},
	{"analysis", "the engine analyses every move", tui.Analysis},
}

// modeList is "engine (play the engine), watch (…), … or analysis (…)",
// or with help false the names alone.
func modeList(help bool) string {
	var names []string
	for _, m := range boardModes {
		if help {
			names = append(names, m.name+" ("+m.help+")")
		} else {
			names = append(names, m.name)
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// register defines the board's flags on fs, into f.
func (f *boardFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.pieces, "pieces", "", "piece style `STYLE`: glyphs or letters")
	fs.StringVar(&f.theme, "theme", "", "colour theme `NAME`: "+strings.Join(themes.Names(), ", ")+" or a user theme")
	fs.StringVar(&f.board, "board", "", "board size `SIZE`: auto, small or large")
	fs.StringVar(&f.mode, "mode", "engine", "what the board is for, `MODE`: "+modeList(true))
	fs.BoolVar(&f.black, "black", false, "play Black against the engine")
	durationVar(fs, &f.pace, "pace", time.Second, "least time between the moves of a watched engine game (--mode watch), so a person can follow it; 0: as fast as they play")
	rangeVar(fs, &f.level, "level", 0, 1, len(tui.Levels), fmt.Sprintf("engine level `N`, 1–%d (default from config, else %d)", len(tui.Levels), tui.DefaultLevel))
	fs.StringVar(&f.clock, "clock", "", "time control `MINUTES+INCREMENT`, e.g. 5+3 (default none)")
	rangeVar(fs, &f.multipv, "multipv", 3, 1, tui.MaxMultiPV, fmt.Sprintf("analysis lines `N`, 1–%d", tui.MaxMultiPV))
	fs.StringVar(&f.fen, "fen", "", "start from the position `FEN`")
	rangeVar(fs, &f.chess960, "960", -1, 0, 959, "start from Chess960 position `N`, 0–959 (Scharnagl's numbers: 518 is the standard start)")
	fs.Lookup("960").DefValue = "" // none: not "-1" in the help
	fs.BoolVar(&f.scoreSide, "score-side", false, "show scores from the side to move (default: White's view)")
	f.engine.Register(fs, "the engine to play and analyse with (default from config, else squall)")
	fs.StringVar(&f.book, "book", "", "Polyglot opening book `FILE`: its moves are listed for the shown position, b/B mark them never/always in FILE.learn (default from config)")
	fs.StringVar(&f.syzygy, "syzygy", "", "Syzygy tablebase directories `DIRS`, "+string(filepath.ListSeparator)+"-separated: the TB line of the board and an engine's SyzygyPath (default from config)")
	f.broadcast.register(fs)
}

// complete gives cmd's board flags their values for shell completion.
func (f *boardFlags) complete(cmd *cobra.Command) {
	completeFlag(cmd, "theme", func() []string {
		user, _ := themes.LoadDir(filepath.Join(tui.ConfigDir(), "themes"))
		return themes.Sorted(user)
	})
	var modes []string
	for _, m := range boardModes {
		modes = append(modes, cobra.CompletionWithDesc(m.name, m.help))
	}
	completeFlag(cmd, "mode", func() []string { return modes })
	var levels []string
	for i, l := range tui.Levels {
		levels = append(levels, cobra.CompletionWithDesc(strconv.Itoa(i+1), l.Name))
	}
	completeFlag(cmd, "level", func() []string { return levels })
	completeFlag(cmd, "pieces", func() []string { return []string{"glyphs", "letters"} })
	completeFlag(cmd, "board", func() []string { return []string{"auto", "small", "large"} })
}

// boardCommand is the terminal board: squall itself (use "squall"), where
// an argument that is neither a PGN file nor a command is a misspelt
// command, and `squall tui`.
func boardCommand(use string) *cobra.Command {
	var f boardFlags
	cmd := &cobra.Command{
		Use:   use + " [FILE.pgn]",
		Short: "Open the terminal board (the default with no command)",
		Long: "Squall: a chess engine and terminal analysis board.\n\n" +
			"Opens the board, with the games of FILE.pgn if given; press ? on the board for its keys.\n" +
			"--broadcast-X flags are `squall serve`'s --X, for the broadcast's server.",
		Args: argsBetween(0, 1, "at most one PGN file"),
	}
	if use == "squall" {
		cmd.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && !strings.HasSuffix(strings.ToLower(args[0]), ".pgn") {
				if _, err := os.Stat(args[0]); err != nil {
					return unknownCommand(cmd, args[0])
				}
			}
			return argsBetween(0, 1, "at most one PGN file")(cmd, args)
		}
	}
	f.register(cmd.Flags())
	f.complete(cmd)
	cmd.RunE = func(cmd *cobra.Command, files []string) error {
		return f.run(files, cmd.OutOrStdout(), cmd.ErrOrStderr())
	}
	return cmd
}

// options are the board's options from the flags over the config file's
// settings set.
func (f *boardFlags) options(set tui.Settings) (tui.Options, error) {
	opt := tui.Options{Settings: set, MultiPV: f.multipv, Level: set.Level, Board: set.Board,
		Letters: set.Pieces == "letters", ScoreSTM: set.Score == "side" || f.scoreSide, WatchPace: f.pace}
	switch f.pieces {
	case "":
	case "letters", "glyphs":
		opt.Letters = f.pieces == "letters"
	default:
		return opt, fmt.Errorf("--pieces %q: want glyphs or letters", f.pieces)
	}
	if f.board != "" {
		opt.Board = f.board
	}
	if f.level != 0 { // given: its range is checked as it is read
		opt.Level = f.level
	}
	var err error
	if opt.Clock, opt.Increment, err = tui.ParseClock(cmp.Or(f.clock, set.Clock)); err != nil {
		return opt, err
	}
	// In any case: a mode is a word, not a spelling (--mode Engine, as
	// the help once showed it, was refused).
	i := slices.IndexFunc(boardModes, func(m boardMode) bool { return strings.EqualFold(m.name, strings.TrimSpace(f.mode)) })
	if i < 0 {
		return opt, usagef("--mode %s: want %s", f.mode, modeList(false))
	}
	opt.Mode = boardModes[i].mode
	if f.black {
		opt.Human = chess.Black
	}
	if f.fen != "" {
		if opt.Start, err = chess.ParseFEN(f.fen); err != nil {
			return opt, err
		}
	}
	if f.chess960 >= 0 {
		if f.fen != "" {
			return opt, usagef("--960 and --fen: give one start position")
		}
		if opt.Start, err = chess.Chess960(f.chess960); err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// run opens the board with the games of files (at most one PGN file).
func (f *boardFlags) run(files []string, stdout, stderr io.Writer) error {
	cfgDir := tui.ConfigDir()
	cfgPath := filepath.Join(cfgDir, "config.toml")
	// Problems that do not stop the board are printed and also shown on
	// it, since the board hides the terminal's output while it runs.
	var warnings []string
	warn := func(msg string) {
		msg = termtext.SafeLine(msg)
		fmt.Fprintln(stderr, "squall:", msg)
		warnings = append(warnings, msg)
	}
	set, err := tui.LoadSettings(cfgPath)
	if err != nil {
		warn(err.Error() + " (using defaults for the rest)")
	}
	userThemes, terrs := themes.LoadDir(filepath.Join(cfgDir, "themes"))
	for _, e := range terrs {
		warn(e.Error())
	}
	if cfgDir == "" {
		cfgPath = ""
	}
	opt, err := f.options(set)
	if err != nil {
		return err
	}
	opt.Themes, opt.ConfigPath = userThemes, cfgPath
	several := false
	if len(files) > 0 {
		// A file of several games opens in the game list, which reads it
		// as a stream; one game opens on the board.
		f, _, err := pgn.OpenFile(files[0])
		if err != nil {
			return err
		}
		several, err = tui.SeveralGames(f, files[0])
		f.Close()
		if err != nil {
			return err
		}
	}
	if several {
		opt.List = files[0]
	} else if len(files) > 0 {
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
		opt.Session = filepath.Join(dd, "session.json") // unsaved analysis, offered back at the next start
	}
	opt.Views = boardViews()

	r, th, noColor, err := terminalLook(cmp.Or(f.theme, set.Theme), userThemes)
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

	sp, err := f.engine.Spec(set.Engine) // --engine for this run only, like --book: not saved to the config
	if err != nil {
		return err
	}
	// A name of the config's [engines] is its command line, and the
	// options remembered for the engine come before --option's.
	opt.EngineName, sp = tui.EngineName(sp), set.Resolve(sp)
	if f.book != "" {
		set.Book = f.book
	}
	if opt.Book, opt.BookLearning, err = openBook(set.Book); err != nil {
		err = fmt.Errorf("book: %w", err)
		if f.book != "" {
			return err
		}
		warn("config: " + err.Error() + " (no book)")
	}
	if f.syzygy != "" {
		set.Syzygy = f.syzygy
	}
	if opt.Tablebase, err = openTablebase(set.Syzygy); err != nil {
		if f.syzygy != "" {
			return err
		}
		warn("config: " + err.Error() + " (no tablebases)")
		set.Syzygy = ""
	}

	// The broadcast starts before the screen does, so that its watch
	// command is printed where it stays readable after the program ends.
	b, err := f.broadcast.start(stdout)
	if err != nil {
		return err
	}
	if b != nil {
		opt.Publish = b.Broadcast.Publish
	}

	eng, err := openBoardEngine(context.Background(), sp, set, opt.Tablebase, stderr, startNotice)
	if err != nil {
		b.stop()
		return err
	}
	// The engine picker's (U): nothing is said on the terminal, which
	// the board hides; an error is the board's to show.
	tables := opt.Tablebase
	opt.OpenEngine = func(ctx context.Context, sp spec.Spec) (engine.Analyzer, error) {
		return openBoardEngine(ctx, sp, set, tables, io.Discard, startNotice)
	}
	opt.Warnings = warnings
	m := tui.New(r, eng, opt)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion())
	final, runErr := p.Run()
	if fm, ok := final.(tui.Model); ok {
		fm.Close()
	}
	eng.Close()
	if err := b.stop(); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// openBook reads the Polyglot book at path and its learning side file
// ("": no book).
func openBook(path string) (*book.Book, *book.Learning, error) {
	if path == "" {
		return nil, nil, nil
	}
	b, err := book.Open(path)
	if err != nil {
		return nil, nil, err
	}
	l, err := book.LoadLearning(book.LearnPath(path))
	if err != nil {
		return nil, nil, err
	}
	return b, l, nil
}

// openTablebase indexes the Syzygy tables of a path list ("": none).
func openTablebase(list string) (*tablebase.Tablebase, error) {
	if list == "" {
		return nil, nil
	}
	tb, err := tablebase.Open(filepath.SplitList(list)...)
	if err != nil {
		return nil, fmt.Errorf("syzygy: %w", err)
	}
	if tb.Files() == 0 {
		return nil, fmt.Errorf("syzygy: no tables (*.rtbw, *.rtbz) in %s", list)
	}
	return tb, nil
}

// broadcastArgs are the flags of `squall --broadcast ROOM`. The SSH server
// behind the broadcast takes `squall serve`'s flags, each given here with a
// "broadcast-" prefix (--broadcast-listen ADDR is serve's --listen ADDR),
// so the two commands cannot drift apart in meaning.
type broadcastArgs struct {
	room  string
	log   string
	serve []string // serve's flags as given, unprefixed
}

// broadcastPassed are serve's flags a broadcast takes, with whether each is
// boolean; --room and --fen do not apply (the broadcast room is the only one).
var broadcastPassed = []struct {
	name string
	bool bool
	help string
}{
	{"listen", false, "address `ADDR` of the broadcast's SSH server (default 127.0.0.1:2222; port 0 picks a free one)"},
	{"host-key", false, "ed25519 host key `FILE` of the broadcast server (default as for squall serve)"},
	{"owners", false, "the broadcast server's owners: an authorized_keys `FILE` (the broadcast room stays read-only)"},
	{"private", true, "the broadcast server refuses everyone who is not an owner"},
	{"max-sessions", false, "at most `N` SSH sessions on the broadcast server (default 64)"},
	{"max-engines", false, "at most `N` analysing rooms on the broadcast server (default 2)"},
	{"threads", false, "`N` search threads for the broadcast room's engine (default 1)"},
	{"hash", false, "hash table of the broadcast room's engine in `MB` (default 64)"},
}

// register defines the --broadcast flags on fs, into a.
func (a *broadcastArgs) register(fs *pflag.FlagSet) {
	fs.StringVar(&a.room, "broadcast", "", "publish the board's game to the read-only room `ROOM` of an SSH server started with the board (watch with the ssh command printed at start)")
	fs.StringVar(&a.log, "broadcast-log", "", "append the broadcast server's connection log to `FILE` (default: discarded, never on the board)")
	for _, f := range broadcastPassed {
		name := f.name
		if f.bool {
			fs.BoolFunc("broadcast-"+name, f.help, func(v string) error {
				a.serve = append(a.serve, "--"+name+"="+v)
				return nil
			})
			continue
		}
		fs.Func("broadcast-"+name, f.help, func(v string) error {
			a.serve = append(a.serve, "--"+name, v)
			return nil
		})
	}
}

// start starts the broadcast server when --broadcast was given and prints
// how to watch; nil without --broadcast.
func (a *broadcastArgs) start(stdout io.Writer) (*tuiBroadcast, error) {
	if a.room == "" {
		if len(a.serve) > 0 || a.log != "" {
			return nil, errors.New("--broadcast-* flags need --broadcast ROOM")
		}
		return nil, nil
	}
	var log io.Writer = io.Discard
	var logFile *os.File
	if a.log != "" {
		f, err := os.OpenFile(a.log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("broadcast log: %w", err)
		}
		log, logFile = f, f
	}
	s, err := startBroadcast(a.room, a.serve, log)
	if err != nil {
		if logFile != nil {
			logFile.Close()
		}
		return nil, err
	}
	fmt.Fprintf(stdout, "squall: broadcasting to room %s on %s; watch with: %s\n", a.room, s.Addr, s.WatchCommand())
	return &tuiBroadcast{broadcastServer: s, log: logFile}, nil
}

// tuiBroadcast is a running broadcast with its log file.
type tuiBroadcast struct {
	*broadcastServer
	log *os.File
}

// stop ends the broadcast (viewers are told the broadcaster has quit) and
// closes the log; nothing for a nil broadcast.
func (b *tuiBroadcast) stop() error {
	if b == nil {
		return nil
	}
	err := b.Stop()
	if b.log != nil {
		if cerr := b.log.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("broadcast log: %w", cerr)
		}
	}
	return err
}

// startNotice is how long an external engine may take to start before
// the board says it is starting: the screen stays as it was until then.
const startNotice = 500 * time.Millisecond

// newEngine starts the engine of sp with the board's settings (threads,
// hash, and the board's tables as SyzygyPath where the engine has one),
// then sp's options. An engine that does not start, or refuses an option,
// is an error: the board never plays with an engine other than the one
// asked for. A start that takes longer than notice is announced on stderr
// ("starting stockfish…"), since nothing else shows before the board.
func newEngine(ctx context.Context, sp spec.Spec, set tui.Settings, stderr io.Writer, notice time.Duration) (engine.Analyzer, error) {
	defaults := append(spec.Int("Threads", set.Threads), spec.Int("Hash", set.Hash)...)
	if set.Syzygy != "" {
		defaults = append(defaults, spec.Option{Name: "SyzygyPath", Value: set.Syzygy})
	}
	done, noticed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(noticed)
		select {
		case <-done:
		case <-time.After(notice):
			fmt.Fprintf(stderr, "squall: starting %s…\n", termtext.SafeLine(sp.String()))
		}
	}()
	a, err := sp.Open(ctx, defaults...)
	close(done)
	<-noticed // nothing is written after the board has the screen
	return a, err
}

// openBoardEngine is newEngine for the board: a built-in searcher that
// probes tables also gets the board's tb (nil: none), with the UCI
// defaults (probe at every depth, 50-move rule on).
func openBoardEngine(ctx context.Context, sp spec.Spec, set tui.Settings, tb *tablebase.Tablebase, stderr io.Writer, notice time.Duration) (engine.Analyzer, error) {
	a, err := newEngine(ctx, sp, set, stderr, notice)
	if err != nil {
		return nil, err
	}
	if t, ok := a.(knowledge.TablebaseAnalyzer); ok && tb != nil {
		t.SetTablebase(tb, 1, true)
	}
	return a, nil
}

// terminalLook is the renderer for stdout and the theme to draw with:
// the named one (built-in or the user's), or monochrome when the terminal
// cannot show the board's colours (NO_COLOR, 16 colours: view.Colourless),
// with noColor set.
func terminalLook(name string, userThemes []themes.Theme) (r *lipgloss.Renderer, th themes.Theme, noColor bool, err error) {
	r = lipgloss.NewRenderer(os.Stdout, termenv.WithColorCache(true))
	th, ok := themes.ByName(name, userThemes...)
	if !ok {
		return nil, th, false, fmt.Errorf("unknown theme %q (have %s)", name, strings.Join(themes.Sorted(userThemes), ", "))
	}
	return r, view.TerminalTheme(r, th), view.Colourless(r), nil
}

// boardViews are the full-screen views the board opens by key: the WAC
// suite runner and the review of the game on the board.
func boardViews() []view.Entry {
	lim := engine.Limits{MoveTime: reviewMoveTime}
	review := reviewview.Entry(reviewview.Options{Limits: lim})
	// Each review saves to its own file, named when it opens, so a second
	// review does not overwrite the first. Each asks for its limits first,
	// offering the last ones chosen (lim, from `squall review`'s default).
	review.New = func(env view.Env) view.View {
		name := "squall-review-" + time.Now().Format("20060102-150405") + ".pgn"
		return reviewview.New(env, reviewview.Options{Limits: lim, SavePath: name, Ask: &lim})
	}
	return []view.Entry{
		suiteview.Entry("wac", engine.Limits{MoveTime: time.Second}),
		review,
		gamelist.Entry(),
	}
}

// openPGN reads the games of a PGN file. Games with an illegal move or
// another problem are left out; the error names each (file:line:column)
// and is returned with the games that could be read.
func openPGN(path string) ([]*tui.Tree, error) {
	f, _, err := pgn.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return tui.ReadPGN(f, path)
}
