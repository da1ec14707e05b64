package enginetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/squall-chess/squall/engine"
)

// The Engine's calls other than Search, and what it records of all calls.

// SetOption records "name=value" for Settings when Opts lists name (case
// aside, as in UCI) and refuses any other name, as a real engine does.
func (e *Engine) SetOption(name, value string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.checkIdle("SetOption")
	if !slices.ContainsFunc(e.Opts, func(o engine.Option) bool { return strings.EqualFold(o.Name, name) }) {
		return fmt.Errorf("enginetest: %s has no option %q", e.Name(), name)
	}
	e.settings = append(e.settings, name+"="+value)
	return nil
}

// NewGame counts the call for NewGames.
func (e *Engine) NewGame() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.checkIdle("NewGame")
	e.newGames++
	return nil
}

// PonderHit lets a ponder search that WaitForStop holds return. Sent when
// no search is running, it is lost, as ponderhit is to a UCI engine.
func (e *Engine) PonderHit() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hit != nil {
		close(e.hit)
		e.hit = nil
	}
}

// Close records that the engine was closed, for Closed.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	return nil
}

// begin records a search with its limits and returns the channel its
// PonderHit closes.
func (e *Engine) begin(lim engine.Limits) chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.active > 0 {
		e.noteMisuse(errors.New("enginetest: a search started while another was running"))
	}
	e.searches++
	e.active++
	lim.SearchMoves = slices.Clone(lim.SearchMoves)
	e.limits = append(e.limits, lim)
	e.hit = make(chan struct{})
	return e.hit
}

// end records the end of the search whose ponderhit channel is hit.
func (e *Engine) end(hit chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.active--
	if e.hit == hit {
		e.hit = nil
	}
}

// checkIdle notes a misuse if what is called during a search; e.mu is
// held.
func (e *Engine) checkIdle(what string) {
	if e.active > 0 {
		e.noteMisuse(fmt.Errorf("enginetest: %s called during a search", what))
	}
}

// noteMisuse keeps the first misuse; e.mu is held.
func (e *Engine) noteMisuse(err error) {
	if e.misuse == nil {
		e.misuse = err
	}
}

// Searches is how many searches have started.
func (e *Engine) Searches() int {
	return locked(e, func() int { return e.searches })
}

// Active is how many searches are running now: 0 once every search has
// returned, more than 1 if the code under test overlaps them.
func (e *Engine) Active() int {
	return locked(e, func() int { return e.active })
}

// Limits returns the limits of every search so far, in order.
func (e *Engine) Limits() []engine.Limits {
	return locked(e, func() []engine.Limits { return slices.Clone(e.limits) })
}

// Settings returns the options set so far, as "name=value", in order.
func (e *Engine) Settings() []string {
	return locked(e, func() []string { return slices.Clone(e.settings) })
}

// NewGames is how many times NewGame was called.
func (e *Engine) NewGames() int {
	return locked(e, func() int { return e.newGames })
}

// Closed reports whether Close was called.
func (e *Engine) Closed() bool {
	return locked(e, func() bool { return e.closed })
}

// Misuse returns the first breach of the Analyzer contract seen: a search
// started while another ran, or SetOption or NewGame called during a
// search. It is nil when the code under test kept the contract.
func (e *Engine) Misuse() error {
	return locked(e, func() error { return e.misuse })
}

// locked returns get() with e.mu held.
func locked[T any](e *Engine, get func() T) T {
	e.mu.Lock()
	defer e.mu.Unlock()
	return get()
}
