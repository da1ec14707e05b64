package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/squall-chess/squall/internal/newest"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/store"
)

// Update is a game's record as this server has it after an event
// (written here, or read from the store): the record, its revision, and
// the record decoded once, as the hub wrote or observed it — its moves
// replayed, its end's PGN read. Every watcher of the game gets the same
// Update: read it, do not change it. The update that says the game is
// over (Over) is a watcher's last.
type Update struct {
	store.GameRecord
	// Rev is the store's revision of the record: a watcher never gets an
	// older one after a newer.
	Rev uint64
	// Replayed is the record's moves replayed: the game for a search, the
	// moves in SAN, the position now.
	Replayed game.Replayed
	// Ended is the finished game's record, with the rating changes of a
	// rated one; nil before the end.
	Ended *Ended
}

// Decode is a record read from the store at revision rev, decoded as the
// hub decodes each record it observes: a record whose moves do not
// replay is corrupt, and an error.
func Decode(rec store.GameRecord, rev uint64) (Update, error) {
	r, err := rec.Game.Replay()
	if err != nil {
		return Update{}, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	return Update{GameRecord: rec, Rev: rev, Replayed: r, Ended: endedOf(rec.ID, rec.End)}, nil
}

// endPending tells the record a rated game's end writes before the
// players' ratings (its ratings, not yet its end): the game is over by
// its moves, and the watchers wait for the record of its end.
func endPending(rec store.GameRecord) bool { return rec.End == nil && rec.Ratings != nil }

// endedOf is the finished game a stored end says; nil for none.
func endedOf(id string, e *store.End) *Ended {
	if e == nil {
		return nil
	}
	ended := &Ended{ID: id, Result: e.Result, Before: e.Before, After: e.After}
	if e.PGN != "" {
		// Written by a server from its own game: it reads back.
		ended.PGN, _ = pgn.NewReader(strings.NewReader(e.PGN), id).Next()
	}
	return ended
}

// stored is the end as the game's record keeps it (endedOf reads it
// back), and as a game's host sends it to the server that asked for the
// action that ended the game.
func (e *Ended) stored() *store.End {
	end := &store.End{Result: e.Result, Ratings: store.Ratings{Before: e.Before, After: e.After}}
	if e.PGN != nil {
		end.PGN = e.PGN.String()
	}
	return end
}

// olderUpdate tells an update older than the one a watcher last got: the
// hub's own writes and the store's echo of them reach the watchers by two
// ways, and a watcher never gets an older revision after a newer.
func olderUpdate(last, u Update) bool { return u.Rev < last.Rev }

// mirrored is a game as this server last had its record: written here,
// or read from the store.
type mirrored struct {
	u Update
	// ended is when this server first saw the record of the game's end.
	ended time.Time
}

// Watch follows game id, wherever it is hosted: the channel gets the
// game's newest state after each event (a slow reader gets the latest,
// never a backlog), and is closed after the update that says the game is
// over, or by stop. Games hosted elsewhere are followed through the store
// while the hub runs (Run).
func (h *Hub) Watch(id string) (<-chan Update, func(), error) {
	h.mu.Lock()
	m, ok := h.mirror[id]
	if !ok || m.u.Over() {
		h.mu.Unlock()
		return nil, nil, ErrNoGame
	}
	first := m.u
	rs := h.watchers[id]
	if rs == nil {
		rs = newest.New(olderUpdate)
		h.watchers[id] = rs
	}
	wid, ch := rs.Add()
	rs.Offer(wid, first)
	h.mu.Unlock()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			if rs.Remove(wid) && rs.Len() == 0 && h.watchers[id] == rs {
				delete(h.watchers, id)
			}
		})
	}
	return ch, stop, nil
}

// publish sends u to the game's watchers, and closes them when it is over.
func (h *Hub) publish(u Update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if rs := h.watchers[u.ID]; rs != nil {
		rs.Send(u)
		if u.Over() {
			h.dropWatchers(u.ID)
		}
	}
}

// dropWatchers closes game id's watchers; called with h.mu held.
func (h *Hub) dropWatchers(id string) {
	if rs := h.watchers[id]; rs != nil {
		rs.CloseAll()
		delete(h.watchers, id)
	}
}

// observe takes a stored game's new record (or its drop), as the store's
// FollowGames gives them, into the mirror, decoded (Decode), and to the
// game's watchers here if it is hosted elsewhere: the games hosted
// elsewhere reach this server's watchers from the mirror, and it is where
// this server looks for games to take over (adopt). A record older than
// the mirror's is ignored: the watch (again from each game's last record
// after it breaks) and the reads of keep all bring records. A record
// that does not decode is corrupt: it is an error, and neither mirrored
// nor shown.
func (h *Hub) observe(ev store.GameEvent) error {
	h.mu.Lock()
	_, here := h.tables[ev.ID]
	m := h.mirror[ev.ID]
	if m != nil && ev.Rev <= m.u.Rev {
		h.mu.Unlock()
		return nil
	}
	if ev.Game == nil {
		delete(h.mirror, ev.ID)
		if !here {
			h.dropWatchers(ev.ID)
		}
		h.mu.Unlock()
		return nil
	}
	h.mu.Unlock()
	if here && ev.Game.Host == h.node {
		// The echo of this server's own write, which the write took
		// itself, decoded from the game and with its clocks' time.
		return nil
	}
	rec := *ev.Game
	// The clocks are as they were when the record was written: on this
	// server's clock, that is now (less the store's delay), whatever the
	// writer's clock said.
	rec.Game.Saved = h.now()
	u, err := Decode(rec, ev.Rev)
	if err != nil {
		return err
	}
	h.take(u, false)
	return nil
}

// take puts u, a game's newest record, into the mirror, and to the
// game's watchers if this server wrote it (mine) or another server hosts
// the game. One older than the mirror's is not mirrored, nor sent unless
// it is this server's write: the store's echo of a write may come before
// the write's own take, and the write is the one that tells the watchers.
func (h *Hub) take(u Update, mine bool) {
	h.mu.Lock()
	_, here := h.tables[u.ID]
	m := h.mirror[u.ID]
	stale := m != nil && u.Rev <= m.u.Rev
	if !stale {
		if m == nil {
			m = &mirrored{}
			h.mirror[u.ID] = m
		}
		m.u = u
		if u.Over() && m.ended.IsZero() {
			m.ended = h.now()
		}
	}
	h.mu.Unlock()
	if (mine || !here && !stale) && !endPending(u.GameRecord) {
		h.publish(u)
	}
}

// refresh reads the watched games hosted elsewhere from the store: a
// watch of the store can stall for a while when the NATS node serving it
// dies (until the client notices and makes it again), and spectators
// should not.
func (h *Hub) refresh(ctx context.Context) error {
	h.mu.Lock()
	var ids []string
	for id := range h.watchers {
		if _, here := h.tables[id]; !here {
			ids = append(ids, id)
		}
	}
	h.mu.Unlock()
	var errs []error
	for _, id := range ids {
		rec, rev, found, err := h.st.Game(ctx, id)
		switch {
		case err != nil:
			errs = append(errs, err)
		case found:
			errs = append(errs, h.observe(store.GameEvent{ID: id, Game: &rec, Rev: rev}))
		}
	}
	return errors.Join(errs...)
}
