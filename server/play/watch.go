package play

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/squall-chess/squall/internal/newest"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/store"
)

// Update is a game as a watcher sees it after an event: its state, and its
// result once over (the last update a watcher gets).
type Update struct {
	ID      string
	Players Players
	State   game.State
	Over    bool
	Result  game.Result
	// Ended is the finished game's record, with the rating changes of a
	// rated one; nil before the end.
	Ended *Ended
	// DrawOffer and Takeback are the standing offers, by colour.
	DrawOffer, Takeback [2]bool
	// Rev is the store's revision of the game's record: a watcher never
	// gets an older one after a newer.
	Rev uint64
}

// Plays tells whether handle is one of the players, as handles are told
// apart (account.Key): a player's own keys never get the spectators'
// analysis of their game in progress, on any server of a cluster, each of
// which knows the players from the game's record.
func (p Players) Plays(handle string) bool {
	k := account.Key(handle)
	return handle != "" && (k == account.Key(p.White) || k == account.Key(p.Black))
}

// updateOf is the update a stored record says.
func updateOf(rec store.GameState, rev uint64) Update {
	u := Update{ID: rec.ID, Players: Players{White: rec.White, Black: rec.Black, Rated: rec.Rated}, State: rec.Game,
		DrawOffer: rec.DrawOffer, Takeback: rec.Takeback, Rev: rev}
	if rec.End != nil {
		u.Over, u.Result, u.Ended = true, rec.End.Result, endedOf(rec.ID, rec.End)
	}
	return u
}

// endPending tells the record a rated game's end writes before the
// players' ratings (its ratings, not yet its end): the game is over by
// its moves, and the watchers wait for the record of its end.
func endPending(rec store.GameState) bool { return rec.End == nil && rec.Ratings != nil }

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

// olderUpdate tells an update older than the one a watcher last got: the
// hub's own writes and the store's echo of them reach the watchers by two
// ways, and a watcher never gets an older revision after a newer.
func olderUpdate(last, u Update) bool { return u.Rev < last.Rev }

// mirrored is a game as the store last said, for the games hosted
// elsewhere.
type mirrored struct {
	rec store.GameState
	rev uint64
	// ended is when this server first saw the record of the game's end.
	ended time.Time
}

// Watch follows game id, wherever it is hosted: the channel gets the
// game's newest state after each event (a slow reader gets the latest,
// never a backlog), and is closed after the update that says the game is
// over, or by stop. Games hosted elsewhere are followed through the store
// while the hub runs (Run).
func (h *Hub) Watch(id string) (<-chan Update, func(), error) {
	var first Update
	if t, ok := h.local(id); ok {
		t.mu.Lock()
		if !t.gone {
			first = updateOf(h.record(t, h.now()), t.rev)
		}
		t.mu.Unlock()
	}
	h.mu.Lock()
	if first.ID == "" {
		m, ok := h.mirror[id]
		if !ok || m.rec.End != nil {
			h.mu.Unlock()
			return nil, nil, ErrNoGame
		}
		first = updateOf(m.rec, m.rev)
	}
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
		if u.Over {
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
// FollowGames gives them, into the mirror, and to the game's watchers
// here if it is hosted elsewhere: the games hosted elsewhere reach this
// server's watchers from the mirror, and it is where this server looks
// for games to take over (adopt). A record older than the mirror's is
// ignored: the watch (again from each game's last record after it
// breaks) and the reads of keep all bring records.
func (h *Hub) observe(ev store.GameEvent) {
	h.mu.Lock()
	_, here := h.tables[ev.ID]
	m := h.mirror[ev.ID]
	if m != nil && ev.Rev <= m.rev {
		h.mu.Unlock()
		return
	}
	if ev.Game == nil {
		delete(h.mirror, ev.ID)
		if !here {
			h.dropWatchers(ev.ID)
		}
		h.mu.Unlock()
		return
	}
	if m == nil {
		m = &mirrored{}
		h.mirror[ev.ID] = m
	}
	m.rec, m.rev = *ev.Game, ev.Rev
	// The clocks are as they were when the record was written: on this
	// server's clock, that is now (less the store's delay), whatever the
	// writer's clock said.
	m.rec.Game.Saved = h.now()
	if m.rec.End != nil && m.ended.IsZero() {
		m.ended = h.now()
	}
	u := updateOf(m.rec, m.rev)
	h.mu.Unlock()
	if !here && !endPending(m.rec) {
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
			h.observe(store.GameEvent{ID: id, Game: &rec, Rev: rev})
		}
	}
	return errors.Join(errs...)
}
