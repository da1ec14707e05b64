package room

import (
	"slices"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Snapshot is a room's state at one moment. It is never mutated after it is
// sent, so viewers may keep and read it freely.
type Snapshot struct {
	Room       string
	Seq        uint64 // increases with every change
	Start      *chess.Position
	Moves      []chess.Move // the game's moves
	Ply        int          // the ply being shown and analysed (0 = start)
	Position   *chess.Position
	Analysing  bool
	EngineName string
	Lines      []engine.Info // best line first; PVs from Position
	// LinesSAN holds each line's PV in SAN, and SANs the game's moves (all
	// of Moves): made once for all viewers, without move numbers (each
	// screen numbers them its own way; the first move of a line is played
	// at Position's ply).
	LinesSAN [][]string
	SANs     []string
	// Progress is the newest report without a PV (nodes, time and the
	// root move being searched), which long iterations send between lines;
	// CurrMoveSAN is its root move in SAN ("" if none).
	Progress    engine.Info
	CurrMoveSAN string
	Closing     string // non-empty when the server is shutting down
}

// Game returns the game up to the shown ply.
func (s *Snapshot) Game() engine.Game {
	return engine.Game{Start: s.Start, Moves: s.Moves[:s.Ply]}
}

// broadcastEvery bounds how often a room sends snapshots: engines report
// hundreds of infos a second early in a search, far more than any viewer
// can draw (the views themselves render at most 15 times a second).
const broadcastEvery = 50 * time.Millisecond

// Snapshot returns the current state.
func (r *Room) Snapshot() *Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.snapshotLocked()
}

func (r *Room) snapshotLocked() *Snapshot {
	s := &Snapshot{
		Room:      r.name,
		Seq:       r.seq,
		Start:     r.start,
		Moves:     slices.Clip(r.moves),
		Ply:       r.ply,
		Position:  r.pos.Clone(),
		Analysing: r.analysing,
		Lines:     r.lines.All(),
		SANs:      r.sans,
		Progress:  r.progress,
		Closing:   r.closing,
	}
	if mv := r.progress.CurrMove; mv != chess.NullMove && r.pos.IsLegal(mv) {
		s.CurrMoveSAN = r.pos.SAN(mv)
	}
	if r.failure != "" {
		s.Lines = []engine.Info{{String: r.failure}}
	}
	for _, l := range s.Lines {
		s.LinesSAN = append(s.LinesSAN, r.pos.SANs(l.PV))
	}
	if r.analyzer != nil {
		s.EngineName = r.analyzer.Name()
	}
	return s
}

// changedLocked marks new state for the next broadcast tick.
func (r *Room) changedLocked() { r.seq++ }

func (r *Room) broadcastLoop() {
	defer close(r.tickerDone)
	t := time.NewTicker(broadcastEvery)
	defer t.Stop()
	for {
		select {
		case <-r.stopTicker:
			return
		case <-t.C:
			r.mu.Lock()
			if r.seq != r.sent {
				r.sent = r.seq
				r.subs.Send(r.snapshotLocked())
			}
			r.mu.Unlock()
		}
	}
}
