package gamelist

import (
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/pgn"
)

// A row is one game of the list: the tags it shows and filters on, and
// where its bytes are. A 200 MB file has some 200,000 games, so a row is
// small: its texts are numbers into the list's table of names (each
// distinct text once: players and events repeat), copied off the
// reader's text so that nothing keeps a whole game's tags alive, and it
// keeps no tag it neither shows nor filters on.
type row struct {
	offset     int64 // of the game's first byte; its bytes run to the next game's
	line       int32 // of that byte, for ReadGameAt's errors
	num        int32 // 1-based, in file order
	plies      int32
	welo, belo int16 // 0: unrated
	white      name
	black      name
	result     name
	date       name
	event      name
	eco        name
	opening    name
	variation  name
}

// A name is a text of the rows: an index into the list's names.
type name uint32

// names is the table of the texts rows hold; 0 is "".
type names []string

// tagger reads a row's tags, as pgn.Filter.MatchTags asks: the row keeps
// every tag a Filter reads. One serves every row, so that filtering
// allocates nothing per game.
type tagger struct {
	n names
	r *row
}

func (t *tagger) tag(tag string) string {
	r, n := t.r, t.n
	switch tag {
	case "White":
		return n[r.white]
	case "Black":
		return n[r.black]
	case "WhiteElo":
		return elo(r.welo)
	case "BlackElo":
		return elo(r.belo)
	case "Date":
		return n[r.date]
	case "Event":
		return n[r.event]
	case "ECO":
		return n[r.eco]
	case "Opening":
		return n[r.opening]
	case "Variation":
		return n[r.variation]
	}
	return ""
}

func elo(e int16) string {
	if e <= 0 {
		return ""
	}
	return strconv.Itoa(int(e))
}

// stamp says whether a file is still the one listed: its size and time of
// change, and the hash of its bytes as they were read (for the board, which
// saves a game back in place only into the file it read).
type stamp struct {
	size int64
	mod  time.Time
	sum  [sha256.Size]byte
}

// changed reports whether the file at path is no longer the one stamped.
func (s stamp) changed(path string) bool {
	fi, err := os.Stat(path)
	return err != nil || fi.Size() != s.size || !fi.ModTime().Equal(s.mod)
}

// A batch is what the loader sends: rows in file order with the names
// first seen in them (to append to the list's table), or its end (done,
// with the file's stamp, or err).
type batch struct {
	rows  []row
	names names
	read  int64 // bytes read so far
	size  int64
	done  bool
	stamp stamp
	err   error
}

// First batches are sent as soon as a screen's worth is read, so the first
// screen shows at once; later ones every batchEvery, so the count moves
// without a message per game.
const (
	firstRows  = 200
	batchEvery = 100 * time.Millisecond
)

// load skims the file at path (pgn.Reader.NextEntry: tags only, moves not
// checked) and sends its rows in batches on out, then a last batch with
// done set; it returns when the file is read or ctx is done. The channel
// is closed at the end.
func load(ctx context.Context, path string, out chan<- batch) {
	defer close(out)
	send := sender(ctx, out)
	f, fi, err := pgn.OpenFile(path)
	if err != nil {
		send(batch{err: err, done: true})
		return
	}
	defer f.Close()
	h := sha256.New()
	cr := &countingReader{r: f, h: h}
	rd := pgn.NewReader(cr, path)
	in := interner{index: map[string]name{"": 0}, all: 1}
	var rows []row
	last := time.Now()
	sent := 0 // rows sent so far
	for {
		if ctx.Err() != nil {
			return
		}
		e, err := rd.NextEntry()
		if err == io.EOF {
			break
		}
		if err != nil {
			send(batch{rows: rows, read: cr.n, size: fi.Size(), err: err, done: true})
			return
		}
		rows = append(rows, in.row(&e, int32(sent+len(rows)+1)))
		if sent == 0 && len(rows) >= firstRows || time.Since(last) >= batchEvery {
			if !send(batch{rows: rows, names: in.take(), read: cr.n, size: fi.Size()}) {
				return
			}
			sent += len(rows)
			rows = nil
			last = time.Now()
		}
	}
	var st stamp
	st.size, st.mod = fi.Size(), fi.ModTime()
	copy(st.sum[:], h.Sum(nil))
	send(batch{rows: rows, names: in.take(), read: cr.n, size: fi.Size(), done: true, stamp: st})
}

// countingReader counts the bytes read and hashes them, if h is set.
type countingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.h != nil {
		c.h.Write(p[:n])
	}
	return n, err
}

// interner numbers the rows' texts, each distinct one once; the map is
// the loader's alone and goes when the file is read.
type interner struct {
	index map[string]name
	all   name  // names numbered so far
	fresh names // numbered since the last take
}

func (in *interner) get(s string) name {
	if v, ok := in.index[s]; ok {
		return v
	}
	s = strings.Clone(s)
	v := in.all
	in.index[s] = v
	in.all++
	in.fresh = append(in.fresh, s)
	return v
}

// take hands over the names numbered since the last take, in order.
func (in *interner) take() names {
	out := in.fresh
	in.fresh = nil
	return out
}

// row makes the row of an entry.
func (in *interner) row(e *pgn.Entry, num int32) row {
	r := row{offset: e.Offset, line: int32(e.Line), num: num, plies: int32(e.Plies), result: in.get(e.Result)}
	for _, t := range e.Tags {
		switch t.Name {
		case "White":
			r.white = in.get(t.Value)
		case "Black":
			r.black = in.get(t.Value)
		case "WhiteElo":
			r.welo = rating(t.Value)
		case "BlackElo":
			r.belo = rating(t.Value)
		case "Date":
			r.date = in.get(t.Value)
		case "Event":
			r.event = in.get(t.Value)
		case "ECO":
			r.eco = in.get(t.Value)
		case "Opening":
			r.opening = in.get(t.Value)
		case "Variation":
			r.variation = in.get(t.Value)
		}
	}
	return r
}

// rating is a rating tag's value, 0 when unrated or out of range.
func rating(v string) int16 {
	e, ok := pgn.Elo(v)
	if !ok || e > 9999 {
		return 0
	}
	return int16(e)
}

// sender is a send on out that gives up, reporting false, once ctx is
// done: the file readers' (load, replay) way to stop when the list goes.
func sender[T any](ctx context.Context, out chan<- T) func(T) bool {
	return func(v T) bool {
		select {
		case out <- v:
			return true
		case <-ctx.Done():
			return false
		}
	}
}
