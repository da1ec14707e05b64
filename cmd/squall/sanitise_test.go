package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squall-chess/squall/termtext"
)

// TestCLIOutputSanitised is issue 18's B3 on the command line: a PGN whose
// moves and tags hold terminal escapes (ESC c resets a terminal; ESC[2J
// clears it) is reported by every command that reads it without one raw
// control byte, the escape shown as ␛ instead.
func TestCLIOutputSanitised(t *testing.T) {
	dir := t.TempDir()
	esc := filepath.Join(dir, "esc.pgn")
	if err := os.WriteFile(esc, []byte("[Event \"x\"]\n\n1. e4 e5\x1bc *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"review", esc, "--out", filepath.Join(dir, "out.pgn"), "--nodes", "100"},
		{"book", "build", "--pgn", esc, "--out", filepath.Join(dir, "b.bin")},
		{"squall\x1b[2J"},
	} {
		var stdout, stderr bytes.Buffer
		run(args, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if _, r, ok := termtext.Unsafe(out, false); !ok {
			t.Errorf("squall %q printed a raw %q:\n%q", args, r, out)
		}
		if args[0] != "squall\x1b[2J" && !strings.Contains(out, "e5␛") {
			t.Errorf("squall %q does not show the bad move as e5␛ (ESC c one mark):\n%s", args, out)
		}
	}
}
