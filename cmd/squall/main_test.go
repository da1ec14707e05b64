package main

import (
	"io"
	"os"
	"testing"
)

// runMainEnv makes the test binary behave as squall itself when set: tests
// of commands that start Squall as a UCI child (os.Executable() + "uci")
// then get a working engine.
const runMainEnv = "SQUALL_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// Every child the tests start from this binary is squall: serve's
	// engines (selfUCI) included, which no test starts by hand.
	os.Setenv(runMainEnv, "1")
	os.Exit(m.Run())
}

// execute runs the command name with args as run does, but returns the
// error instead of printing it.
func execute(name string, args []string, stdout, stderr io.Writer) error {
	root := newRoot()
	root.SetArgs(append([]string{name}, args...))
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SilenceErrors, root.SilenceUsage = true, true
	return root.Execute()
}
