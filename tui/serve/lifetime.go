package serve

import (
	"context"
	"sync"

	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/presence"
)

// lifetime is what a play or spectator session must end when it ends:
// its watch of a game, an open review, the player's seeks and presence.
// It is the one piece of the session another goroutine (the server's, at
// the SSH session's end) touches.
type lifetime struct {
	mu       sync.Mutex
	stop     func()
	closed   bool
	lobby    *lobby.Lobby
	presence *presence.Presence
	handle   string // whose seeks go, and who leaves, when the session does
	review   func() // ends an open review (its search and engine)
	// arenas and arena: the arena the player joined, paused at the
	// session's end (lichess pauses a player who leaves the page).
	arenas *play.Arenas
	arena  string
}

// inArena notes the arena the player joined in this session ("": none).
func (w *lifetime) inArena(arenas *play.Arenas, id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.arenas, w.arena = arenas, id
}

// setReview makes end the open review's end; nil: none open. After the
// session's end, end runs at once.
func (w *lifetime) setReview(end func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.review = end
	if w.closed && end != nil {
		end()
		w.review = nil
	}
}

// endReview ends the open review, if any, once.
func (w *lifetime) endReview() {
	w.mu.Lock()
	end := w.review
	w.review = nil
	w.mu.Unlock()
	if end != nil {
		end()
	}
}

// player notes the session's handle: present now, and its seeks withdrawn
// and its presence ended at the session's end.
func (w *lifetime) player(handle string) {
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

// watch makes stops the end of the session's watch of a game (none:
// no watch), ending the watch before; after the session's end, it ends
// them at once.
func (w *lifetime) watch(stops ...func()) {
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

// end is the session's end: its watch and an open review end for good,
// the player's seeks are withdrawn, their presence ends and they are
// paused in the arena they joined.
func (w *lifetime) end() {
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
		if w.arenas != nil {
			ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
			w.arenas.Pause(ctx, w.arena, w.handle) // refused if paused already: nothing to do
			cancel()
		}
	}
	w.closed = true
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
}
