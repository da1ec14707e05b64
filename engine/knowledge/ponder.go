package knowledge

import (
	"sync"

	"github.com/squall-chess/squall/engine"
)

// ponderState hands a ponderhit to the wrapped engine only once its search
// has reported progress. A GUI may send ponderhit right after "go ponder",
// before the engine's search has even begun; an engine told then has no
// search to switch (the built-in one ignores it), and the search would
// ponder until "stop". A running search reports at least its first
// iteration, so the hit is delivered at the latest then.
type ponderState struct {
	mu       sync.Mutex
	reported bool // the search has called the info callback
	hit      bool // ponderhit was received
	// end, when set, ends the search at ponderhit: a book move waits for
	// nothing else, and in a position without a legal move there is
	// nothing to search once pondering is over (an engine may keep
	// waiting for "stop"; the built-in one does).
	end func()
}

// startPonder begins the ponder state of a search (nil unless ponder),
// taking a ponderhit that came before it; end cancels the search, and is
// called at the hit when noMoves. It is called with a.mu held.
func (a *Analyzer) startPonder(ponder bool, end func(), noMoves bool) *ponderState {
	early := a.earlyHit
	a.earlyHit = false
	a.ponder = nil
	if !ponder {
		return nil
	}
	ps := &ponderState{hit: early}
	if noMoves {
		ps.end = end
		if early {
			end()
		}
	}
	a.ponder = ps
	return ps
}

// endPonder forgets the search's ponder state: it is over.
func (a *Analyzer) endPonder() {
	a.mu.Lock()
	a.ponder = nil
	a.mu.Unlock()
}

// ponderHit records a ponderhit and passes it on if the search is running.
func (ps *ponderState) ponderHit(inner engine.Analyzer) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.hit {
		return
	}
	ps.hit = true
	if ps.end != nil {
		ps.end()
		return
	}
	if ps.reported {
		inner.PonderHit()
	}
}

// wasHit reports whether ponderhit was received.
func (ps *ponderState) wasHit() bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.hit
}

// noteReport notes that the search is running and passes on a ponderhit that
// came before; nothing for a search that is not pondering (nil).
func (ps *ponderState) noteReport(inner engine.Analyzer) {
	if ps == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.reported {
		return
	}
	ps.reported = true
	if ps.hit {
		inner.PonderHit()
	}
}

// waitForHit sets end, called at the hit (or at once if the hit came
// already), for a search that has nothing to do but wait for it.
func (ps *ponderState) waitForHit(end func()) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.end = end
	if ps.hit {
		end()
	}
}
