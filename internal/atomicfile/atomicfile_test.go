package atomicfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// files lists the names in dir, to catch temporary files left behind.
func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileModes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.pgn")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	// A new file gets the usual permissions, not the temporary file's
	// private ones; a replaced file keeps its own.
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("new file: mode %v, %v; want 0644", fi.Mode(), err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Fatalf("content %q, want two", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("files %v, want only g.pgn", got)
	}
}

// TestDiscardKeepsOriginal abandons a half-written new version, as a caller
// does when producing the contents fails.
func TestDiscardKeepsOriginal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "book.bin")
	os.WriteFile(path, []byte("old"), 0o644)
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, 1<<16)); err != nil {
		t.Fatal(err)
	}
	if len(files(t, dir)) != 2 {
		t.Fatalf("no temporary file beside the target while writing: %v", files(t, dir))
	}
	f.Discard()
	f.Discard() // harmless twice
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("original changed to %d bytes", len(b))
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("temporary file left behind: %v", got)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after Discard succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatal("Commit after Discard changed the file")
	}
}

func TestCommitOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.go")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Discard() // a no-op after Commit: must not remove the target
	f.Write([]byte("package x\n"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err == nil {
		t.Error("second Commit succeeded")
	}
	f.Discard()
	if b, err := os.ReadFile(path); err != nil || string(b) != "package x\n" {
		t.Fatalf("after Commit and Discard: %q, %v", b, err)
	}
}

func TestMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "f.epd")
	err := WriteFile(path, []byte("x"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v: want not-exist naming %s", err, path)
	}
	// The user's file is named, never the temporary one (issue 32).
	if strings.Contains(err.Error(), ".tmp") || strings.Count(err.Error(), "f.epd") != 1 {
		t.Errorf("error %q names the temporary file", err)
	}
}

// TestKilledWriteKeepsOriginal kills a process in the middle of writing.
func TestKilledWriteKeepsOriginal(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_KILLED"); path != "" {
		f, err := Create(path)
		if err != nil {
			os.Exit(2)
		}
		f.Write(make([]byte, 200<<10))
		os.Exit(3) // dies with the temporary file half written
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "games.pgn")
	original := []byte("[Event \"keep me\"]\n\n1. e4 *\n")
	os.WriteFile(path, original, 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriteKeepsOriginal$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_KILLED="+path)
	var ee *exec.ExitError
	if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("child process: %v, want exit status 3", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(original) {
		t.Fatal("original file changed by a killed write")
	}
	// The dead process's temporary file is hidden and named after the
	// target, so the user can tell what it was.
	for _, name := range files(t, dir) {
		if name != "games.pgn" && !strings.HasPrefix(name, ".games.pgn.") {
			t.Errorf("unexpected file %q", name)
		}
	}
}
