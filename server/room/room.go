// Package room is Squall's rooms of live analysis, the service behind
// `ssh host room NAME`: each room holds one authoritative game (a start
// position, its moves and the ply shown) and one engine analysing the
// shown position, and fans both out to every viewer.
//
// The engine runs once per room, never once per viewer, and only while
// somebody is in the room. Viewers receive immutable Snapshots over their
// own one-slot channel (the newest replaces an unread one) at most every
// 50 ms, so a slow terminal never holds up the room or the other viewers.
//
// Rooms is a server's set of rooms: it makes them by name, each with its
// own engine under a cap on the engines of the whole server, lists them and
// closes them. A Broadcast is a read-only room whose game is published from
// outside the server (the local board, `squall --broadcast`). Who may change
// a room (an owner) and who only watches is the caller's to decide; nothing
// here draws or knows SSH (the screens are tui/serve's).
package room

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/internal/newest"
)

// ErrReadOnly is the error of every change asked of a broadcast room: it
// follows the broadcaster's game alone (see Broadcast).
var ErrReadOnly = errors.New("the room mirrors a broadcast and is read-only")

// Room is one shared game with its analysis. All methods are safe for
// concurrent use.
type Room struct {
	name     string
	readOnly bool // a broadcast room: changed only through its Broadcast

	mu        sync.Mutex
	start     *chess.Position
	moves     []chess.Move
	ply       int
	pos       *chess.Position // position at ply
	lines     live.Lines      // the search's lines, maxLines of them
	failure   string          // the engine's error, shown instead of the lines ("" while none)
	progress  engine.Info
	sans      []string // moves in SAN (a new slice at each change: snapshots share it)
	seq       uint64   // bumped on every change
	sent      uint64   // seq of the last broadcast
	subs      *newest.Readers[*Snapshot]
	owners    map[int]bool // the subscriptions of owners, who are not counted as viewers
	analyzer  engine.Analyzer
	runner    *live.Runner // nil without an analyzer
	multiPV   int
	analysing bool
	// search is the running analysis (nil when none): only its reports
	// reach the lines. searchEnd is closed when its follower has ended.
	search    *live.Search
	searchEnd chan struct{}
	closing   string // why the server is shutting down
	ended     string // why the room ended while the server runs on
	closed    bool

	stopTicker chan struct{}
	tickerDone chan struct{}
}

// NewRoom makes a room on the start position. analyzer may be nil (no
// analysis); the room owns it from now on and closes it in Close.
func NewRoom(name string, analyzer engine.Analyzer) *Room {
	return newRoom(name, analyzer, false)
}

func newRoom(name string, analyzer engine.Analyzer, readOnly bool) *Room {
	r := &Room{
		name:       name,
		readOnly:   readOnly,
		start:      chess.NewPosition(),
		pos:        chess.NewPosition(),
		subs:       newest.New[*Snapshot](nil),
		owners:     map[int]bool{},
		analyzer:   analyzer,
		runner:     live.New(analyzer),
		lines:      live.Lines{Max: maxLines},
		multiPV:    3,
		stopTicker: make(chan struct{}),
		tickerDone: make(chan struct{}),
	}
	go r.broadcastLoop()
	return r
}

// Name is the room's name.
func (r *Room) Name() string { return r.name }

// ReadOnly reports whether the room mirrors a broadcast: its game, shown
// ply and analysis then change only through the Broadcast, and every other
// change (an owner's too) fails with ErrReadOnly.
func (r *Room) ReadOnly() bool { return r.readOnly }

// refuseLocked is the error of a change asked of a read-only or closed room.
func (r *Room) refuseLocked() error {
	switch {
	case r.readOnly:
		return fmt.Errorf("room %s: %w", r.name, ErrReadOnly)
	case r.closed:
		return fmt.Errorf("room %s is closed", r.name)
	}
	return nil
}

// Subscribe registers a viewer. The channel holds at most one snapshot: the
// newest replaces an unread older one. It is closed by Unsubscribe or when
// the room closes. The room's analysis runs while it has a subscriber.
func (r *Room) Subscribe() (id int, updates <-chan *Snapshot) {
	return r.subscribe(false)
}

// SubscribeOwner is Subscribe for an owner's session: it watches like a
// viewer but is not counted as one.
func (r *Room) SubscribeOwner() (id int, updates <-chan *Snapshot) {
	return r.subscribe(true)
}

func (r *Room) subscribe(owner bool) (id int, updates <-chan *Snapshot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		ch := make(chan *Snapshot)
		close(ch)
		return -1, ch // no subscriber: Unsubscribe(-1) does nothing
	}
	id, updates = r.subs.Add()
	r.subs.Offer(id, r.snapshotLocked())
	if owner {
		r.owners[id] = true
	}
	if r.subs.Len() == 1 && r.analysing {
		r.restartLocked() // the first to arrive wakes the analysis
	}
	return id, updates
}

// Unsubscribe removes a subscriber and closes its channel. When the last
// one leaves, the search stops (analysis stays on, to resume with the next
// subscriber): nobody watching costs no engine time.
func (r *Room) Unsubscribe(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.subs.Remove(id)
	delete(r.owners, id)
	if r.subs.Len() == 0 {
		r.stopSearchLocked() // not waited for: the follower takes r.mu
	}
}

