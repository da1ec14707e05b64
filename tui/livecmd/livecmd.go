// Package livecmd brings what other goroutines report into a bubbletea
// program without blocking Update: Wait is the command that delivers a
// search's next batch (engine/live) as a Msg, and Recv the command that
// delivers a channel's next value as a Received. Every model that searches
// (the board, the suite and review views) waits on its searches through
// Wait; every screen that follows a channel (a room's snapshots, a game's
// updates, the spectators' analysis) through Recv.
package livecmd

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/live"
)

// Frame is the shortest time between two deliveries of one search: a fast
// engine causes at most 15 redraws a second.
const Frame = time.Second / 15

// Msg is one batch of a search's reports, the last one with its end
// (Batch.Done). A model tells its current search's batches from those of a
// search it has replaced by Batch.Gen.
type Msg struct{ live.Batch }

// Wait is the command that delivers the next batch of s: it blocks until s
// reports or ends, then gathers the rest of the frame. A model that wants
// more after a batch without Done returns Wait(s) again. It is Recv's
// counterpart for a search, whose reports are gathered by the frame rather
// than taken one at a time.
func Wait(s *live.Search) tea.Cmd {
	return func() tea.Msg { return Msg{s.Next(Frame)} }
}

// Received is one value taken from a channel: Value, and OK false (Value
// zero) when the channel was closed. From is the channel it came from, so
// that a model tells its current channel's values from the late ones of a
// channel it has left (comparing From with the channel it holds).
type Received[T any] struct {
	From  <-chan T
	Value T
	OK    bool
}

// Recv is the command that delivers the next value of ch as a
// Received[T]; a model that wants the one after returns Recv(ch) again.
// Nil for a nil channel (nothing to wait for).
func Recv[T any](ch <-chan T) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		v, ok := <-ch
		return Received[T]{From: ch, Value: v, OK: ok}
	}
}
