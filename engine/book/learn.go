package book

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/internal/atomicfile"
)

// Mark is a user's verdict on a book move, kept in the learning file.
type Mark uint8

const (
	Unmarked Mark = iota
	Never         // never play this move from the book
	Always        // prefer this move over every unmarked one
)

func (m Mark) String() string {
	switch m {
	case Never:
		return "never"
	case Always:
		return "always"
	}
	return "-"
}

// Result is a game's result for the side that played the book line.
type Result int

const (
	Loss Result = -1
	Draw Result = 0
	Win  Result = 1
)

// Played is one book move the engine chose during a game.
type Played struct {
	Key  uint64 // Polyglot key of the position
	Move uint16 // Polyglot code of the move played
}

// Learning holds what Squall has learned about a book's moves from its own
// games (typhoon's book learning) and the never/always marks a user set.
// It lives in a side file next to the book, so the book itself, often
// shared or read-only, is never rewritten. The zero value is not usable:
// make one with LoadLearning. A nil *Learning means "no learning".
//
// File format, one move a line, '#' comments:
//
//	<key as 16 hex digits> <move as Polyglot coordinates, e.g. e1h1> <score> <mark: - never always>
type Learning struct {
	path  string
	moves map[moveKey]learned
}

type moveKey struct {
	key  uint64
	code uint16
}

type learned struct {
	score int
	mark  Mark
}

// LearnPath is the conventional side file of a book: book.bin.learn.
func LearnPath(bookPath string) string { return bookPath + ".learn" }

// LoadLearning reads a learning file; a missing file is an empty start.
func LoadLearning(path string) (*Learning, error) {
	l := &Learning{path: path, moves: map[moveKey]learned{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("book learning: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, err := parseLearnLine(line)
		if err != nil {
			return nil, fmt.Errorf("book learning %s:%d: %w", path, n, err)
		}
		l.moves[k] = v
	}
	return l, nil
}

func parseLearnLine(line string) (moveKey, learned, error) {
	f := strings.Fields(line)
	if len(f) != 4 {
		return moveKey{}, learned{}, fmt.Errorf("want 4 fields (key move score mark), got %d", len(f))
	}
	key, err := strconv.ParseUint(f[0], 16, 64)
	if err != nil {
		return moveKey{}, learned{}, fmt.Errorf("key %q: not 16 hex digits", f[0])
	}
	code, err := ParseCode(f[1])
	if err != nil {
		return moveKey{}, learned{}, err
	}
	score, err := strconv.Atoi(f[2])
	if err != nil {
		return moveKey{}, learned{}, fmt.Errorf("score %q: not an integer", f[2])
	}
	var mark Mark
	switch f[3] {
	case "-":
	case "never":
		mark = Never
	case "always":
		mark = Always
	default:
		return moveKey{}, learned{}, fmt.Errorf("mark %q: want -, never or always", f[3])
	}
	return moveKey{key, code}, learned{score, mark}, nil
}

// Lookup returns the learning score and mark of a move (zero when unknown
// or when l is nil).
func (l *Learning) Lookup(key uint64, code uint16) (int, Mark) {
	if l == nil {
		return 0, Unmarked
	}
	v := l.moves[moveKey{key, code}]
	return v.score, v.mark
}

// Update credits a finished game's result to every book move the engine
// played in it: +1 for a win, −1 for a loss, nothing for a draw.
func (l *Learning) Update(line []Played, r Result) {
	if r == Draw {
		return
	}
	for _, p := range line {
		k := moveKey{p.Key, p.Move}
		v := l.moves[k]
		v.score = max(-maxScore, min(maxScore, v.score+int(r)))
		l.moves[k] = v
	}
}

// SetMark sets a user's never/always mark on a move (Unmarked clears it).
func (l *Learning) SetMark(key uint64, code uint16, m Mark) {
	k := moveKey{key, code}
	v := l.moves[k]
	v.mark = m
	l.moves[k] = v
}

// Save writes the learning file atomically (temporary file in the same
// directory, fsync, rename), so a crash never leaves it half written.
func (l *Learning) Save() error {
	keys := make([]moveKey, 0, len(l.moves))
	for k, v := range l.moves {
		if v != (learned{}) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].key != keys[j].key {
			return keys[i].key < keys[j].key
		}
		return keys[i].code < keys[j].code
	})
	var buf bytes.Buffer
	buf.WriteString("# Squall book learning: key move score mark\n")
	for _, k := range keys {
		v := l.moves[k]
		fmt.Fprintf(&buf, "%016x %s %d %s\n", k.key, CodeString(k.code), v.score, v.mark)
	}
	return atomicfile.WriteFile(l.path, buf.Bytes())
}
