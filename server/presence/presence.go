// Package presence knows which players are connected, on any server of a
// cluster: a player's game goes on while they are away, and once they have
// been gone for the game's grace period the opponent may claim it.
//
// Each server keeps a record for every handle with a session on it, in an
// Ephemeral bucket of the store, renewed while the sessions last and
// removed with the last of them; a server that dies stops renewing, and
// its players' records lapse (TTL). A handle is here while any server has
// a record of it; it is gone from the moment this server saw its last
// record go (or, for a session of its own, from the moment it ended).
//
// A record carries its player's lag on that server (the SSH round trip
// its sessions last measured, SetLag), written with the record's renewal:
// a game's screens show both players' lags, wherever each is connected.
package presence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/squall-chess/squall/server/store"
)

// TTL is how long a record lasts unrenewed: a dead server's players are
// gone this much after it died (and a claim against them waits the grace
// period on top).
const TTL = 10 * time.Second

// bucket keeps every server's records.
const bucket = "squall_presence"

// Presence is this server's view. Its methods are safe for concurrent use
// and never wait for the store: sessions join and leave from their own
// goroutines, screens ask as they draw, and the records are written by
// Run.
type Presence struct {
	recs   *store.Ephemeral
	mirror *store.Mirror
	node   string
	now    func() time.Time
	poke   chan struct{} // a session joined or left: Run writes the records

	mu    sync.Mutex
	local map[string]int       // open sessions here by handle
	revs  map[string]uint64    // this server's records in the store, by handle
	here  map[string]bool      // the handles present when last looked
	gone  map[string]time.Time // since when a handle has had no session anywhere
	// left is when a handle was seen to go (its last session here ended,
	// or its last record anywhere went): gone's time, less the handles
	// only marked Away.
	left map[string]time.Time
	lag  map[string]time.Duration
}

// record is a record's value: the server's name and the player's lag
// there (0: not measured yet).
type record struct {
	Node string        `json:"node"`
	Lag  time.Duration `json:"lag,omitempty"`
}

// New is the presence of server node (play.Hub.Node) kept in st; now is
// its clock (nil: time.Now).
func New(ctx context.Context, st *store.Store, node string, now func() time.Time) (*Presence, error) {
	if now == nil {
		now = time.Now
	}
	recs, err := st.Ephemeral(ctx, bucket, TTL)
	if err != nil {
		return nil, err
	}
	return &Presence{recs: recs, mirror: store.NewMirror(TTL, now), node: node, now: now, poke: make(chan struct{}, 1),
		local: map[string]int{}, revs: map[string]uint64{}, here: map[string]bool{}, gone: map[string]time.Time{}, left: map[string]time.Time{}, lag: map[string]time.Duration{}}, nil
}

// key is handle's record on this server.
func (p *Presence) key(handle string) string { return handle + "\x00" + p.node }

// handleOf is the handle a record key is of.
func handleOf(key string) string { h, _, _ := strings.Cut(key, "\x00"); return h }

// Join notes a session of handle's.
func (p *Presence) Join(handle string) {
	p.mu.Lock()
	p.local[handle]++
	p.here[handle] = true
	delete(p.gone, handle)
	delete(p.left, handle)
	p.mu.Unlock()
	p.signal()
}

// Leave notes the end of a session of handle's.
func (p *Presence) Leave(handle string) {
	p.mu.Lock()
	if p.local[handle]--; p.local[handle] <= 0 {
		delete(p.local, handle)
		delete(p.lag, handle)
		if !p.elsewhere(handle) {
			delete(p.here, handle)
			p.gone[handle] = p.now()
			p.left[handle] = p.gone[handle]
		}
	}
	p.mu.Unlock()
	p.signal()
}

func (p *Presence) signal() {
	select {
	case p.poke <- struct{}{}:
	default:
	}
}

// elsewhere reports whether handle has a live record of another server;
// called with p.mu held.
func (p *Presence) elsewhere(handle string) bool {
	for _, r := range p.mirror.Records() {
		if handleOf(r.Key) == handle && r.Key != p.key(handle) {
			return true
		}
	}
	return false
}

// Away marks handle gone from now unless it is here (the players of the
// games a restarted server resumed: the grace runs from the restart).
func (p *Presence) Away(handle string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.local[handle] == 0 && !p.elsewhere(handle) {
		if _, ok := p.gone[handle]; !ok {
			p.gone[handle] = p.now()
		}
	}
}

// Gone reports since when handle has had no session on any server; ok is
// false while it has one, or if this server has not seen it since it
// started (a player the server has not seen cannot be claimed against
// before they could come).
func (p *Presence) Gone(handle string) (since time.Time, ok bool) { return p.when(handle, false) }

// LastSeen is when this server saw handle go, if it did: its last
// session here ended, or its last record anywhere went (a list of whom
// a player follows says "last seen"). ok is false while handle is here,
// and for a handle this server has not seen leave since it started — one
// only marked Away (a resumed game's player) included: that is when the
// server came, not when the player went.
func (p *Presence) LastSeen(handle string) (at time.Time, ok bool) { return p.when(handle, true) }

