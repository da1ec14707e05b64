package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrHeld refuses a lease someone else holds; ErrLost says a renewal
// found the lease gone or taken (it expired, or another holder has it).
var (
	ErrHeld = errors.New("held by another")
	ErrLost = errors.New("lease lost")
)

// Leases are named claims that last while they are renewed: a game hosted
// by one node of several (issue 22). The pattern, tested rather than
// assumed: a bucket whose age limit is the lease's length and whose
// history is 1; a lease is acquired with Create (which fails while the key
// holds a live value), renewed with Update at the revision last written
// (a new message, so its age starts again), and lapses when its holder
// stops renewing: JetStream removes the message once it is older than the
// bucket's limit, and the next Create succeeds.
type Leases struct {
	kv  jetstream.KeyValue
	ttl time.Duration
}

// Leases opens (making it if needed) the lease bucket name, of leases
// lasting ttl.
func (s *Store) Leases(ctx context.Context, name string, ttl time.Duration) (*Leases, error) {
	kv, err := s.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: name, Description: "Squall leases", TTL: ttl, History: 1, Storage: jetstream.FileStorage, Replicas: s.replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("lease bucket %s: %w", name, err)
	}
	return &Leases{kv: kv, ttl: ttl}, nil
}

// Acquire takes the lease name for holder, returning the revision to renew
// it at; ErrHeld while another holds it.
func (l *Leases) Acquire(ctx context.Context, name, holder string) (uint64, error) {
	rev, err := l.kv.Create(ctx, key(name), []byte(holder))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return 0, ErrHeld
	}
	return rev, err
}

// Renew keeps the lease for another ttl; rev is the revision Acquire or
// the last Renew returned. ErrLost if the lease lapsed or changed hands.
func (l *Leases) Renew(ctx context.Context, name, holder string, rev uint64) (uint64, error) {
	next, err := l.kv.Update(ctx, key(name), []byte(holder), rev)
	if err != nil {
		var apiErr *jetstream.APIError
		if errors.As(err, &apiErr) || errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyExists) {
			return 0, fmt.Errorf("%w: %v", ErrLost, err)
		}
		return 0, err
	}
	return next, nil
}

// Release gives the lease up at revision rev (only if still held there).
func (l *Leases) Release(ctx context.Context, name string, rev uint64) error {
	return l.kv.Delete(ctx, key(name), jetstream.LastRevision(rev))
}

// Holder is who holds lease name, if anyone, and the revision to renew it
// at (a holder that restarted takes its leases back so).
func (l *Leases) Holder(ctx context.Context, name string) (holder string, rev uint64, held bool, err error) {
	e, err := l.kv.Get(ctx, key(name))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, err
	}
	return string(e.Value()), e.Revision(), true, nil
}
