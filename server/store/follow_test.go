package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// brokenKV is a bucket whose watches break: the first cannot start, the
// second ends after one value, the third lasts until its context ends.
type brokenKV struct {
	jetstream.KeyValue // nil: only WatchAll and Bucket are called
	mu                 sync.Mutex
	watches            int
}

func (b *brokenKV) Bucket() string { return "test" }

func (b *brokenKV) WatchAll(ctx context.Context, _ ...jetstream.WatchOpt) (jetstream.KeyWatcher, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.watches++
	if b.watches == 1 {
		return nil, errors.New("no responders")
	}
	ch := make(chan jetstream.KeyValueEntry, 2)
	ch <- entry{key: strings.Repeat("k", b.watches)}
	ch <- nil // the last values are in
	if b.watches == 2 {
		close(ch)
	} else {
		context.AfterFunc(ctx, func() { close(ch) })
	}
	return watcher(ch), nil
}

type watcher <-chan jetstream.KeyValueEntry

func (w watcher) Updates() <-chan jetstream.KeyValueEntry { return w }
func (w watcher) Stop() error                             { return nil }

type entry struct {
	jetstream.KeyValueEntry // nil: only Key is called
	key                     string
}

func (e entry) Key() string { return e.key }

// TestFollowAgain: a watch that cannot start or ends is followed again a
// second later, each break reported, until the context ends.
func TestFollowAgain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	keys := make(chan string, 4)
	var reports []string
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		follow(ctx, &brokenKV{}, func(en jetstream.KeyValueEntry) { keys <- en.Key() }, func(err error) { reports = append(reports, err.Error()) })
	}()
	for _, want := range []string{"kk", "kkk"} {
		select {
		case k := <-keys:
			if k != want {
				t.Fatalf("key %q, want %q", k, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no key %q", want)
		}
	}
	if d := time.Since(start); d < 2*followAgain {
		t.Errorf("the third watch began after %v, want two waits of %v", d, followAgain)
	}
	cancel()
	<-done // follow ends with its context, reporting nothing then
	want := []string{
		"watch test: no responders; following it again in 1s",
		"the watch of test ended; following it again in 1s",
	}
	if strings.Join(reports, "\n") != strings.Join(want, "\n") {
		t.Errorf("reports:\n%s\nwant:\n%s", strings.Join(reports, "\n"), strings.Join(want, "\n"))
	}
}
