// Command squall is a chess engine with a terminal analysis board.
//
// Run with no arguments for the TUI, or with a subcommand:
//
//	squall perft [--fen FEN] [--chess960] DEPTH
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/squall-chess/squall/tui/termtext"
)

// command is one subcommand: it parses its own flags from args.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"suite":    {"run a test suite (wac, ecm, wcsac, bk or an EPD file) and report solved X/N", runSuite},
		"perft":    {"count leaf nodes of the legal move tree", runPerft},
		"tui":      {"open the terminal board (the default with no command)", runTUI},
		"eval":     {"print the static evaluation of a position, term by term", runEval},
		"tune":     {"fit the evaluation weights to game results (Texel tuning)", runTune},
		"datagen":  {"play self-play games and write labelled positions for tuning", runDatagen},
		"train":    {"train the evaluation network on self-play positions", runTrain},
		"uci":      {"speak the UCI protocol on stdin/stdout (for GUIs and match runners)", runUCI},
		"bench":    {"search fixed positions to a fixed depth; print the node count and speed", runBench},
		"serve":    {"share live analysis over SSH (rooms of viewers; owners move)", runServe},
		"book":     {"build, list and teach Polyglot opening books (build, probe, learn)", runBook},
		"tb":       {"probe Syzygy endgame tablebases (wdl, dtz, best moves)", runTB},
		"endgames": {"play random tablebase-labelled endings against another engine: won ones converted, drawn ones held", runEndgames},
		"match":    {"play an engine-versus-engine match (built-in or UCI engines) with Elo and SPRT", runMatch},
		"pgn":      {"check PGN files: every error with file:line:col and a summary per file; --reformat, --fen", runPGN},
		"review":   {"review a game like lichess: ?!/?/?? with better moves and [%eval] written into the PGN", runReview},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		args = []string{"tui"} // plain `squall` opens the board
	}
	if _, isCmd := cmds[args[0]]; !isCmd && args[0] != "-h" && args[0] != "--help" &&
		(strings.HasPrefix(args[0], "-") || strings.HasSuffix(strings.ToLower(args[0]), ".pgn")) {
		// `squall --fen …` and `squall game.pgn` open the board too.
		args = append([]string{"tui"}, args...)
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		// Plain squall opens the board: its options are the program's.
		fmt.Fprintln(stdout, "\nThe board (squall with no command, or squall tui):")
		_ = runTUI([]string{"-h"}, stdout, stdout)
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "squall: unknown command %q\n\n", termtext.SafeLine(args[0]))
		usage(stderr, cmds)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); errors.Is(err, errHelp) {
		return 0
	} else if errors.Is(err, errReported) {
		return 1
	} else if err != nil {
		// Errors quote files, engines and user input: the one sanitiser
		// keeps their bytes from acting on the terminal.
		fmt.Fprintf(stderr, "squall %s: %s\n", args[0], termtext.Safe(err.Error()))
		return 1
	}
	return 0
}

// errReported is returned by a command that has already printed why it
// failed (`squall pgn` listing a file's errors): exit 1 with nothing more.
var errReported = errors.New("reported")

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "Squall: a chess engine and terminal analysis board.")
	fmt.Fprintln(w, "\nUsage: squall <command> [arguments]\n\nCommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'squall <command> -h' for a command's options.")
}

// flagSet is a subcommand's flags: a flag.FlagSet with Squall's manners.
// -h prints the usage and the flags to stdout and the command exits 0; a
// bad flag is one line and a pointer to -h, not the whole usage; a
// command that calls Usage itself (for a bad argument) prints the usage to
// stderr.
type flagSet struct {
	*flag.FlagSet
	usage          string
	stdout, stderr io.Writer
}

// errHelp ends a command that printed its help because -h asked for it.
var errHelp = errors.New("help printed")

func newFlagSet(name, usage string, stdout, stderr io.Writer) *flagSet {
	f := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), usage: usage, stdout: stdout, stderr: stderr}
	f.SetOutput(io.Discard) // the flag package's own messages: see Parse
	f.FlagSet.Usage = func() { f.printUsage(stderr) }
	return f
}

func (f *flagSet) printUsage(w io.Writer) {
	fmt.Fprintln(w, f.usage)
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
}

// Parse parses args: -h prints the help to stdout and returns errHelp; a
// bad flag returns its error with a pointer to -h (run prints it).
func (f *flagSet) Parse(args []string) error {
	usage := f.FlagSet.Usage
	f.FlagSet.Usage = func() {} // the flag package calls it on every error
	err := f.FlagSet.Parse(args)
	f.FlagSet.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		f.printUsage(f.stdout)
		return errHelp
	case err != nil:
		return fmt.Errorf("%w\nsee 'squall %s -h'", err, f.Name())
	}
	return nil
}

// parseArgs parses args with flags allowed before and after the other
// arguments (`squall review game.pgn --out x.pgn`), which it returns.
func parseArgs(fs *flagSet, args []string) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	var rest []string
	for fs.NArg() > 0 {
		rest = append(rest, fs.Arg(0))
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return nil, err
		}
	}
	return rest, nil
}
