// Package serve shares Squall over SSH: rooms that each hold one
// authoritative game and one analysis search, fanned out to every viewer.
//
// The engine runs once per room, never once per viewer. Viewers receive
// immutable Snapshots over their own small channel (latest wins), so a slow
// terminal never holds up the room or the other viewers.
package serve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/internal/newest"
	"github.com/squall-chess/squall/tui/movelist"
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
	// LinesSAN holds each line's PV in SAN with move numbers, and SANs
	// the game's moves (all of Moves) in SAN: made once for all viewers.
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
	lines     []engine.Info
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
		runner:     newRunner(analyzer),
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
		Lines:     slices.Clone(r.lines),
		SANs:      r.sans,
		Progress:  r.progress,
		Closing:   r.closing,
	}
	if mv := r.progress.CurrMove; mv != chess.NullMove && r.pos.IsLegal(mv) {
		s.CurrMoveSAN = r.pos.SAN(mv)
	}
	for _, l := range r.lines {
		s.LinesSAN = append(s.LinesSAN, movelist.Line(r.pos, l.PV))
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
	r.sans = movelist.SANs(r.start, moves)
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
	r.lines = nil
	r.progress = engine.Info{}
	r.changedLocked()
	if r.searchWantedLocked() {
		r.restartLocked()
	} else {
		r.stopSearchLocked() // none runs; not waited for, as in Unsubscribe
	}
	return nil
}

// StartAnalysis turns on infinite analysis of the shown position, if the
// room has an engine. It follows the position as it changes until stopped,
// and searches only while the room has a subscriber.
func (r *Room) StartAnalysis() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.readOnly {
		return fmt.Errorf("room %s: %w", r.name, ErrReadOnly)
	}
	return r.startAnalysisLocked()
}

func (r *Room) startAnalysisLocked() error {
	if r.analyzer == nil {
		return fmt.Errorf("room %s: no engine", r.name)
	}
	if r.analysing || r.closed {
		return nil
	}
	r.analysing = true
	r.changedLocked()
	if r.searchWantedLocked() {
		r.restartLocked()
	}
	return nil
}

// StopAnalysis stops the search; the last lines stay visible. A read-only
// room's analysis runs until the room ends: StopAnalysis leaves it alone.
func (r *Room) StopAnalysis() {
	if r.readOnly {
		return
	}
	r.mu.Lock()
	r.analysing = false
	r.changedLocked()
	wait := r.stopSearchLocked()
	r.mu.Unlock()
	<-wait
}

// Analysing reports whether the room's engine is running.
func (r *Room) Analysing() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.analysing
}

// newRunner is the Runner of a room's analyzer (nil without one).
func newRunner(a engine.Analyzer) *live.Runner {
	if a == nil {
		return nil
	}
	return live.New(a)
}

// stopSearchLocked stops the running search and returns a channel closed
// once its follower has ended (the caller waits without holding the lock,
// since the follower takes it).
func (r *Room) stopSearchLocked() <-chan struct{} {
	done := r.searchEnd
	if r.search != nil {
		r.search.Stop()
		r.search = nil
	}
	if done == nil {
		done = make(chan struct{})
		close(done)
	}
	return done
}

// restartLocked starts a search of the current position. The Runner starts
// it once the previous one has returned; the previous one's late reports
// are dropped, since only r.search's reach the lines.
func (r *Room) restartLocked() {
	r.stopSearchLocked()
	g := engine.Game{Start: r.start, Moves: slices.Clone(r.moves[:r.ply])}
	s := r.runner.Start(live.Job{Game: g, Limits: engine.Limits{Infinite: true, MultiPV: r.multiPV}})
	end := make(chan struct{})
	r.search, r.searchEnd = s, end
	go r.follow(s, end)
}

// follow takes a search's reports into the room, a batch per broadcast,
// until the search ends; it closes end then. The room owns it: every
// search the room starts is stopped by the room (a new position, the last
// viewer leaving, the room closing).
func (r *Room) follow(s *live.Search, end chan struct{}) {
	defer close(end)
	for {
		b := s.Next(broadcastEvery)
		r.mu.Lock()
		if r.search == s && r.analysing {
			for _, info := range b.Infos {
				r.addLocked(info)
			}
			if b.Done && b.Err != nil && !errors.Is(b.Err, context.Canceled) {
				r.lines = []engine.Info{{String: "engine error: " + b.Err.Error()}}
				r.analysing = false
				r.search = nil
				r.changedLocked()
			}
		}
		r.mu.Unlock()
		if b.Done {
			return
		}
	}
}

// addLocked records a search report. Reports without a PV keep the
// panel's counters moving during long iterations.
func (r *Room) addLocked(info engine.Info) {
	switch info.Kind() {
	case engine.Text:
		return
	case engine.Progress:
		if info.Nodes == 0 && info.CurrMove == chess.NullMove {
			return // nothing the stats line shows
		}
		r.progress = info
		r.changedLocked()
		return
	}
	idx := max(info.MultiPV, 1) - 1
	if idx >= 8 {
		return
	}
	for len(r.lines) <= idx {
		r.lines = append(r.lines, engine.Info{})
	}
	r.lines[idx] = info // its PV is the room's: the Runner copied it
	r.changedLocked()
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
