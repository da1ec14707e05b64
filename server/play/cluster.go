package play

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/store"
)

// KeepEnded is how long a finished game's last record stays in the store
// before it is dropped: the other servers' screens read the end from it.
const KeepEnded = 30 * time.Second

// Restore takes over the stored games no running server hosts (after a
// restart: those whose lease lapsed, or is held in this server's name),
// resumed as game.Resume says: the time no server hosted them is charged
// to nobody. A stored game that cannot be resumed is reported and left in
// the store; one already over by its moves is finished; the record of a
// finished game is dropped.
func (h *Hub) Restore(ctx context.Context) (resumed int, err error) {
	states, err := h.st.Games(ctx)
	if err != nil {
		return 0, err
	}
	var errs []error
	for _, s := range states {
		ok, err := h.adopt(ctx, s.ID)
		errs = append(errs, err)
		if ok {
			resumed++
		}
	}
	return resumed, errors.Join(errs...)
}

// adopt takes game id over if no other server holds its lease: resumed
// from its last record (ok), dropped if that record says it is over.
func (h *Hub) adopt(ctx context.Context, id string) (ok bool, err error) {
	if _, here := h.local(id); here {
		return false, nil
	}
	lease, err := h.leases.Acquire(ctx, id, h.node)
	if errors.Is(err, store.ErrHeld) {
		holder, rev, held, herr := h.leases.Holder(ctx, id)
		if herr != nil || !held || holder != h.node {
			return false, herr // someone else's: not ours to take
		}
		lease, err = h.leases.Renew(ctx, id, h.node, rev) // ours, from before a restart
	}
	if err != nil {
		return false, err
	}
	release := func() { h.leases.Release(ctx, id, lease) }
	rec, rev, found, err := h.st.Game(ctx, id)
	if err != nil || !found {
		release()
		return false, err
	}
	if rec.End != nil {
		err := h.st.DropGame(ctx, id)
		release()
		return false, err
	}
	now := h.now()
	g, err := game.Resume(rec.Game, now)
	if err != nil {
		release()
		return false, fmt.Errorf("game %s: %w", id, err)
	}
	t := &table{id: id, Players: rec.Players, g: g, rev: rev, lease: lease, rating: rec.Ratings}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, over := g.Result(); over {
		h.mu.Lock()
		h.tables[id] = t
		h.mu.Unlock()
		_, err := h.finish(ctx, t)
		return false, err
	}
	if err := h.save(ctx, t, now); err != nil { // the record says who hosts it now
		release()
		return false, err
	}
	if err := h.host(t); err != nil {
		return false, err
	}
	if h.onHost != nil {
		h.onHost(id, t.Players)
	}
	return true, nil
}

// host makes t one of the games hosted here and answers the other
// servers' requests for it; called with t.mu held.
func (h *Hub) host(t *table) error {
	sub, err := h.nc.Subscribe(actSubject(t.id), func(m *nats.Msg) { h.answer(t.id, m) })
	if err != nil {
		return fmt.Errorf("game %s: %w", t.id, err)
	}
	t.sub = sub
	h.mu.Lock()
	h.tables[t.id] = t
	h.mu.Unlock()
	return nil
}

// unhost lets a game go from here (over, or taken by another server);
// called with t.mu held. Its watchers here follow it in the store from
// now on, if it goes on.
func (h *Hub) unhost(t *table) {
	t.gone = true
	if t.sub != nil {
		t.sub.Unsubscribe()
	}
	h.mu.Lock()
	if h.tables[t.id] == t {
		delete(h.tables, t.id)
	}
	h.mu.Unlock()
}

// Run keeps the hub until ctx ends: it ticks the clocks of the games
// hosted here every interval, renews their leases, follows the games
// hosted elsewhere, takes over the games whose host died, and drops the
// records of games long over. report, if not nil, gets each game time
// ended and each error (from Run's goroutine).
func (h *Hub) Run(ctx context.Context, interval time.Duration, report func(*Ended, error)) {
	if report == nil {
		report = func(*Ended, error) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() { // follows the store's games, again after the watch breaks
		defer wg.Done()
		h.st.FollowGames(ctx, func(ev store.GameEvent) {
			if err := h.observe(ev); err != nil {
				report(nil, err)
			}
		}, func(err error) { report(nil, err) })
	}()
	wg.Add(1)
	go func() { // the leases, on their own: a slow tick or keep must not let one lapse
		defer wg.Done()
		renew := time.NewTicker(h.lease / 3)
		defer renew.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-renew.C:
				if err := h.renew(ctx); err != nil {
					report(nil, err)
				}
			}
		}
	}()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	keep := time.NewTicker(h.lease / 3)
	defer keep.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			ended, err := h.Tick(ctx)
			for i := range ended {
				report(&ended[i], nil)
			}
			if err != nil {
				report(nil, err)
			}
		case <-keep.C:
			if err := h.keep(ctx); err != nil {
				report(nil, err)
			}
		}
	}
}

