package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadEngineOption: every command that takes an engine reads --engine
// and --option the same way (engine/spec), and a value the engine refuses
// gives the same one-line error on each, before anything is played,
// searched or written. (Three policies before: match lost games to it,
// the board ignored it, review never took options.)
func TestBadEngineOption(t *testing.T) {
	t.Setenv(runMainEnv, "1") // endgames runs Squall as a UCI child: this binary
	dir := t.TempDir()
	game := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(game, []byte("[Event \"x\"]\n\n1. e4 e5 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = `engine Squall`
	const wantOpt = `option Hash: "huge" is not an integer`
	for _, c := range []struct {
		name string
		args []string
	}{
		{"board", []string{"tui", "--option", "Hash=huge"}},
		{"suite", []string{"suite", "wac", "--nodes", "1", "--option", "Hash=huge"}},
		{"review", []string{"review", game, "--out", filepath.Join(dir, "r.pgn"), "--nodes", "1", "--option", "Hash=huge"}},
		{"match", []string{"match", "--engine", "squall", "--engine", "squall", "--option", "2:Hash=huge", "--games", "2"}},
		{"datagen", []string{"datagen", "--out", filepath.Join(dir, "d.epd"), "--games", "1", "--option", "Hash=huge"}},
		{"endgames", []string{"endgames", "--syzygy", tablesDir, "--count", "1", "--engine", "squall", "--engine", "squall", "--option", "2:Hash=huge"}},
		{"serve", []string{"serve", "--listen", "127.0.0.1:0", "--option", "Hash=huge"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(c.args, &out, &errOut); code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			msg := strings.TrimSpace(errOut.String())
			if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, want) || !strings.Contains(msg, wantOpt) {
				t.Errorf("stderr %q, want one line with %q and %q", msg, want, wantOpt)
			}
			if _, err := os.Stat(filepath.Join(dir, "d.epd")); c.name == "datagen" && err == nil {
				t.Error("datagen created its output before checking the engine")
			}
		})
	}
}
