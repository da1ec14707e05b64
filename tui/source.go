package tui

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/pgn"
)

// A game opened from a file remembers where its bytes are, so that saving
// it back to that file replaces those bytes and nothing else: the other
// games of a multi-game file stay byte for byte (issue 18, B2: saving game 2
// of a 3-game file over the file left one game in it).

// pgnFile is a PGN file games were opened from, as it was when read (or
// last saved into by the board).
type pgnFile struct {
	path  string
	sum   [sha256.Size]byte // of the whole file: a changed file is not spliced
	games []*gameSource     // every game opened from it, in file order
}

// gameSource locates one game's bytes in its file: [offset, end), end -1
// meaning to the end of the file. A game's bytes run up to the next game's
// first byte, so the blank lines after it are its own.
type gameSource struct {
	file        *pgnFile
	number      int // 1-based, among all the file's games
	offset, end int64
}

// samePath reports whether two paths name the same file, as far as their
// absolute, cleaned forms tell.
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// splice returns data with [off, end) replaced by game (end -1: to the
// end).
func splice(data []byte, off, end int64, game []byte) ([]byte, error) {
	if end < 0 {
		end = int64(len(data))
	}
	if off < 0 || off > end || end > int64(len(data)) {
		return nil, fmt.Errorf("game at bytes %d–%d is outside the file's %d", off, end, len(data))
	}
	out := make([]byte, 0, int64(len(data))-(end-off)+int64(len(game)))
	out = append(out, data[:off]...)
	out = append(out, game...)
	return append(out, data[end:]...), nil
}

// replacedMsg reports a game saved back into its own file: the game's
// bytes grew by delta, and the file's new hash is sum.
type replacedMsg struct {
	src   *gameSource
	delta int64
	sum   [sha256.Size]byte
	err   error
	rev   int // the tree's revision that was saved
}

// replaceCmd writes g over its own bytes in the file it came from, unless
// the file has changed since (then nothing is written and the error says
// so). The command gets copies of what it needs: src itself is changed
// only by Update, when the message arrives.
func replaceCmd(src *gameSource, g *pgn.Game, rev int) tea.Cmd {
	path, sum, off, end := src.file.path, src.file.sum, src.offset, src.end
	return func() tea.Msg {
		fail := func(err error) tea.Msg {
			return replacedMsg{src: src, err: fmt.Errorf("save %s: %w", path, err)}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fail(err)
		}
		if sha256.Sum256(data) != sum {
			return fail(errors.New("the file has changed since it was opened; save under another name"))
		}
		game, err := pgn.AppendGame(nil, g)
		if err != nil {
			return fail(err)
		}
		out, err := splice(data, off, end, game)
		if err != nil {
			return fail(err)
		}
		if err := atomicfile.WriteFile(path, out); err != nil {
			return fail(err)
		}
		oldLen := end - off
		if end < 0 {
			oldLen = int64(len(data)) - off
		}
		return replacedMsg{src: src, delta: int64(len(game)) - oldLen, sum: sha256.Sum256(out), rev: rev}
	}
}

// handleReplaced moves the other games of the file by the change in length
// of the one saved, so that they too can be saved back in place.
func (m *Model) handleReplaced(msg replacedMsg) {
	if msg.err != nil {
		m.setError(msg.err)
		return
	}
	src := msg.src
	f := src.file
	for _, s := range f.games {
		if s.offset > src.offset {
			s.offset += msg.delta
			if s.end >= 0 {
				s.end += msg.delta
			}
		}
	}
	if src.end >= 0 {
		src.end += msg.delta
	}
	f.sum = msg.sum
	others := len(f.games) - 1
	note := ""
	if others > 0 {
		note = " (the file's other games unchanged)"
	}
	m.setMessage(fmt.Sprintf("saved game %d back into %s%s", src.number, f.path, note))
}

// existsMsg asks whether to replace a file that is not the one the game
// came from.
type existsMsg struct {
	path string
	g    *pgn.Game
	rev  int
}

// saveCmd writes one game to a PGN file with package pgn, atomically. An
// existing file is replaced only with overwrite; otherwise the command
// comes back to ask. rev is the tree's revision being saved.
func saveCmd(path string, g *pgn.Game, overwrite bool, rev int) tea.Cmd {
	return func() tea.Msg {
		if !overwrite {
			if _, err := os.Stat(path); err == nil {
				return existsMsg{path: path, g: g, rev: rev}
			}
		}
		return savedMsg{path: path, err: pgn.WriteFile(path, []*pgn.Game{g}), game: true, rev: rev}
	}
}

// saveTo saves the game on the board to path: back into its own place when
// path is the file it came from, otherwise as the file's only game.
func (m *Model) saveTo(path string) tea.Cmd {
	g := m.tree.Export()
	if src := m.tree.source; src != nil && samePath(src.file.path, path) {
		if m.tree.partial != nil {
			m.cancelQuit()
			m.setError(fmt.Errorf("game %d was read only up to its error (%v): saved into %s it would replace the whole game; save it under another name",
				src.number, m.tree.partial, path))
			return nil
		}
		return replaceCmd(src, g, m.treeRev)
	}
	return saveCmd(path, g, false, m.treeRev)
}
