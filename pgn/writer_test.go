package pgn

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func sampleGames(t *testing.T) []*Game {
	t.Helper()
	data, err := os.ReadFile("testdata/notnil-chess/0006.pgn")
	if err != nil {
		t.Fatal(err)
	}
	games, _ := readAll(t, "0006", data)
	return games
}

func TestWriteFileAndAppend(t *testing.T) {
	games := sampleGames(t)
	path := filepath.Join(t.TempDir(), "out.pgn")
	if err := WriteFile(path, games[:2]); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := AppendFile(path, games[2:]...); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(after), string(before)) {
		t.Fatal("AppendFile changed the games already in the file")
	}
	back, errs := readAll(t, path, after)
	if len(back) != len(games) || len(errs) != 0 {
		t.Fatalf("read back %d games (%v), want %d", len(back), errs, len(games))
	}
	for i := range games {
		back[i].Offset, back[i].Line = games[i].Offset, games[i].Line
		if !sameGame(games[i], back[i]) {
			t.Errorf("game %d changed", i)
		}
	}
	// Appending to a file that does not end in a newline still separates.
	os.WriteFile(path, []byte("1. e4 e5 *"), 0o644)
	if err := AppendFile(path, games[0]); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if back, errs := readAll(t, path, data); len(back) != 2 || len(errs) != 0 {
		t.Errorf("after append to unterminated file: %d games, %v", len(back), errs)
	}
}

// TestFailedSaveKeepsOriginal injects a writer that fails half-way.
func TestFailedSaveKeepsOriginal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.pgn")
	original := []byte("[Event \"keep me\"]\n\n1. e4 *\n")
	if err := os.WriteFile(path, original, 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := writeFileAtomic(path, func(w io.Writer) error {
		w.Write(make([]byte, 100<<10)) // more than the buffer: reaches the temp file
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want disk full", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(original) {
		t.Fatal("original file changed by a failed save")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
	// A successful save keeps the file's permissions.
	if err := WriteFile(path, sampleGames(t)); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after save, want 0600", fi.Mode().Perm())
	}
}

// TestKilledSaveKeepsOriginal kills a process in the middle of WriteFile.
func TestKilledSaveKeepsOriginal(t *testing.T) {
	if path := os.Getenv("PGN_KILLED_SAVE"); path != "" {
		writeFileAtomic(path, func(w io.Writer) error {
			w.Write(make([]byte, 200<<10))
			os.Exit(3) // dies with the temp file half written
			return nil
		})
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "games.pgn")
	original := []byte("[Event \"keep me\"]\n\n1. e4 *\n")
	os.WriteFile(path, original, 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledSaveKeepsOriginal$")
	cmd.Env = append(os.Environ(), "PGN_KILLED_SAVE="+path)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("helper process: %v", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(original) {
		t.Fatal("original file changed by a killed save")
	}
	games, errs := readAll(t, path, got)
	if len(games) != 1 || len(errs) != 0 {
		t.Fatal("original no longer reads")
	}
}

// TestNoLoneCloseParen: the writer never starts a line with ')': when a
// variation's ')' does not fit, the token before it goes to the next line
// with it. Every length of the text before the ')' is tried, with a
// comment, a move or a NAG last, and nested variations; each game still
// reads back as the same tree.
func TestNoLoneCloseParen(t *testing.T) {
	n := 0
	for pad := 1; pad <= 2*lineWidth; pad++ {
		word := strings.Repeat("x", pad%lineWidth+1)
		long := strings.TrimSpace(strings.Repeat("ab ", pad/3) + strings.Repeat("c", pad%3))
		for _, in := range []string{
			"1. e4 e5 (1... c5 {" + word + "}) 2. Nf3 *",
			"1. e4 {" + long + "} e5 (1... c5 2. Nf3) 2. Nf3 *",
			"1. e4 {" + long + "} e5 (1... c5 2. Nf3 $1) 2. Nf3 *",
			"1. e4 {" + long + "} e5 (1... c5 2. Nf3 (2. c3 d5)) 2. Nf3 *",
			"{" + long + "} 1. e4 (1. d4 (1. c4 {" + word + "})) *",
		} {
			games, errs := readAll(t, "x", []byte(in))
			if len(games) != 1 || len(errs) != 0 {
				t.Fatalf("%q: %d games, %v", in, len(games), errs)
			}
			out := games[0].String()
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, ")") {
					t.Fatalf("a line starts with ')':\n%s", out)
				}
			}
			back, errs := readAll(t, "out", []byte(out))
			if len(back) != 1 || len(errs) != 0 || !sameTree(back[0].Root, games[0].Root) {
				t.Fatalf("%q: written game reads back differently (%v):\n%s", in, errs, out)
			}
			n++
		}
	}
	// The repository's games too.
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, _ := readAll(t, f, data)
		for i, g := range games {
			for _, l := range strings.Split(g.String(), "\n") {
				if strings.HasPrefix(l, ")") {
					t.Errorf("%s game %d: a line starts with ')': %q", f, i+1, l)
				}
			}
		}
	}
}
