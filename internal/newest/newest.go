// Package newest hands values to readers that want only the newest one:
// each reader has a channel of one slot, and a value sent while the slot
// is full replaces the one waiting there. A slow reader gets the latest
// value, never a backlog, and the sender never waits for it. The server's
// spectators (server/play's Watch) and its rooms' viewers (server/room) read
// their updates so.
package newest

// Readers is a set of such channels. It is not safe for concurrent use:
// its owner guards it with the lock that also orders the values it sends.
type Readers[T any] struct {
	stale   func(last, v T) bool
	readers map[int]*reader[T]
	next    int
}

type reader[T any] struct {
	ch   chan T
	last T // the value last sent
}

// New is an empty set. stale, if not nil, tells a value older than the one
// last sent to a reader (the zero value before the first), which that
// reader then does not get: values may reach the owner out of order, from
// different sources.
func New[T any](stale func(last, v T) bool) *Readers[T] {
	return &Readers[T]{stale: stale, readers: map[int]*reader[T]{}}
}

// Add makes a reader, its channel empty, and returns its id (for Offer and
// Remove) and channel.
func (rs *Readers[T]) Add() (id int, ch <-chan T) {
	r := &reader[T]{ch: make(chan T, 1)}
	id = rs.next
	rs.next++
	rs.readers[id] = r
	return id, r.ch
}

// Send puts v in every reader's slot, in place of any value unread there.
func (rs *Readers[T]) Send(v T) {
	for _, r := range rs.readers {
		rs.put(r, v)
	}
}

// Offer puts v in reader id's slot only (a new reader's first value).
func (rs *Readers[T]) Offer(id int, v T) {
	if r, ok := rs.readers[id]; ok {
		rs.put(r, v)
	}
}

func (rs *Readers[T]) put(r *reader[T], v T) {
	if rs.stale != nil && rs.stale(r.last, v) {
		return
	}
	r.last = v
	select {
	case <-r.ch:
	default:
	}
	r.ch <- v // the slot is free: only put fills it, under the owner's lock
}

// Remove closes reader id's channel; false if there is no such reader (it
// was removed, or closed by CloseAll).
func (rs *Readers[T]) Remove(id int) bool {
	r, ok := rs.readers[id]
	if ok {
		delete(rs.readers, id)
		close(r.ch)
	}
	return ok
}

// CloseAll closes every reader's channel (after its unread value, if any).
func (rs *Readers[T]) CloseAll() {
	for id := range rs.readers {
		rs.Remove(id)
	}
}

// Len is the number of readers.
func (rs *Readers[T]) Len() int { return len(rs.readers) }