// renew renews the leases of the games hosted here, all at once (one
// after another, 25 games at 50 ms a write under load took longer than a
// lease); a game whose lease is lost goes.
func (h *Hub) renew(ctx context.Context) error {
	hosted := h.hosted()
	errs := make([]error, len(hosted))
	var wg sync.WaitGroup
	for i, t := range hosted {
		wg.Go(func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.gone {
				return
			}
			rev, err := h.leases.Renew(ctx, t.id, h.node, t.lease)
			switch {
			case err == nil:
				t.lease = rev
			case errors.Is(err, store.ErrLost):
				h.unhost(t)
			}
			// Another error (the store out of reach a moment) keeps the
			// revision held: the next renewal tries it, if still in time.
			errs[i] = err
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// keep reads the watched games hosted elsewhere (refresh), takes over the
// games no server hosts, and drops the records of games over for
// KeepEnded.
func (h *Hub) keep(ctx context.Context) error {
	var errs []error
	errs = append(errs, h.refresh(ctx))
	h.mu.Lock()
	var orphans []string
	for id, m := range h.mirror {
		if _, here := h.tables[id]; !here && (!m.u.Over() || h.now().Sub(m.ended) >= KeepEnded) {
			orphans = append(orphans, id)
		}
	}
	h.mu.Unlock()
	for _, id := range orphans {
		_, err := h.adopt(ctx, id)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// actSubject is where game id's host takes the other servers' actions.
func actSubject(id string) string { return "squall.play.act." + hex.EncodeToString([]byte(id)) }

// reply is a host's answer to an action: the refusal, or the game's end
// if the action ended it.
type reply struct {
	Err  string     `json:"err,omitempty"`
	Code string     `json:"code,omitempty"` // which of the refusals Err is
	End  *store.End `json:"end,omitempty"`
}

// refusals are the errors an action may end in that the asking server
// tells apart, by code.
var refusals = map[string]error{
	"no-game": ErrNoGame, "not-player": ErrNotPlayer, "no-host": ErrNoHost,
	"over": game.ErrOver, "not-your-turn": game.ErrNotYourTurn, "illegal": game.ErrIllegal,
	"too-late": game.ErrTooLate, "nothing": game.ErrNothing,
}

// request is an action sent to a game's host.
type request struct {
	Handle string `json:"handle"`
	Action action `json:"action"`
}

// answer plays another server's request on game id, hosted here.
func (h *Hub) answer(id string, m *nats.Msg) {
	var rq request
	var rp reply
	if err := json.Unmarshal(m.Data, &rq); err != nil {
		rp.Err = fmt.Sprintf("bad request: %v", err)
	} else if t, ok := h.local(id); !ok {
		rp.Err, rp.Code = ErrNoHost.Error(), "no-host"
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		e, err := h.actHere(ctx, t, rq.Handle, rq.Action)
		cancel()
		if err != nil {
			rp.Err = err.Error()
			for code, target := range refusals {
				if errors.Is(err, target) {
					rp.Code = code
				}
			}
		}
		if e != nil {
			rp.End = e.stored()
		}
	}
	data, _ := json.Marshal(rp)
	m.Respond(data)
}

// requestTimeout bounds one action at a game's host.
const requestTimeout = 5 * time.Second

// refused is an error a host sent back: its text, and the refusal it is.
type refused struct {
	msg    string
	target error
}

func (e refused) Error() string        { return e.msg }
func (e refused) Is(target error) bool { return e.target != nil && target == e.target }

// result is what the action at the host came to.
func (r reply) result(id string) (*Ended, error) {
	e := endedOf(id, r.End)
	if r.Err != "" {
		return e, refused{msg: r.Err, target: refusals[r.Code]}
	}
	return e, nil
}

// actThere sends an action on game id to the server hosting it. While no
// server hosts it (its host died and the lease has not lapsed yet) the
// request is tried again, for up to two leases.
func (h *Hub) actThere(ctx context.Context, id, handle string, a action) (*Ended, error) {
	rec, _, found, err := h.st.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found || rec.End != nil {
		return nil, ErrNoGame
	}
	data, err := json.Marshal(request{Handle: handle, Action: a})
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(2*h.lease + time.Second)
	for {
		rctx, cancel := context.WithTimeout(ctx, requestTimeout)
		m, err := h.nc.RequestWithContext(rctx, actSubject(id), data)
		cancel()
		var rp reply
		if err == nil {
			if err := json.Unmarshal(m.Data, &rp); err != nil {
				return nil, fmt.Errorf("game %s: the host's answer: %w", id, err)
			}
			if rp.Code != "no-host" {
				return rp.result(id)
			}
		} else if !errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("game %s: %w", id, err)
		}
		if time.Now().After(deadline) {
			return nil, ErrNoHost
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(h.lease / 10):
		}
	}
}
