package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/pgn"
)

// WriteFileAtomic replaces path with data so that a crash leaves either the
// old file or the new one, never a mix: temp file in the same directory,
// fsync, rename. It creates the directory if needed (the settings and the
// autosave live in directories a first run has not made yet). Games the user
// saves go through pgn.WriteFile; the autosave comes here because it keeps
// the earlier games of its file byte for byte, unparsed.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	// CreateTemp makes the file private; the saved file keeps the old
	// one's permissions, or gets the usual ones.
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return fmt.Errorf("save %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// savedMsg reports a finished save.
type savedMsg struct {
	path string
	err  error
}

// saveCmd writes one game to a PGN file with package pgn, atomically.
func saveCmd(path string, g *pgn.Game) tea.Cmd {
	return func() tea.Msg {
		return savedMsg{path: path, err: pgn.WriteFile(path, []*pgn.Game{g})}
	}
}

// autosaver writes the game in progress, in order, from one goroutine:
// saves issued as commands would run concurrently and an older state
// could land last. Update hands it each new state; Close waits for it.
type autosaver struct {
	path string
	ch   chan []byte
	done chan struct{}
	once sync.Once
}

func newAutosaver(path string) *autosaver {
	a := &autosaver{path: path, ch: make(chan []byte, 64), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		for data := range a.ch {
			// Only the newest state matters: skip those already superseded.
			for more := true; more; {
				select {
				case d, ok := <-a.ch:
					if !ok {
						more = false
						break
					}
					data = d
				default:
					more = false
				}
			}
			_ = WriteFileAtomic(a.path, data) // a failed autosave is retried with the next move
		}
	}()
	return a
}

// save queues a new state of the file.
func (a *autosaver) save(data []byte) { a.ch <- data }

// close flushes pending writes and stops the writer.
func (a *autosaver) close() {
	a.once.Do(func() { close(a.ch) })
	<-a.done
}

// readAutosavePrefix reads the games already in the autosave file, ending
// in the blank line that must separate them from the next game.
func readAutosavePrefix(path string) []byte {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return nil
	}
	for !bytes.HasSuffix(b, []byte("\n\n")) {
		b = append(b, '\n')
	}
	return b
}
