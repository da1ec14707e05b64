package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/squall-chess/squall/internal/atomicfile"
)

// writeFile replaces path with data atomically (package atomicfile),
// creating its directory first: the settings and the autosave live in
// directories a first run has not made yet. Games the user saves go through
// pgn.WriteFile; the autosave comes here because it keeps the earlier games
// of its file byte for byte, unparsed.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return atomicfile.WriteFile(path, data)
}

// savedMsg reports a finished save: of the game (game set, rev the tree's
// revision that was written) or of the settings.
type savedMsg struct {
	path string
	err  error
	game bool
	rev  int
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
			if data == nil {
				_ = os.Remove(a.path) // nothing left to keep
				continue
			}
			_ = writeFile(a.path, data) // a failed autosave is retried with the next move
		}
	}()
	return a
}

// save queues a new state of the file; nil removes it.
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
