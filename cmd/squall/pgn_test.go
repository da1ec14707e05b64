package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	for _, want := range []string{bad + ":7:39: move 4... Qxe4: ", bad + ": 3 games, 1 error"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit status %d with an error, want 1", code)
	}

	variant := writeTemp(t, "zh.pgn", "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. P@d5 *\n\n[Event \"std\"]\n\n1. e4 *\n")
	code, out = squallPGN(t, variant)
	if code != 0 || !strings.Contains(out, "(skipped)") || !strings.Contains(out, variant+": 1 game, 0 errors, 1 skipped (variants)") {
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

// TestPGNMalformed: the malformed files of issue 32 (W2) are errors with
// file:line:col and exit status 1, the game after each is still counted,
// and --reformat writes only that good game: the broken one is not
// silently mended.
func TestPGNMalformed(t *testing.T) {
	dir := filepath.Join("..", "..", "pgn", "testdata", "malformed")
	for _, tc := range []struct{ file, want string }{
		{"unclosed_tag.pgn", `:1:8: tag Event: value not closed by '"'`},
		{"unclosed_variation.pgn", ":5:7: variation '(' not closed by ')'"},
	} {
		f := filepath.Join(dir, tc.file)
		out := filepath.Join(t.TempDir(), "out.pgn")
		code, report := squallPGN(t, "--reformat", out, f)
		for _, want := range []string{f + tc.want, f + ": 2 games, 1 error\n", "1 game written to "} {
			if !strings.Contains(report, want) {
				t.Errorf("%s: output lacks %q:\n%s", tc.file, want, report)
			}
		}
		if code != 1 {
			t.Errorf("%s: exit status %d, want 1", tc.file, code)
		}
		data, _ := os.ReadFile(out)
		if n := strings.Count(string(data), "[Event "); n != 1 || !strings.Contains(string(data), `[Event "After"]`) {
			t.Errorf("%s: --reformat wrote %d games:\n%s", tc.file, n, data)
		}
	}
}

// TestPGNDirectory: a directory named as a PGN file is an error that says
// so, exit status 1, not "0 games, 0 errors".
func TestPGNDirectory(t *testing.T) {
	dir := t.TempDir()
	code, out := squallPGN(t, dir)
	if code != 1 || !strings.Contains(out, dir+" is a directory") || strings.Contains(out, "0 games") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestPGNPlurals: one game, one error — never "1 games, 1 errors".
func TestPGNPlurals(t *testing.T) {
	one := writeTemp(t, "one.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n")
	out := filepath.Join(t.TempDir(), "out.pgn")
	if code, report := squallPGN(t, "--reformat", out, one); code != 0 || !strings.Contains(report, one+": 1 game, 0 errors\n") || !strings.Contains(report, "1 game written to") {
		t.Errorf("exit %d:\n%s", code, report)
	}
	bad := writeTemp(t, "bad.pgn", "[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n")
	if code, report := squallPGN(t, bad); code != 1 || !strings.Contains(report, bad+": 1 game, 1 error\n") {
		t.Errorf("exit %d:\n%s", code, report)
	}
}

// badPGN says which of the repository's PGN files must fail `squall pgn`:
// every file in a directory named malformed, and the three fixtures that
// hold an illegal move on purpose, each kept where its tests (and, for the
// upstream two, docs/DATA.md) expect it: chess-library's corrupted.pgn,
// cut off mid-move, and black2move.pgn, which castles through its own
// queen, and the board's annotated.pgn, whose second game plays 2. Ke3.
func badPGN(path string) bool {
	path = filepath.ToSlash(path)
	return strings.Contains("/"+path, "/malformed/") ||
		strings.HasSuffix(path, "pgn/testdata/chess-library/corrupted.pgn") ||
		strings.HasSuffix(path, "pgn/testdata/chess-library/black2move.pgn") ||
		strings.HasSuffix(path, "tui/testdata/pgn/annotated.pgn")
}

// repositoryPGNFiles lists every PGN file the repository tracks (git
// ls-files), relative to this package's directory; without git, every
// .pgn file under a testdata directory.
func repositoryPGNFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var files []string
	cmd := exec.Command("git", "ls-files", "*.pgn")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		for _, f := range strings.Fields(string(out)) {
			files = append(files, filepath.Join(root, filepath.FromSlash(f)))
		}
		return files
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".pgn") && strings.Contains(filepath.ToSlash(path), "/testdata/") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// errorLine is a problem as `squall pgn` prints it: file:line:col: reason.
var errorLine = regexp.MustCompile(`(?m)^(.+):(\d+):(\d+): \S`)

// TestPGNRepositoryFiles (issue 32, acceptance 3): `squall pgn` on every
// PGN file in the repository — the malformed ones exit 1 with a
// file:line:col error, every other one exits 0 with no error.
func TestPGNRepositoryFiles(t *testing.T) {
	files := repositoryPGNFiles(t)
	var bad int
	for _, f := range files {
		code, out := squallPGN(t, f)
		if !badPGN(f) {
			if code != 0 || errorLine.MatchString(out) {
				t.Errorf("%s: exit status %d, want 0:\n%s", f, code, out)
			}
			continue
		}
		bad++
		m := errorLine.FindStringSubmatch(out)
		if code != 1 || m == nil || m[1] != f {
			t.Errorf("%s: exit status %d, want 1 with a %s:line:col error:\n%s", f, code, f, out)
		}
	}
	if len(files) < 46 || bad < 5 {
		t.Errorf("%d PGN files, %d of them malformed: the list is wrong", len(files), bad)
	}
}
