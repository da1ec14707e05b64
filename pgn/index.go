package pgn

import (
	"fmt"
	"io"
	"iter"
)

// Entry locates one game in a file without its moves: enough to list a
// large file and open one game with ReadGameAt.
type Entry struct {
	Offset int64 // of the game's first byte
	Line   int   // 1-based line of that byte
	// Tags are as read, in file order (not normalized: no filled-in Seven
	// Tag Roster).
	Tags []Tag
	// Result is the termination marker, else a valid Result tag, else "*".
	Result string
	// Plies counts the main line's moves as skimmed: neither checked nor
	// replayed, so a game with an illegal move counts the moves written.
	Plies int
}

// Tag returns the value of the named tag ("" if absent).
func (e *Entry) Tag(name string) string {
	if i := tagIndex(e.Tags, name); i >= 0 {
		return e.Tags[i].Value
	}
	return ""
}

// NextEntry skims the next game: its tags are read but its moves are
// neither checked nor stored, which is several times faster than Next.
// It returns io.EOF at the end. Games end exactly where Next would end
// them, so an Entry's Offset is where Next would have started that game.
func (r *Reader) NextEntry() (Entry, error) {
	g, _, err := r.readGame(skim)
	if g == nil {
		return Entry{}, err
	}
	return Entry{Offset: g.Offset, Line: g.Line, Tags: g.Tags, Result: g.Result, Plies: r.skimmed}, nil
}

// Entries yields an Entry for every game; see NextEntry. Problems inside a
// game are not reported (Next reports them); a read error ends the
// sequence with a zero Entry and the error.
func (r *Reader) Entries() iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for {
			e, err := r.NextEntry()
			if err == io.EOF {
				return
			}
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// Index skims r and returns an Entry for every game.
func Index(r io.Reader) ([]Entry, error) {
	var out []Entry
	for e, err := range NewReader(r, "").Entries() {
		if err != nil {
			return out, err
		}
		out = append(out, e)
	}
	return out, nil
}

// ReadGameAt reads the game that e locates in ra (the file e came from);
// name is used in error positions, which are those of the whole file.
func ReadGameAt(ra io.ReaderAt, e Entry, name string) (*Game, error) {
	r := NewReader(io.NewSectionReader(ra, e.Offset, 1<<62), name)
	r.src.reset(r.src.rd, e.Offset, e.Line)
	g, err := r.Next()
	if err == io.EOF {
		return nil, fmt.Errorf("pgn: no game at offset %d of %s", e.Offset, r.nameOr("input"))
	}
	return g, err
}
