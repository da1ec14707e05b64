package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squall-chess/squall/pgn"
)

// squallPGN runs `squall pgn args…` and returns its exit status and output.
func squallPGN(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"pgn"}, args...), &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPGNCheck: every problem is printed with file:line:col, the move and
// the reason; the good games around it are still counted; a variant game is
// skipped, not an error; exit status 1 only when there is an error.
func TestPGNCheck(t *testing.T) {
	bad := writeTemp(t, "bad.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 Qxe4 *\n\n[Event \"c\"]\n\n1. d4 *\n")
	code, out := squallPGN(t, bad)
	for _, want := range []string{bad + ":7:39: move 4... Qxe4: ", bad + ": 3 games, 1 errors"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit status %d with an error, want 1", code)
	}

	variant := writeTemp(t, "zh.pgn", "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. P@d5 *\n\n[Event \"std\"]\n\n1. e4 *\n")
	code, out = squallPGN(t, variant)
	if code != 0 || !strings.Contains(out, "(skipped)") || !strings.Contains(out, variant+": 1 games, 0 errors, 1 skipped (variants)") {
		t.Errorf("variant file: exit %d\n%s", code, out)
	}
}

// TestPGNFEN: --fen prints the final position of each readable game.
func TestPGNFEN(t *testing.T) {
	f := writeTemp(t, "g.pgn", "[Event \"a\"]\n\n1. e4 e5 2. Nf3 (2. f4) Nc6 *\n")
	code, out := squallPGN(t, "--fen", f)
	want := f + ":1: r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, want %q in:\n%s", code, want, out)
	}
}

// TestPGNReformatRepositoryFiles runs `squall pgn --reformat` over every
// PGN file in the repository's test data: the written file reads back with
// no error and with the same games, export text for export text.
func TestPGNReformatRepositoryFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "pgn", "testdata", "*", "*.pgn"))
	if err != nil || len(files) < 40 {
		t.Fatalf("found %d PGN files: %v", len(files), err)
	}
	out := filepath.Join(t.TempDir(), "all.pgn")
	code, report := squallPGN(t, append([]string{"--reformat", out}, files...)...)
	if code != 1 { // two of the edge-case files hold an illegal move
		t.Errorf("exit status %d, want 1 (the corrupted files)", code)
	}
	for _, f := range files {
		if !strings.Contains(report, f+": ") {
			t.Errorf("no summary line for %s", f)
		}
	}
	var want []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for g, err := range pgn.Games(bytes.NewReader(data)) {
			if err == nil {
				want = append(want, g.String())
			}
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for g, err := range pgn.Games(bytes.NewReader(data)) {
		if err != nil {
			t.Fatalf("reformatted file: %v", err)
		}
		got = append(got, g.String())
	}
	if len(got) != len(want) {
		t.Fatalf("reformatted file holds %d games, the sources %d readable ones", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("game %d differs after reformatting:\n%s\nwant\n%s", i+1, got[i], want[i])
		}
	}
	if !strings.Contains(report, "games written to "+out) {
		t.Errorf("report lacks the written count:\n%s", report)
	}
	// The file exists now: replacing it needs --force.
	if code, msg := squallPGN(t, "--reformat", out, files[0]); code == 0 || !strings.Contains(msg, "--force") {
		t.Errorf("reformat over an existing file: exit %d, %s", code, msg)
	}
	if code, msg := squallPGN(t, "--reformat", out, "--force", filepath.Join("..", "..", "pgn", "testdata", "chess-library", "basic.pgn")); code != 0 {
		t.Errorf("--force: exit %d, %s", code, msg)
	}
}