// when is handle's time in gone, or in left, with the records looked at.
func (p *Presence) when(handle string, left bool) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.look()
	times := p.gone
	if left {
		times = p.left
	}
	t, ok := times[handle]
	return t, ok
}

// Online reports whether handle has a session on any server now (a
// profile's "online now").
func (p *Presence) Online(handle string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.look()
	return p.here[handle]
}

// List is the handles with a session on any server now, sorted.
func (p *Presence) List() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.look()
	out := make([]string, 0, len(p.here))
	for h := range p.here {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// SetLag notes the lag of a session of handle's here (sshd.LagMsg); the
// record takes it at its next renewal, within TTL/3.
func (p *Presence) SetLag(handle string, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.local[handle] > 0 {
		p.lag[handle] = d
	}
}

// Lag is handle's lag as last measured: a session's here, else as
// another server's record has it; ok is false if none is known.
func (p *Presence) Lag(handle string) (d time.Duration, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d, ok := p.lag[handle]; ok {
		return d, true
	}
	for _, r := range p.mirror.Records() {
		var rec record
		if handleOf(r.Key) == handle && r.Key != p.key(handle) && json.Unmarshal(r.Value, &rec) == nil && rec.Lag > 0 {
			return rec.Lag, true
		}
	}
	return 0, false
}

// look brings here and gone up to date with the records and this
// server's sessions; called with p.mu held.
func (p *Presence) look() {
	now := make(map[string]bool)
	for _, r := range p.mirror.Records() {
		if h := handleOf(r.Key); r.Key != p.key(h) || p.local[h] > 0 {
			now[h] = true
		}
	}
	for h := range p.local {
		now[h] = true
	}
	for h := range p.here {
		if !now[h] {
			delete(p.here, h)
			p.gone[h] = p.now()
			p.left[h] = p.gone[h]
		}
	}
	for h := range now {
		p.here[h] = true
		delete(p.gone, h)
		delete(p.left, h)
	}
}

// Run writes this server's records and follows every server's until ctx
// ends; errs, if not nil, hears of a failed write or a broken watch.
func (p *Presence) Run(ctx context.Context, errs func(error)) {
	if errs == nil {
		errs = func(error) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		p.mirror.Follow(ctx, p.recs, func(err error) { errs(fmt.Errorf("presence: %w", err)) })
	}()
	defer func() { <-followed }()
	renew := time.NewTicker(TTL / 3)
	defer renew.Stop()
	look := time.NewTicker(time.Second) // a handle gone elsewhere is gone from about when it went
	defer look.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.poke:
			p.sync(ctx, false, errs)
		case <-renew.C:
			p.sync(ctx, true, errs)
		case <-look.C:
			p.mu.Lock()
			p.look()
			p.mu.Unlock()
		}
	}
}

// retake renews a live record under this server's key that this
// presence did not know of: its own, written by this server before a
// restart, or by a write that timed out here but reached the store.
func (p *Presence) retake(ctx context.Context, k string, data []byte) (uint64, error) {
	r, live, err := p.recs.Get(ctx, k)
	switch {
	case err != nil:
		return 0, err
	case !live: // lapsed meanwhile
		return p.recs.Create(ctx, k, data)
	}
	return p.recs.Renew(ctx, k, data, r.Rev)
}

// sync makes the store's records of this server follow its sessions: a
// record for each handle with a session (renewed too if renew), none for
// the others.
func (p *Presence) sync(ctx context.Context, renew bool, errs func(error)) {
	p.mu.Lock()
	type job struct {
		handle string
		rev    uint64
		has    bool // a record in the store
		want   bool // a session here
	}
	var jobs []job
	for h := range p.local {
		rev, has := p.revs[h]
		if !has || renew {
			jobs = append(jobs, job{h, rev, has, true})
		}
	}
	for h, rev := range p.revs {
		if p.local[h] == 0 {
			jobs = append(jobs, job{h, rev, true, false})
		}
	}
	lags := maps.Clone(p.lag)
	p.mu.Unlock()
	for _, j := range jobs {
		k := p.key(j.handle)
		data, _ := json.Marshal(record{Node: p.node, Lag: lags[j.handle]})
		var rev uint64
		var err error
		switch {
		case !j.want:
			if err = p.recs.Remove(ctx, k, j.rev); errors.Is(err, store.ErrStale) {
				err = nil // lapsed already
			}
			p.mirror.Note(store.Record{Key: k, Rev: j.rev + 1})
		case j.has:
			if rev, err = p.recs.Renew(ctx, k, data, j.rev); err == nil {
				break
			}
			fallthrough // lapsed while the store was away: anew
		default:
			rev, err = p.recs.Create(ctx, k, data)
			if errors.Is(err, store.ErrStale) {
				rev, err = p.retake(ctx, k, data)
			}
		}
		p.mu.Lock()
		switch {
		case !j.want:
			delete(p.revs, j.handle)
		case err == nil:
			p.revs[j.handle] = rev
			p.mirror.Note(store.Record{Key: k, Value: data, Rev: rev})
		default:
			delete(p.revs, j.handle)
		}
		p.mu.Unlock()
		if err != nil && ctx.Err() == nil {
			errs(fmt.Errorf("presence of %s: %w", j.handle, err))
		}
	}
}
