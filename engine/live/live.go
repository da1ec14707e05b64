// Package live runs an engine's searches for the screens that show them as
// they go: the board, the suite and review views, the SSH rooms, the
// spectators' analysis pool and the UCI server. It is the one place that holds the rules of a search in the
// background, which every caller otherwise has to get right by itself:
//
//   - One search at a time per Analyzer. A new search starts only after
//     the previous one has returned from Search, since the seam allows no
//     overlap (and no SetOption or NewGame during a search).
//   - Cancel and wait. Starting a search cancels the one running; the new
//     one waits for it to return.
//   - Generations. Every search has a number, higher for each new one, and
//     every batch of reports carries it, so a screen can tell the reports
//     of a search it has replaced from those of the current one.
//   - Ownership. An engine may reuse the PV slice of its reports: the
//     callback copies each PV once, here, and the receiver owns the copy.
//   - Batching. Reports queue without loss; a reader takes them in batches,
//     at most one per frame, so a fast engine costs a bounded number of
//     redraws, and a slow reader never holds up the search.
//   - Lines. What a screen shows of a search is its current best lines,
//     one per MultiPV slot, each the newest report of its slot: Lines
//     gathers them from the batches, with the screen's cap on how many.
//
// The goroutine that runs a search belongs to its Runner and ends when the
// search returns; Close cancels the running search and waits for it.
package live

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/squall-chess/squall/engine"
)

// ErrClosed ends a search started on a closed Runner.
var ErrClosed = errors.New("live: runner closed")

// maxPending bounds the reports a search keeps for a reader that does not
// come: past it the oldest are dropped (a screen shows the newest anyway).
const maxPending = 4096

// Job is one search to run.
type Job struct {
	Game   engine.Game
	Limits engine.Limits
	// Setup, if set, runs on the engine before the search, once the
	// previous search has returned (NewGame, a level's options). An error
	// from it ends the search without searching.
	Setup func(a engine.Analyzer) error
}

// Runner runs the searches of one Analyzer, one at a time. Its methods are
// safe for concurrent use. It does not close the Analyzer: its owner does,
// after Close.
type Runner struct {
	a engine.Analyzer

	mu     sync.Mutex
	gen    uint64
	cancel context.CancelFunc
	last   chan struct{} // closed when the newest search's goroutine has ended
	closed bool
}

// New returns a Runner for a, or nil when a is nil: a screen or room
// without an engine holds no Runner, and checks for nil before starting a
// search.
func New(a engine.Analyzer) *Runner {
	if a == nil {
		return nil
	}
	last := make(chan struct{})
	close(last)
	return &Runner{a: a, last: last}
}

// NewAfter is New for a screen that replaces prev's engine with a: the
// generations go on from prev's, so that a late batch of one of prev's
// searches cannot pass for one of the new Runner's (nil prev: New).
func NewAfter(a engine.Analyzer, prev *Runner) *Runner {
	r := New(a)
	if r != nil && prev != nil {
		r.gen = prev.Gen()
	}
	return r
}

// Analyzer is the engine the Runner drives.
func (r *Runner) Analyzer() engine.Analyzer { return r.a }

// Start cancels the running search, if any, and starts job once that
// search has returned. The returned Search delivers its reports.
func (r *Runner) Start(job Job) *Search {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
	}
	r.gen++
	s := &Search{Gen: r.gen, ready: make(chan struct{}, 1), done: make(chan struct{}), cancel: func() {}}
	if r.closed {
		s.finish(engine.Result{}, ErrClosed)
		return s
	}
	ctx, cancel := context.WithCancel(context.Background())
	prev, end := r.last, make(chan struct{})
	r.cancel, r.last, s.cancel = cancel, end, cancel
	go func() {
		defer close(end)
		defer cancel()
		<-prev
		if job.Setup != nil {
			if err := job.Setup(r.a); err != nil {
				s.finish(engine.Result{}, err)
				return
			}
		}
		if err := ctx.Err(); err != nil && r.Gen() != s.Gen {
			s.finish(engine.Result{}, err) // replaced before it began
			return
		}
		// A search stopped before it began, and not replaced, still
		// runs: the engine answers a cancelled search at once with the
		// best move it finds (a UCI "go" then "stop" wants a bestmove).
		res, err := r.a.Search(ctx, job.Game, job.Limits, s.add)
		s.finish(res, err)
	}()
	return s
}

