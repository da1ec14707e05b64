package pgn

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "games.pgn")
	text := "[Event \"x\"]\n\n1. e4 *\n"
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := OpenFile(name)
	if err != nil {
		t.Fatalf("OpenFile(%s): %v", name, err)
	}
	defer f.Close()
	if fi.Size() != int64(len(text)) {
		t.Errorf("size %d, want %d", fi.Size(), len(text))
	}
	if _, _, err := OpenFile(dir); err == nil || !strings.Contains(err.Error(), dir+" is a directory, not a PGN file") {
		t.Errorf("OpenFile(directory) = %v, want it refused by name", err)
	}
	if _, _, err := OpenFile(filepath.Join(dir, "none.pgn")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenFile(missing) = %v, want fs.ErrNotExist", err)
	}
}
