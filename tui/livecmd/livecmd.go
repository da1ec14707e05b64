// Package livecmd brings the reports of a search run by engine/live into a
// bubbletea program: Wait is the command that delivers a search's next
// batch as a Msg, so that a model reads its searches in Update and never
// blocks there. Every model that searches (the board, the suite and review
// views) waits on its searches through it.
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
// more after a batch without Done returns Wait(s) again.
func Wait(s *live.Search) tea.Cmd {
	return func() tea.Msg { return Msg{s.Next(Frame)} }
}
