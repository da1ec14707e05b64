package main

import (
	"fmt"
	"io"
	"os"

	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/uci"
)

// runUCI speaks UCI on standard input and output, for chess GUIs and
// match runners.
func runUCI(args []string, stdout, stderr io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprintln(stdout, "usage: squall uci\n\nSpeaks UCI on standard input and output: run it from a chess GUI or a match runner.\nOptions are set with setoption; 'uci' lists them.")
		return errHelp
	}
	if len(args) > 0 {
		return fmt.Errorf("takes no arguments (it reads UCI commands from standard input)")
	}
	s := search.New()
	defer s.Close()
	return uci.NewServer(s, stdout).Run(os.Stdin)
}
