// Command squall is a chess engine with a terminal analysis board.
//
// Run with no arguments for the board, or with a subcommand (squall -h
// lists them):
//
//	squall perft [--fen FEN] [--chess960] DEPTH
//
// The commands are cobra commands run through Charm's fang, which gives
// them styled help, completions (squall completion bash) and a man page
// (squall man) from the same definitions.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/charmbracelet/fang"
	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/termtext"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// newRoot is the command tree: squall itself is the board (its flags are
// the board's), and every other command is a subcommand.
func newRoot() *cobra.Command {
	root := boardCommand("squall")
	root.Short = "A chess engine and terminal analysis board"
	suite := suiteCommand()
	suite.ValidArgsFunction = completeSuite
	root.AddCommand(
		boardCommand("tui"),
		suite,
		perftCommand(),
		evalCommand(),
		tuneCommand(),
		datagenCommand(),
		trainCommand(),
		uciCommand(),
		benchCommand(),
		serveCommand(nil),
		bookCommand(),
		tbCommand(),
		endgamesCommand(),
		matchCommand(),
		pgnCommand(),
		exploreCommand(),
		reviewCommand(),
	)
	root.SetFlagErrorFunc(flagError)
	addHelp(root)
	return root
}

// run runs the command line args (without the program name) and returns
// the exit status: 0, or 1 after an error printed on stderr.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(os.Stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := fang.Execute(context.Background(), root,
		fang.WithVersion(version()),
		fang.WithErrorHandler(func(io.Writer, fang.Styles, error) {})) // printed below
	if err == nil {
		return 0
	}
	if !errors.Is(err, errReported) {
		printError(stderr, root, args, err)
	}
	return 1
}

// errReported is returned by a command that has already printed why it
// failed (`squall pgn` listing a file's errors): exit 1 with nothing more.
var errReported = errors.New("reported")

// usageError is a mistake in the command line (a misspelt flag, a missing
// argument): printed with where the command's usage is.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef is a usageError from a format.
func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// printError prints err as one line naming the command, and for a
// command-line mistake a second saying where the usage is, instead of the
// whole usage. Errors quote files, engines and user input: the one
// sanitiser keeps their bytes from acting on the terminal.
func printError(w io.Writer, root *cobra.Command, args []string, err error) {
	path := "squall"
	if cmd, _, ferr := root.Find(args); ferr == nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintf(w, "%s: %s\n", path, termtext.Safe(strings.TrimRight(err.Error(), "\n")))
	if errors.As(err, new(usageError)) {
		fmt.Fprintf(w, "see '%s -h'\n", path)
	}
}

// groupCommand is a command that only holds subcommands (book, tb): alone
// it prints its help; with an argument that names none of them, it says
// so (cobra would print the help and exit 0).
func groupCommand(name, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   name + " COMMAND",
		Short: short,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return unknownCommand(cmd, args[0])
		},
	}
	cmd.AddCommand(subs...)
	return cmd
}

// argsBetween accepts min to max positional arguments (max < 0: no limit);
// what names them in the error ("one suite name or EPD file").
func argsBetween(min, max int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < min || (max >= 0 && len(args) > max) {
			return usagef("want %s, have %s", what, plural.Count(len(args), "argument"))
		}
		return nil
	}
}

// version is the module version and VCS revision the binary was built
// from, as far as the Go toolchain recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !strings.Contains(v, rev) {
		v += " " + rev + dirty
	}
	return v
}
