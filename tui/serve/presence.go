package serve

import (
	"sync"
	"time"
)

// Presence knows which players are connected: a player's game goes on
// while they are away, and once they have been gone for the game's grace
// period the opponent may claim it. Its methods are safe for concurrent
// use: sessions join and leave from their own goroutines.
type Presence struct {
	mu   sync.Mutex
	here map[string]int       // open play sessions by handle
	gone map[string]time.Time // since when a handle has had none
	now  func() time.Time
}

// NewPresence is an empty register; now is its clock (nil: time.Now).
func NewPresence(now func() time.Time) *Presence {
	if now == nil {
		now = time.Now
	}
	return &Presence{here: map[string]int{}, gone: map[string]time.Time{}, now: now}
}

// Join notes a session of handle's.
func (p *Presence) Join(handle string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.here[handle]++
	delete(p.gone, handle)
}

// Leave notes the end of a session of handle's.
func (p *Presence) Leave(handle string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.here[handle]--; p.here[handle] <= 0 {
		delete(p.here, handle)
		p.gone[handle] = p.now()
	}
}

// Away marks handle gone from now unless it has a session (the players of
// the games a restarted server resumed).
func (p *Presence) Away(handle string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, here := p.here[handle]; !here {
		if _, ok := p.gone[handle]; !ok {
			p.gone[handle] = p.now()
		}
	}
}

// Gone reports since when handle has had no session; ok is false while it
// has one, or if it never had one since the server started (a player the
// server has not seen cannot be claimed against before they could come).
func (p *Presence) Gone(handle string) (since time.Time, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	since, ok = p.gone[handle]
	return since, ok
}
