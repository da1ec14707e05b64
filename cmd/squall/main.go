// Command squall is a chess engine with a terminal analysis board.
//
// Run with no arguments for the TUI, or with a subcommand:
//
//	squall perft [--fen FEN] [--chess960] DEPTH
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: it parses its own flags from args.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"perft": {"count leaf nodes of the legal move tree", runPerft},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "squall: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "squall %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

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
