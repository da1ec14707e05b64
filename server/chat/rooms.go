package chat

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Rooms are the chats of the games, by game id. With a NATS connection,
// each server of a cluster keeps its own copy of a game's chat: a line
// posted (or a mute made) on one server is published, and every other
// server with the chat open adds it, after the same checks as its own
// (nothing reaches a screen unchecked); a server that opens a chat late
// asks the others for the lines so far. Each server limits the rate of
// the lines posted on it. With a store, every server keeps each chat
// there too (a line or a mute written before it is acknowledged), and a
// server reads a chat from it when it opens one: what was said outlives
// a crash of every server. Its methods are safe for concurrent use.
type Rooms struct {
	nc     *nats.Conn // nil: this server alone
	st     Store      // nil: the chats are not kept
	origin string     // this Rooms' mark on what it publishes
	subs   []*nats.Subscription

	mu    sync.Mutex
	rooms map[string]*Room
}

// event is a room's news between servers: a line or a mute, the latter
// with the revision of the kept chat it wrote (0: not kept).
type event struct {
	Origin string `json:"origin"`
	Line   *Line  `json:"line,omitempty"`
	Muted  *bool  `json:"muted,omitempty"`
	Rev    uint64 `json:"rev,omitempty"`
}

// history is a room's state as one server answers another's request; Rev
// is the revision of the kept chat its mute is from (0: not kept).
type history struct {
	Lines []Line `json:"lines"`
	Muted bool   `json:"muted"`
	Rev   uint64 `json:"rev,omitempty"`
}

// historyWait is how long a server opening a chat waits for the others'
// lines so far.
const historyWait = time.Second

// The subjects of the chats between servers: squall.chat.ID (news) and
// squall.chat.ID.history (requests for the lines so far), ID in hex.
const (
	chatPrefix    = "squall.chat."
	historySuffix = ".history"
)

// NewRooms is an empty set of chats; nc, if not nil, links them to the
// other servers on the same NATS (two subscriptions for all the chats:
// news of a chat not open here is dropped), and st, if not nil, keeps
// them (the server's store.Store). Close ends the link.
func NewRooms(nc *nats.Conn, st Store) (*Rooms, error) {
	var o [6]byte
	rand.Read(o[:])
	rs := &Rooms{nc: nc, st: st, origin: hex.EncodeToString(o[:]), rooms: map[string]*Room{}}
	if nc == nil {
		return rs, nil
	}
	news, err := nc.Subscribe(chatPrefix+"*", rs.news)
	if err != nil {
		return nil, fmt.Errorf("chat: %w", err)
	}
	ask, err := nc.Subscribe(chatPrefix+"*"+historySuffix, rs.answer)
	if err != nil {
		news.Unsubscribe()
		return nil, fmt.Errorf("chat: %w", err)
	}
	rs.subs = []*nats.Subscription{news, ask}
	return rs, nil
}

// Close ends the link to the other servers.
func (rs *Rooms) Close() {
	for _, s := range rs.subs {
		s.Unsubscribe()
	}
}

// subject is where game id's chat travels between servers.
func subject(id string) string { return chatPrefix + hex.EncodeToString([]byte(id)) }

// open is the chat the subject of a message is about, if open here.
func (rs *Rooms) open(subj string) *Room {
	id, err := hex.DecodeString(strings.TrimSuffix(strings.TrimPrefix(subj, chatPrefix), historySuffix))
	if err != nil {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.rooms[string(id)]
}

// news adds another server's line or mute to the chat, if open here.
func (rs *Rooms) news(m *nats.Msg) {
	var ev event
	r := rs.open(m.Subject)
	if r == nil || json.Unmarshal(m.Data, &ev) != nil || ev.Origin == rs.origin {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// A line already here came first with the lines so far (add drops
	// it).
	if ev.Line != nil && check(ev.Line.Text) == nil {
		r.add(*ev.Line)
	}
	if ev.Muted != nil {
		r.mute(*ev.Muted, ev.Rev)
	}
}

// answer tells another server that opens a chat the lines so far, if it
// is open here and has any.
func (rs *Rooms) answer(m *nats.Msg) {
	r := rs.open(m.Subject)
	if r == nil {
		return
	}
	r.mu.Lock()
	h := history{Lines: slices.Clone(r.lines), Muted: r.muted, Rev: r.rev}
	r.mu.Unlock()
	if len(h.Lines) == 0 && !h.Muted {
		return // nothing to tell: let a server that knows answer
	}
	if data, err := json.Marshal(h); err == nil {
		m.Respond(data)
	}
}

// Room is game id's chat, made at its first use: a kept chat's lines and
// mute so far come from the store a moment later (its first Post waits
// for the store, which refuses a muted spectator's line meanwhile).
func (rs *Rooms) Room(id string) *Room {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r, ok := rs.rooms[id]; ok {
		return r
	}
	r := New()
	r.st, r.id = rs.st, id
	rs.rooms[id] = r
	if rs.st != nil {
		go r.load() // ends within keepTime
	}
	if rs.nc != nil {
		rs.link(id, r)
	}
	return r
}

// load reads the kept chat into r. What fails to read now comes with the
// next line posted here (the store answers a Post with the whole chat).
func (r *Room) load() {
	ctx, cancel := context.WithTimeout(context.Background(), keepTime)
	defer cancel()
	c, err := r.st.Chat(ctx, r.id)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kept(c)
}

// link makes room r of game id tell the other servers its news, and asks
// them for the lines so far; called with rs.mu held.
func (rs *Rooms) link(id string, r *Room) {
	subj, nc := subject(id), rs.nc
	r.tell = func(ev event) {
		ev.Origin = rs.origin
		if data, err := json.Marshal(ev); err == nil {
			nc.Publish(subj, data) // buffered by the client: never blocks
		}
	}
	// The lines so far, from whichever server answers first; this server's
	// own lines of the meantime stay after them.
	go func() { // ends within historyWait
		m, err := nc.Request(subj+historySuffix, nil, historyWait)
		if err != nil {
			return
		}
		var h history
		if json.Unmarshal(m.Data, &h) != nil {
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		var old []Line
		for _, l := range h.Lines {
			if check(l.Text) == nil {
				old = append(old, l)
			}
		}
		r.merge(old)
		if h.Rev > 0 || h.Muted {
			r.mute(h.Muted, h.Rev)
		}
	}()
}

// Forget drops game id's chat (the game is over and its screens gone).
func (rs *Rooms) Forget(id string) {
	rs.mu.Lock()
	delete(rs.rooms, id)
	rs.mu.Unlock()
}

// Keep forgets the chats of every game but those of ids (the games in
// progress): each server forgets the chats of games that ended wherever
// they were hosted.
func (rs *Rooms) Keep(ids []string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for id := range rs.rooms {
		if !slices.Contains(ids, id) {
			delete(rs.rooms, id)
		}
	}
}
