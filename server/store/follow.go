package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// followAgain is how long a broken watch waits before it is followed
// again: long enough not to spin while the store is out of reach, short
// enough that a server misses little once it is back (what it missed
// comes with the watch's first values anyway).
const followAgain = time.Second

// follow is the one way the server follows a bucket: every key's last
// value first, then each write and removal as it comes, each given to fn
// (from follow's goroutine, in order). A watch breaks when the connection
// does, or a NATS server of the cluster restarts; follow tells report of
// each break (report may be nil) and follows again a second later, until
// ctx ends. It returns when ctx has ended.
func follow(ctx context.Context, kv jetstream.KeyValue, fn func(jetstream.KeyValueEntry), report func(error)) {
	for ctx.Err() == nil {
		err := watch(ctx, kv, fn)
		if ctx.Err() != nil {
			return
		}
		if report != nil {
			report(fmt.Errorf("%w; following it again in %v", err, followAgain))
		}
		select {
		case <-ctx.Done():
		case <-time.After(followAgain):
		}
	}
}

// watch follows kv until ctx ends or the watch breaks, and says why.
func watch(ctx context.Context, kv jetstream.KeyValue, fn func(jetstream.KeyValueEntry)) error {
	w, err := kv.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("watch %s: %w", kv.Bucket(), err)
	}
	defer w.Stop()
	for en := range w.Updates() {
		if en != nil { // nil: the last values are all in
			fn(en)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.New("the watch of " + kv.Bucket() + " ended")
}
