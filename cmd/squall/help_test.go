package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpAndMisspeltFlags: every command's -h prints its usage on stdout
// and exits 0; a misspelt flag is answered in two lines on stderr — the
// error and where to look — not with the whole usage (21 lines before).
func TestHelpAndMisspeltFlags(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			p := append(append([]string(nil), path...), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(newRoot(), nil)
	paths = append(paths, nil) // squall itself: the board
	if len(paths) < 18 {
		t.Fatalf("only %d commands: %v", len(paths), paths)
	}
	for _, path := range paths {
		name := strings.Join(append([]string{"squall"}, path...), " ")
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(append(path, "-h"), &out, &errOut); code != 0 || out.Len() == 0 || errOut.Len() != 0 {
				t.Errorf("%s -h: exit %d, %d bytes on stdout, stderr %q", name, code, out.Len(), errOut.String())
			}
			if !strings.Contains(out.String(), "squall") {
				t.Errorf("%s -h does not name the command:\n%s", name, out.String())
			}
			out.Reset()
			errOut.Reset()
			code := run(append(path, "--no-such-flag"), &out, &errOut)
			lines := strings.Split(strings.TrimRight(errOut.String(), "\n"), "\n")
			if code != 1 || len(lines) > 2 || !strings.Contains(lines[0], "no-such-flag") || !strings.Contains(errOut.String(), name+" -h'") {
				t.Errorf("%s --no-such-flag: exit %d, stderr:\n%s", name, code, errOut.String())
			}
		})
	}
}

// TestBoardHelpListsItsOptions: plain squall is the board, so squall -h
// lists the board's own options beside the commands.
func TestBoardHelpListsItsOptions(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"--theme", "--clock", "--engine", "--broadcast", "suite", "match", "completion"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("squall -h lacks %q:\n%s", want, out.String())
		}
	}
}

// TestFlagsAfterArguments: flags may follow the positional arguments, as
// `squall book probe BOOK --fen …` does (it failed with the flag package).
func TestFlagsAfterArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"perft", "2", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"}, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "Nodes searched: 9\n") {
		t.Errorf("perft 2 --fen …: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}

// TestMisspeltCommand: an argument that is neither a PGN file nor a
// command is a misspelt command, with a suggestion, not a file to open.
func TestMisspeltCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"sutie"}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), `unknown command "sutie" (did you mean suite?)`) {
		t.Errorf("squall sutie: exit %d, stderr:\n%s", code, errOut.String())
	}
}

// TestCompletion: the shell completions come from the same definitions.
func TestCompletion(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"completion", "bash"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "__start_squall") {
		t.Errorf("completion bash: exit %d, %d bytes, stderr %q", code, out.Len(), errOut.String())
	}
	out.Reset()
	// Cobra's hidden completion request: the flags of `squall match`.
	if code := run([]string{"__complete", "match", "--ga"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "--games") {
		t.Errorf("completing match --ga: exit %d:\n%s", code, out.String())
	}
}
