package room

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
)

// StartAnalysis turns on infinite analysis of the shown position, if the
// room has an engine. It follows the position as it changes until stopped,
// and searches only while the room has a subscriber.
func (r *Room) StartAnalysis() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.readOnly {
		return fmt.Errorf("room %s: %w", r.name, ErrReadOnly)
	}
	return r.startAnalysisLocked()
}

func (r *Room) startAnalysisLocked() error {
	if r.analyzer == nil {
		return fmt.Errorf("room %s: no engine", r.name)
	}
	if r.analysing || r.closed {
		return nil
	}
	r.analysing = true
	r.changedLocked()
	if r.searchWantedLocked() {
		r.restartLocked()
	}
	return nil
}

// StopAnalysis stops the search; the last lines stay visible. A read-only
// room's analysis runs until the room ends: StopAnalysis leaves it alone.
func (r *Room) StopAnalysis() {
	if r.readOnly {
		return
	}
	r.mu.Lock()
	r.analysing = false
	r.changedLocked()
	wait := r.stopSearchLocked()
	r.mu.Unlock()
	<-wait
}

// Analysing reports whether the room's engine is running.
func (r *Room) Analysing() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.analysing
}

// stopSearchLocked stops the running search and returns a channel closed
// once its follower has ended (the caller waits without holding the lock,
// since the follower takes it).
func (r *Room) stopSearchLocked() <-chan struct{} {
	done := r.searchEnd
	if r.search != nil {
		r.search.Stop()
		r.search = nil
	}
	if done == nil {
		done = make(chan struct{})
		close(done)
	}
	return done
}

// restartLocked starts a search of the current position. The Runner starts
// it once the previous one has returned; the previous one's late reports
// are dropped, since only r.search's reach the lines.
func (r *Room) restartLocked() {
	r.stopSearchLocked()
	g := engine.Game{Start: r.start, Moves: slices.Clone(r.moves[:r.ply])}
	s := r.runner.Start(live.Job{Game: g, Limits: engine.Limits{Infinite: true, MultiPV: r.multiPV}})
	end := make(chan struct{})
	r.search, r.searchEnd = s, end
	go r.follow(s, end)
}

// follow takes a search's reports into the room, a batch per broadcast,
// until the search ends; it closes end then. The room owns it: every
// search the room starts is stopped by the room (a new position, the last
// viewer leaving, the room closing).
func (r *Room) follow(s *live.Search, end chan struct{}) {
	defer close(end)
	for {
		b := s.Next(broadcastEvery)
		r.mu.Lock()
		if r.search == s && r.analysing {
			for _, info := range b.Infos {
				r.addLocked(info)
			}
			if b.Done && b.Err != nil && !errors.Is(b.Err, context.Canceled) {
				r.lines.Reset()
				r.failure = "engine error: " + b.Err.Error()
				r.analysing = false
				r.search = nil
				r.changedLocked()
			}
		}
		r.mu.Unlock()
		if b.Done {
			return
		}
	}
}

// addLocked records a search report. Reports without a PV keep the
// panel's counters moving during long iterations.
func (r *Room) addLocked(info engine.Info) {
	switch info.Kind() {
	case engine.Text:
		return
	case engine.Progress:
		if info.Nodes == 0 && info.CurrMove == chess.NullMove {
			return // nothing the stats line shows
		}
		r.progress = info
		r.changedLocked()
		return
	}
	if _, ok := r.lines.Add(info); ok { // its PV is the room's: the Runner copied it
		r.failure = "" // a search started again after the engine failed
		r.changedLocked()
	}
}

// maxLines is the most analysis lines a room keeps.
const maxLines = 8
