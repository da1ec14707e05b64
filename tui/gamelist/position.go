package gamelist

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/livecmd"
)

// Find by position (issue 36): the list's rows are skimmed tags, so a
// filter with a position (fen=) replays the file's games in the
// background, as the loader reads it, each judged by pgn.Game.ReachesAt
// (the rule of pgn.Filter.Position and squall pgn --filter fen=). The
// games found arrive in batches with the move each played next; a row is
// shown once both it and its verdict have arrived, whichever comes first.

// found is a game that reaches the position: where it starts (its row's
// offset) and the move it played next ("" where it ended there).
type found struct {
	offset int64
	next   string
}

// A replayBatch is what the replay sends: the games found since the last
// batch, how far it has read, and its end (done, or err).
type replayBatch struct {
	found      []found
	read, size int64
	done       bool
	err        error
}

// replay reads every game of the file at path with its moves and sends
// those whose main line reaches target on out, in batches every
// batchEvery, then one with done set; it returns when the file is read or
// ctx is done. A game with a problem is passed over, as squall pgn
// --filter passes it over. The channel is closed at the end.
func replay(ctx context.Context, path string, target *chess.Position, out chan<- replayBatch) {
	defer close(out)
	send := sender(ctx, out)
	f, fi, err := pgn.OpenFile(path)
	if err != nil {
		send(replayBatch{err: err, done: true})
		return
	}
	defer f.Close()
	cr := &countingReader{r: f}
	rd := pgn.NewReader(cr, path)
	var got []found
	last := time.Now()
	for {
		if ctx.Err() != nil {
			return
		}
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		var perr *pgn.Error
		if errors.Is(err, pgn.ErrVariant) || errors.As(err, &perr) {
			continue
		}
		if err != nil {
			send(replayBatch{found: got, read: cr.n, size: fi.Size(), err: err, done: true})
			return
		}
		if next, ok := g.ReachesAt(target); ok {
			fd := found{offset: g.Offset}
			if next != nil {
				fd.next = next.SAN
			}
			got = append(got, fd)
		}
		if time.Since(last) >= batchEvery {
			if !send(replayBatch{found: got, read: cr.n, size: fi.Size()}) {
				return
			}
			got, last = nil, time.Now()
		}
	}
	send(replayBatch{found: got, read: cr.n, size: fi.Size(), done: true})
}

// search is the list's position search: the games found so far (by the
// offset of their first byte, with the move played next as an index into
// moves) and the replay that finds them.
type search struct {
	reached map[int64]uint16
	moves   []string // the moves played next, each once; "" for a game's end
	ch      <-chan replayBatch
	cancel  context.CancelFunc
	running bool
	done    bool // the whole file was replayed
	read    int64
	size    int64
}

// stopSearch ends the replay, if one runs.
func (l *List) stopSearch() {
	if l.pos.cancel != nil {
		l.pos.cancel()
		l.pos.cancel = nil
	}
	l.pos.running = false
}

// startSearch replays the file for the filter's position, forgetting the
// games found before; nil when the filter has none.
func (l *List) startSearch() tea.Cmd {
	l.stopSearch()
	l.pos = search{}
	target := l.filter.Position
	if target == nil || l.path == "" {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan replayBatch, 4)
	go replay(ctx, l.path, target.Clone(), ch)
	l.pos = search{reached: map[int64]uint16{}, ch: ch, cancel: cancel, running: true}
	return livecmd.Recv((<-chan replayBatch)(ch))
}

// addFound takes a batch of the replay: each game found whose row the
// loader has sent, and whose tags the filter selects, joins the shown
// ones.
func (l *List) addFound(b replayBatch) {
	p := &l.pos
	p.read, p.size = b.read, b.size
	if b.err != nil {
		l.err = fmt.Errorf("replaying %s: %w", l.path, b.err)
	}
	if b.done {
		p.running, p.cancel, p.done = false, nil, b.err == nil
	}
	var fresh []int32
	for _, fd := range b.found {
		k := slices.Index(p.moves, fd.next)
		if k < 0 {
			k = len(p.moves)
			p.moves = append(p.moves, fd.next)
		}
		p.reached[fd.offset] = uint16(min(k, math.MaxUint16))
		i, ok := slices.BinarySearchFunc(l.rows, fd.offset, func(r row, off int64) int { return cmp.Compare(r.offset, off) })
		if ok && l.matchTags(i) {
			fresh = append(fresh, int32(i))
		}
	}
	cur := l.selected()
	l.shown = l.merge(l.shown, fresh)
	l.selectGame(cur)
}

// match reports whether the filter selects row i: its tags, and, for a
// position, the replay has found the game.
func (l *List) match(i int) bool {
	if l.filter.Position != nil {
		if _, ok := l.pos.reached[l.rows[i].offset]; !ok {
			return false
		}
	}
	return l.matchTags(i)
}

// matchTags reports whether the filter's criteria other than the
// position select row i (pgn.Filter, the one selection, on the tags the
// row keeps).
func (l *List) matchTags(i int) bool {
	t := tagger{n: l.names, r: &l.rows[i]}
	return l.filter.MatchTags(t.tag, l.names[t.r.result])
}

// nextMove is the move game r played from the position searched for,
// "end" where it ended there.
func (l *List) nextMove(r *row) string {
	k, ok := l.pos.reached[r.offset]
	switch {
	case !ok || int(k) >= len(l.pos.moves):
		return ""
	case l.pos.moves[k] == "":
		return "end"
	}
	return l.pos.moves[k]
}
