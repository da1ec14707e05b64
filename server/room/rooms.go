package room

import (
	"fmt"
	"regexp"
	"sort"
	"sync"

	"github.com/squall-chess/squall/engine"
)

// AnalyzerFactory makes the engine for a new room.
type AnalyzerFactory func() (engine.Analyzer, error)

// Info describes a room in the room list.
type Info struct {
	Name      string
	Viewers   int
	Analysing bool
	Ply       int
	Broadcast bool // mirrors a broadcast: read-only
}

// Rooms is a server's rooms by name: it makes each with its own engine,
// under a cap on the engines of the whole server, finds and lists them, and
// closes them with the server. The map is guarded by a mutex (Gambit's
// unguarded rooms map is the race this avoids).
type Rooms struct {
	newAnalyzer AnalyzerFactory
	maxEngines  int

	mu     sync.Mutex
	rooms  map[string]*Room
	closed bool
}

// NewRooms makes an empty set of rooms. Each room gets its own engine from
// newAnalyzer (nil: rooms without analysis); at most maxEngines rooms have
// one, which caps the engine threads of the whole server.
func NewRooms(newAnalyzer AnalyzerFactory, maxEngines int) *Rooms {
	return &Rooms{newAnalyzer: newAnalyzer, maxEngines: maxEngines, rooms: map[string]*Room{}}
}

var roomName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$`)

// Create makes a room, or returns the existing one of that name.
func (h *Rooms) Create(name string) (*Room, error) {
	if !roomName.MatchString(name) {
		return nil, fmt.Errorf("room name %q: use 1-32 letters, digits, '.', '_' or '-'", name)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, fmt.Errorf("server is shutting down")
	}
	if r, ok := h.rooms[name]; ok {
		return r, nil
	}
	return h.addLocked(name, false)
}

// addLocked makes a new room with its engine, if the server has engines
// and is under its engine cap.
func (h *Rooms) addLocked(name string, readOnly bool) (*Room, error) {
	var a engine.Analyzer
	if h.newAnalyzer != nil {
		if len(h.rooms) >= h.maxEngines {
			return nil, fmt.Errorf("room %s: the server runs %d engines already (its limit)", name, h.maxEngines)
		}
		var err error
		if a, err = h.newAnalyzer(); err != nil {
			return nil, fmt.Errorf("room %s: starting engine: %w", name, err)
		}
	}
	r := newRoom(name, a, readOnly)
	h.rooms[name] = r
	return r, nil
}

// Broadcast opens the read-only room name for a game published from
// outside the server (see Broadcast). Its engine analyses from the start,
// since nobody in the room may start it. The name must be free: a
// broadcast never takes over a room viewers are in.
func (h *Rooms) Broadcast(name string) (*Broadcast, error) {
	if !roomName.MatchString(name) {
		return nil, fmt.Errorf("room name %q: use 1-32 letters, digits, '.', '_' or '-'", name)
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, fmt.Errorf("broadcast %s: server is shutting down", name)
	}
	if _, ok := h.rooms[name]; ok {
		h.mu.Unlock()
		return nil, fmt.Errorf("broadcast %s: a room of that name exists already", name)
	}
	r, err := h.addLocked(name, true)
	h.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("broadcast: %w", err)
	}
	r.mu.Lock()
	if r.analyzer != nil {
		_ = r.startAnalysisLocked() // fails only without an engine
	}
	r.mu.Unlock()
	return &Broadcast{rooms: h, room: r}, nil
}

// Room finds a room by name.
func (h *Rooms) Room(name string) (*Room, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.rooms[name]
	return r, ok
}

// List describes the rooms, sorted by name.
func (h *Rooms) List() []Info {
	h.mu.Lock()
	rooms := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	h.mu.Unlock()
	out := make([]Info, 0, len(rooms))
	for _, r := range rooms {
		s := r.Snapshot()
		out = append(out, Info{Name: r.Name(), Viewers: r.Viewers(), Analysing: s.Analysing, Ply: s.Ply, Broadcast: r.ReadOnly()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Remove ends a room and drops it; its viewers return to the room list,
// told reason.
func (h *Rooms) Remove(name, reason string) {
	h.mu.Lock()
	r, ok := h.rooms[name]
	h.mu.Unlock()
	if ok {
		h.remove(r, reason)
	}
}

// remove ends room r and drops it from h if it is still there under
// its name (a later room of the same name is left alone).
func (h *Rooms) remove(r *Room, reason string) {
	h.mu.Lock()
	if h.rooms[r.name] == r {
		delete(h.rooms, r.name)
	}
	h.mu.Unlock()
	r.End(reason)
}

// Close closes every room, telling viewers reason.
func (h *Rooms) Close(reason string) {
	h.mu.Lock()
	h.closed = true
	rooms := h.rooms
	h.rooms = map[string]*Room{}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, r := range rooms {
		wg.Add(1)
		go func() { defer wg.Done(); r.Close(reason) }()
	}
	wg.Wait()
}
