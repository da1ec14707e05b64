// Package atomicfile replaces files so that a crash, a full disk or a
// killed process leaves either the old file or the complete new one, never
// half of either. Every file Squall writes for the user (saved games, the
// autosave, settings, books and their learning, suite results, generated
// weights, match PGN) goes through it.
//
// The new contents go to a temporary file in the target's directory (a
// rename is atomic only within one filesystem); Commit syncs it, renames it
// over the target and syncs the directory, so the rename itself survives a
// power cut where the system allows.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// File is the pending new version of a file. Write to it, then Commit; a
// File that is never committed (Discard, an error, or the process dying)
// leaves the target untouched. It is not safe for concurrent use.
type File struct {
	f       *os.File
	target  string
	mode    os.FileMode
	settled bool // committed or discarded
}

// Create starts a new version of path. The file keeps the permissions of
// the one it replaces, or gets 0644 when path is new: the temporary file is
// private until then. The directory must exist.
func Create(path string) (*File, error) {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, cause(err))
	}
	return &File{f: f, target: path, mode: mode}, nil
}

// Write adds p to the new contents.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		err = fmt.Errorf("write %s: %w", f.target, cause(err))
	}
	return n, err
}

// Commit makes the new contents the file at the target path. After a failed
// Commit the target is unchanged and the temporary file is gone.
func (f *File) Commit() error {
	if f.settled {
		return fmt.Errorf("write %s: already committed or discarded", f.target)
	}
	f.settled = true
	tmp := f.f.Name()
	err := f.f.Chmod(f.mode)
	if err == nil {
		err = f.f.Sync()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.target)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.target, cause(err))
	}
	// Best effort: not every system can sync a directory.
	if d, err := os.Open(filepath.Dir(f.target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Discard drops the new contents unless they were committed; deferring it
// right after Create cleans up on every early return.
func (f *File) Discard() {
	if f.settled {
		return
	}
	f.settled = true
	f.f.Close()
	os.Remove(f.f.Name())
}

// WriteFile replaces path with data.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// cause is err without the temporary file's name: the user asked to write
// the target, and "open /dir/.x.pgn.3208486534.tmp: no such file or
// directory" names a file they never heard of (issue 32).
func cause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
