package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrHeld refuses a lease someone else holds; ErrLost says a renewal
// found the lease gone or taken (it expired, or another holder has it).
var (
	ErrHeld = errors.New("held by another")
	ErrLost = errors.New("lease lost")
)

// Leases are named claims that last while they are renewed: a game hosted
// by one server of several. The pattern, tested rather than assumed
// (TestLeases): an Ephemeral bucket, whose age limit is the lease's length
// and whose history is 1; a lease is acquired with Create (which fails
// while the key holds a live value), renewed with Update at the revision
// last written (a new message, so its age starts again), and lapses when
// its holder stops renewing: JetStream removes the message once it is
// older than the bucket's limit, and the next Create succeeds.
type Leases struct{ e *Ephemeral }

// Leases opens (making it if needed) the lease bucket name, of leases
// lasting ttl.
func (s *Store) Leases(ctx context.Context, name string, ttl time.Duration) (*Leases, error) {
	e, err := s.Ephemeral(ctx, name, ttl)
	if err != nil {
		return nil, err
	}
	return &Leases{e: e}, nil
}

// Acquire takes the lease name for holder, returning the revision to renew
// it at; ErrHeld while another holds it.
func (l *Leases) Acquire(ctx context.Context, name, holder string) (uint64, error) {
	rev, err := l.e.Create(ctx, name, []byte(holder))
	if errors.Is(err, ErrStale) {
		return 0, ErrHeld
	}
	return rev, err
}

// Renew keeps the lease for another ttl; rev is the revision Acquire or
// the last Renew returned. ErrLost if the lease lapsed or changed hands.
func (l *Leases) Renew(ctx context.Context, name, holder string, rev uint64) (uint64, error) {
	next, err := l.e.Renew(ctx, name, []byte(holder), rev)
	if errors.Is(err, ErrStale) {
		return 0, fmt.Errorf("%w: %v", ErrLost, err)
	}
	return next, err
}

// Release gives the lease up at revision rev (only if still held there).
func (l *Leases) Release(ctx context.Context, name string, rev uint64) error {
	return l.e.Remove(ctx, name, rev)
}

// Holder is who holds lease name, if anyone, and the revision to renew it
// at (a holder that restarted takes its leases back so).
func (l *Leases) Holder(ctx context.Context, name string) (holder string, rev uint64, held bool, err error) {
	r, held, err := l.e.Get(ctx, name)
	return string(r.Value), r.Rev, held, err
}
