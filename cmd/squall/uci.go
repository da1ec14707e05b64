package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/uci"
)

// uciCommand speaks UCI on standard input and output, for chess GUIs and
// match runners.
func uciCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "uci",
		Short: "Speak the UCI protocol on stdin/stdout (for GUIs and match runners)",
		Long: "Speaks UCI on standard input and output: run it from a chess GUI or a match runner.\n" +
			"Options are set with setoption; 'uci' lists them, all but the search's tuning constants\n" +
			"(LMRBase, RFPMargin …), which setoption takes too (docs/TUNING.md).",
		Args: argsBetween(0, 0, "no arguments (it reads UCI commands from standard input)"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			s := search.New()
			defer s.Close()
			return uci.NewServer(s, cmd.OutOrStdout()).Run(cmd.InOrStdin())
		},
	}
}

// selfUCI is the command line that runs this binary as a UCI engine
// ("'/path/to/squall' uci", quoted for uci.ParseCommand): the built-in
// engine in a process of its own, for the callers that want it apart —
// endgames (the tables' root filtering is the UCI server's) and serve (a
// niced process, behind the serving of moves).
func selfUCI() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find Squall's own binary to run as a UCI engine: %w", err)
	}
	return "'" + strings.ReplaceAll(exe, "'", `'\''`) + "' uci", nil
}