// Gen is the generation of the newest search started (0 before the first).
func (r *Runner) Gen() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gen
}

// Stop cancels the running search, if any, without waiting for it; its
// Search still delivers what it reported and then its end.
func (r *Runner) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
}

// PonderHit tells the running search, started with Limits.Ponder, that the
// expected move was played.
func (r *Runner) PonderHit() { r.a.PonderHit() }

// Close cancels the running search and waits until it has returned. Later
// searches end at once with ErrClosed.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	last := r.last
	r.mu.Unlock()
	<-last
}

// Search is one search started by a Runner: its reports and its end, read
// with Next by one reader.
type Search struct {
	// Gen is the search's generation: higher for each search the Runner
	// starts.
	Gen uint64

	cancel context.CancelFunc // set before the search starts, then only called

	mu      sync.Mutex
	pending []engine.Info
	ready   chan struct{} // a value when pending may have become non-empty
	done    chan struct{} // closed once res and err are set
	res     engine.Result
	err     error
}

// Batch is what Next delivers: the reports since the last batch, in order,
// and, once the search has returned, its result.
type Batch struct {
	Gen   uint64
	Infos []engine.Info
	// Done is set in the batch that ends the search (and every one after).
	Done   bool
	Result engine.Result
	Err    error
}

// add is the engine's info callback.
func (s *Search) add(in engine.Info) {
	in.PV = slices.Clone(in.PV) // the engine may reuse its slice
	s.mu.Lock()
	if len(s.pending) == maxPending {
		s.pending = slices.Delete(s.pending, 0, 1)
	}
	s.pending = append(s.pending, in)
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default: // a signal is waiting already
	}
}

func (s *Search) finish(res engine.Result, err error) {
	s.mu.Lock()
	res.Last.PV = slices.Clone(res.Last.PV)
	s.res, s.err = res, err
	s.mu.Unlock()
	close(s.done)
}

// Stop cancels this search, if it still runs, and no other: a later search
// of the same Runner goes on. Its reports so far and its end are still
// delivered.
func (s *Search) Stop() { s.cancel() }

// Done returns a channel closed when the search has returned (its last
// reports may still wait to be read).
func (s *Search) Done() <-chan struct{} { return s.done }

// Next blocks until there is a report or the search has ended. With a frame
// above zero it then waits out the rest of the frame (or the end), so that
// the reports of a whole frame come as one batch.
func (s *Search) Next(frame time.Duration) Batch {
	for {
		select {
		case <-s.ready:
		case <-s.done:
		}
		if frame > 0 {
			t := time.NewTimer(frame)
			select {
			case <-t.C:
			case <-s.done:
			}
			t.Stop()
		}
		if b, ok := s.take(); ok {
			return b
		}
	}
}

// Poll returns the reports so far without waiting; ok is false when there
// is nothing new and the search has not ended.
func (s *Search) Poll() (Batch, bool) { return s.take() }

// take empties the queue. The end is checked first: every report is queued
// before Search returns, so once done is closed the queue is complete.
func (s *Search) take() (Batch, bool) {
	ended := false
	select {
	case <-s.done:
		ended = true
	default:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := Batch{Gen: s.Gen, Infos: s.pending}
	s.pending = nil
	if ended {
		b.Done, b.Result, b.Err = true, s.res, s.err
		b.Result.Last.PV = slices.Clone(b.Result.Last.PV)
	}
	return b, ended || len(b.Infos) > 0
}
