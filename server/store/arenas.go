package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/squall-chess/squall/server/arena"
)

// Arenas: each arena's definition in the bucket squall_arenas (by id),
// and its log of events (server/arena.Event) in the stream SQUALL_ARENAS
// under a subject of its own (squall.arena.ID). The log is the arena:
// every server replays it to the same standings. It is written at its
// last sequence (AppendArenaEvent), as a game's record is at its revision,
// so an event is always computed from every event before it: a pairing
// wave from the players who had joined, a join from the arena as it was.

const (
	arenasBucket       = "squall_arenas"
	arenaStream        = "SQUALL_ARENAS"
	arenaSubjectPrefix = "squall.arena"
)

// arenaStreamConfig is the arenas' log.
var arenaStreamConfig = jetstream.StreamConfig{
	Name: arenaStream, Description: "Squall's arena tournaments, each one's events", Subjects: []string{arenaSubjectPrefix + ".>"},
	Storage: jetstream.FileStorage, MaxMsgSize: 64 << 10,
}

func arenaSubject(id string) string { return arenaSubjectPrefix + "." + key(id) }

// CreateArena stores a new arena's definition; ErrStale if the id is
// taken.
func (s *Store) CreateArena(ctx context.Context, def arena.Definition) error {
	if err := def.Check(); err != nil {
		return err
	}
	data, err := json.Marshal(def)
	if err != nil {
		return err
	}
	if _, err := s.arenas.Create(ctx, key(def.ID), data); err != nil {
		return fmt.Errorf("arena %s: %w", def.ID, stale(err))
	}
	return nil
}

// Arenas are every arena's definition, in no order.
func (s *Store) Arenas(ctx context.Context) ([]arena.Definition, error) {
	keys, err := s.arenas.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("arenas: %w", err)
	}
	var out []arena.Definition
	for k := range keys.Keys() {
		var d arena.Definition
		found, err := getJSON(ctx, s.arenas, k, &d)
		if err != nil {
			return nil, fmt.Errorf("arenas: %w", err)
		}
		if found {
			out = append(out, d)
		}
	}
	return out, nil
}

// ArenaEvent is one event of an arena's log with its place there (the
// stream's sequence, which the next write is made at).
type ArenaEvent struct {
	arena.Event
	Seq uint64
}

// ArenaEvents are arena id's events written after sequence after (0: all
// of them), in order. It reads that arena's subject only.
func (s *Store) ArenaEvents(ctx context.Context, id string, after uint64) ([]ArenaEvent, error) {
	subj := arenaSubject(id)
	var out []ArenaEvent
	for seq := after + 1; ; {
		m, err := s.arenaLog.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subj))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("arena %s: %w", id, err)
		}
		seq = m.Sequence + 1
		var e arena.Event
		if err := json.Unmarshal(m.Data, &e); err != nil {
			return nil, fmt.Errorf("arena %s: event at %d: %w", id, m.Sequence, err)
		}
		out = append(out, ArenaEvent{Event: e, Seq: m.Sequence})
	}
}

// AppendArenaEvent writes e at the end of arena id's log, whose last event
// the writer has read at sequence last (0: none); ErrStale if another was
// written since, and the writer must read it and decide again. It returns
// e's sequence.
func (s *Store) AppendArenaEvent(ctx context.Context, id string, e arena.Event, last uint64) (uint64, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return 0, err
	}
	ack, err := s.js.Publish(ctx, arenaSubject(id), data, jetstream.WithExpectLastSequencePerSubject(last))
	if err != nil {
		return 0, fmt.Errorf("arena %s: %s: %w", id, e.Kind, stale(err))
	}
	return ack.Sequence, nil
}