// Viewers counts the subscribed viewers, owners not included.
func (r *Room) Viewers() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.subs.Len() - len(r.owners)
}

// searchWantedLocked reports whether the room's engine should be searching:
// analysis is on and somebody is in the room.
func (r *Room) searchWantedLocked() bool {
	return r.analysing && r.subs.Len() > 0 && !r.closed
}

// Move plays m at the shown ply. Moves after it are replaced, as on an
// analysis board without variations.
func (r *Room) Move(m chess.Move) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.refuseLocked(); err != nil {
		return err
	}
	if !r.pos.IsLegal(m) {
		return fmt.Errorf("room %s: %s is not legal here", r.name, m.UCI(r.pos.Chess960()))
	}
	r.setMovesLocked(append(slices.Clip(r.moves[:r.ply]), m))
	return r.gotoLocked(r.ply + 1)
}

// MoveText plays a move given in SAN or UCI.
func (r *Room) MoveText(s string) error {
	r.mu.Lock()
	m, err := r.pos.ParseTyped(s)
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("room %s: %w", r.name, err)
	}
	return r.Move(m)
}

// Goto shows ply n of the game (clamped to the game's length).
func (r *Room) Goto(n int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.refuseLocked(); err != nil {
		return err
	}
	return r.gotoLocked(max(0, min(n, len(r.moves))))
}

// Step moves the shown ply by delta.
func (r *Room) Step(delta int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.refuseLocked(); err != nil {
		return err
	}
	return r.gotoLocked(max(0, min(r.ply+delta, len(r.moves))))
}

// Load replaces the game.
func (r *Room) Load(g engine.Game) error {
	if _, err := g.Position(); err != nil {
		return fmt.Errorf("room %s: %w", r.name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.refuseLocked(); err != nil {
		return err
	}
	r.start = g.Start.Clone()
	r.setMovesLocked(slices.Clone(g.Moves))
	return r.gotoLocked(len(r.moves))
}

// publish sets the game of a broadcast room: the broadcaster's start
// position and moves, showing ply. Publishing what the room already shows
// changes nothing, so a broadcaster may publish on every frame; moves
// changed after the shown ply do not restart the analysis.
func (r *Room) publish(g engine.Game, ply int) error {
	if ply < 0 || ply > len(g.Moves) {
		return fmt.Errorf("room %s: ply %d is outside the game's %d moves", r.name, ply, len(g.Moves))
	}
	if _, err := g.Position(); err != nil {
		return fmt.Errorf("room %s: %w", r.name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("room %s is closed", r.name)
	}
	if ply == r.ply && ply <= len(r.moves) && slices.Equal(r.moves[:ply], g.Moves[:ply]) && r.start.FEN() == g.Start.FEN() {
		if !slices.Equal(r.moves, g.Moves) {
			r.setMovesLocked(slices.Clone(g.Moves))
			r.changedLocked()
		}
		return nil
	}
	r.start = g.Start.Clone()
	r.setMovesLocked(slices.Clone(g.Moves))
	return r.gotoLocked(ply)
}

// setMovesLocked sets the game's moves, legal from r.start, and their SAN
// for the viewers' move lists.
func (r *Room) setMovesLocked(moves []chess.Move) {
	r.moves = moves
	r.sans = r.start.SANs(moves)
}

// LoadFEN replaces the game by a position.
func (r *Room) LoadFEN(fen string) error {
	p, err := chess.ParseFEN(fen)
	if err != nil {
		return fmt.Errorf("room %s: %w", r.name, err)
	}
	return r.Load(engine.Game{Start: p})
}

func (r *Room) gotoLocked(ply int) error {
	pos, err := engine.Game{Start: r.start, Moves: r.moves[:ply]}.Position()
	if err != nil {
		return fmt.Errorf("room %s: %w", r.name, err)
	}
	r.ply, r.pos = ply, pos
	r.lines.Reset()
	r.failure = ""
	r.progress = engine.Info{}
	r.changedLocked()
	if r.searchWantedLocked() {
		r.restartLocked()
	} else {
		r.stopSearchLocked() // none runs; not waited for, as in Unsubscribe
	}
	return nil
}

// Close is the room's part of the server's shutdown: it stops the
// analysis, tells viewers the server is shutting down and why (reason),
// and closes their channels and the engine. Viewers' sessions then end.
func (r *Room) Close(reason string) { r.shut(reason, true) }

// End closes a room while the server runs on: its viewers return to the
// room list and are told reason (see EndReason).
func (r *Room) End(reason string) { r.shut(reason, false) }

// EndReason is why the room ended ("" while it is open, or when it closed
// with the server).
func (r *Room) EndReason() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ended
}

func (r *Room) shut(reason string, serverClosing bool) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.analysing = false
	wait := r.stopSearchLocked()
	if serverClosing {
		r.closing = reason
		r.subs.Send(r.snapshotLocked())
	} else {
		r.ended = reason
	}
	r.closed = true
	r.mu.Unlock()
	<-wait
	if r.runner != nil {
		r.runner.Close() // returns once the search has
	}
	close(r.stopTicker)
	<-r.tickerDone
	r.mu.Lock()
	r.subs.CloseAll()
	a := r.analyzer
	r.mu.Unlock()
	if a != nil {
		a.Close()
	}
}
