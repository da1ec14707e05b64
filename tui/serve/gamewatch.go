package serve

import (
	"context"
	"sync"

	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/presence"
)

// gameWatch is the session's watch of a game: the one piece of the play
// session another goroutine (the server's, at the session's end) touches.
type gameWatch struct {
	mu       sync.Mutex
	stop     func()
	closed   bool
	lobby    *lobby.Lobby
	presence *presence.Presence
	handle   string // whose seeks go, and who leaves, when the session does
	review   func() // ends an open review (its search and engine)
}

// setReview makes end the open review's end; nil: none open. After
// release, end runs at once.
func (w *gameWatch) setReview(end func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.review = end
	if w.closed && end != nil {
		end()
		w.review = nil
	}
}

// endReview ends the open review, if any, once.
func (w *gameWatch) endReview() {
	w.mu.Lock()
	end := w.review
	w.review = nil
	w.mu.Unlock()
	if end != nil {
		end()
	}
}

// player notes the session's handle: present now, and its seeks withdrawn
// and its presence ended by release.
func (w *gameWatch) player(handle string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.handle != "" {
		return
	}
	w.handle = handle
	if w.presence != nil {
		w.presence.Join(handle)
	}
}

// set makes stops the watch's end, ending the ones before; after release,
// it ends them at once.
func (w *gameWatch) set(stops ...func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil {
		w.stop()
	}
	all := func() {
		for _, f := range stops {
			f()
		}
	}
	w.stop = all
	if w.closed {
		all()
		w.stop = nil
	}
}

// release ends the watch (and an open review) for good, and withdraws the
// player's seeks.
func (w *gameWatch) release() {
	w.endReview()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.handle != "" && !w.closed {
		if w.lobby != nil {
			ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
			w.lobby.Leave(ctx, w.handle) // what fails lapses with the seeks' ttl
			cancel()
		}
		if w.presence != nil {
			w.presence.Leave(w.handle)
		}
	}
	w.closed = true
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
}
