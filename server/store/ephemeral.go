package store

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Ephemeral is a bucket of records that last while their writer renews
// them: games' leases, open seeks, who is connected. Each record lapses
// ttl after its last write (the bucket's age limit; history 1), so the
// records of a server that died go by themselves. Writes are made at a
// revision, as leases need: Create fails while the key holds a live
// record, Renew and Remove fail (ErrStale) once another write came
// between.
type Ephemeral struct {
	kv  jetstream.KeyValue
	ttl time.Duration
}

// Record is one record of an Ephemeral bucket; Value is nil when the
// record was removed.
type Record struct {
	Key   string
	Value []byte
	Rev   uint64
}

// Ephemeral opens (making it if needed) the bucket name of records
// lasting ttl.
func (s *Store) Ephemeral(ctx context.Context, name string, ttl time.Duration) (*Ephemeral, error) {
	ctx, cancel := context.WithTimeout(ctx, setUpTime)
	defer cancel()
	kv, err := s.bucket(ctx, jetstream.KeyValueConfig{
		Bucket: name, Description: "Squall records lasting while renewed", TTL: ttl, History: 1, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, err
	}
	return &Ephemeral{kv: kv, ttl: ttl}, nil
}

// TTL is how long a record lasts unrenewed.
func (e *Ephemeral) TTL() time.Duration { return e.ttl }

// Create writes a new record; ErrStale while the key holds a live one.
func (e *Ephemeral) Create(ctx context.Context, k string, value []byte) (uint64, error) {
	rev, err := e.kv.Create(ctx, key(k), value)
	return rev, stale(err)
}

// Renew writes the record again (its age starts again) at revision rev,
// the last written; ErrStale if it lapsed or was written since by anyone
// else. A record written since that holds value is the writer's own: a
// renewal whose answer was lost (a timeout) after it reached the store,
// which left the writer a revision behind. It is renewed at its revision,
// rather than the writer giving up its lease or seek.
func (e *Ephemeral) Renew(ctx context.Context, k string, value []byte, rev uint64) (uint64, error) {
	next, err := e.kv.Update(ctx, key(k), value, rev)
	if err = stale(err); !errors.Is(err, ErrStale) {
		return next, err
	}
	r, found, gerr := e.Get(ctx, k)
	if gerr != nil {
		return 0, gerr // not known to be stale: the next renewal asks again
	}
	if !found || r.Rev == rev || !bytes.Equal(r.Value, value) {
		return 0, err
	}
	next, err = e.kv.Update(ctx, key(k), value, r.Rev)
	return next, stale(err)
}

// Remove deletes the record at revision rev; ErrStale if it was written
// since (or is gone).
func (e *Ephemeral) Remove(ctx context.Context, k string, rev uint64) error {
	return stale(e.kv.Delete(ctx, key(k), jetstream.LastRevision(rev)))
}

// Get is the record k, if live.
func (e *Ephemeral) Get(ctx context.Context, k string) (Record, bool, error) {
	en, err := e.kv.Get(ctx, key(k))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, err
	}
	return Record{Key: k, Value: en.Value(), Rev: en.Revision()}, true, nil
}

// stale maps JetStream's refusals of a write at a revision to ErrStale.
func stale(err error) error {
	var apiErr *jetstream.APIError
	if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) ||
		errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence || apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
		return fmt.Errorf("%w: %v", ErrStale, err)
	}
	return err
}

// Mirror is this server's copy of an Ephemeral bucket, for reading it
// often (a lobby redraws every second): Follow keeps it, and a record
// lapses here too, ttl after its last write was seen (the bucket drops
// lapsed records without a word). Its methods are safe for concurrent use.
type Mirror struct {
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	recs map[string]mirrorRec
}

type mirrorRec struct {
	Record
	seen time.Time
}

// NewMirror is an empty mirror of records lasting ttl; now is its clock
// (nil: time.Now).
func NewMirror(ttl time.Duration, now func() time.Time) *Mirror {
	if now == nil {
		now = time.Now
	}
	return &Mirror{ttl: ttl, now: now, recs: map[string]mirrorRec{}}
}

// Follow keeps the mirror of e until ctx ends, following e again a
// second after its watch breaks (report, if not nil, hears of each
// break). It returns once ctx has ended.
func (m *Mirror) Follow(ctx context.Context, e *Ephemeral, report func(error)) {
	follow(ctx, e.kv, func(en jetstream.KeyValueEntry) {
		k, err := hex.DecodeString(en.Key())
		if err != nil {
			return
		}
		r := Record{Key: string(k), Rev: en.Revision()}
		if en.Operation() == jetstream.KeyValuePut {
			r.Value = en.Value()
		}
		m.Note(r)
	}, report)
}

// Note records r in the mirror (a write this server made shows at once,
// before its echo from the bucket); a removal has a nil Value. An older
// revision than the mirror's is ignored (the echo of a write this server
// has since removed).
func (m *Mirror) Note(r Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.recs[r.Key]; ok && old.Rev > r.Rev {
		return
	}
	m.recs[r.Key] = mirrorRec{Record: r, seen: m.now()} // a removal stays as a tombstone for a ttl
}

// Records are the live records, in no order.
func (m *Mirror) Records() []Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	out := make([]Record, 0, len(m.recs))
	for k, r := range m.recs {
		if now.Sub(r.seen) >= m.ttl {
			delete(m.recs, k)
			continue
		}
		if r.Value != nil {
			out = append(out, r.Record)
		}
	}
	return out
}
