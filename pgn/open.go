package pgn

import (
	"fmt"
	"os"
)

// OpenFile opens the PGN file name for reading, with what it is now (its
// size, for a reader's progress; its time, for a list's stamp). A directory
// is refused by name: opened as a file it would fail on its first read with
// "read X: is a directory", which says less. Every command and screen that
// reads a PGN file opens it here.
func OpenFile(name string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if fi.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory, not a PGN file", name)
	}
	return f, fi, nil
}
