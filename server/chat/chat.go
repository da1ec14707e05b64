// Package chat is a game's chat: players and spectators post short lines,
// each made safe by the one sanitiser (termtext's SafeLine: an escape
// sequence is one mark, other controls visible stand-ins, nothing after
// them lost) and checked before it is kept — length and rate — and players may
// mute the spectators, whose lines then reach only other spectators. On
// several servers of one NATS, each server's copy of a game's chat hears
// the others' lines (Rooms). With a store, a game's lines and mute are
// kept there as its moves are, each written before it is acknowledged:
// a server that crashed and started again has them.
package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
)

// Limits of a chat.
const (
	MaxLen   = 140 // characters a line
	MaxLines = 200 // lines kept; older ones go
	// maxRaw bounds a line before it is made safe, in bytes: a sequence of
	// any length becomes one mark, but no honest line is this long.
	maxRaw = 64 * MaxLen
	// Each handle may post a line every two seconds on average, three at
	// once.
	every = 2 * time.Second
	burst = 3
)

// Errors of a refused line; the chat is unchanged by them.
var (
	ErrEmpty   = errors.New("nothing to say")
	ErrTooLong = fmt.Errorf("a line has at most %d characters", MaxLen)
	// ErrControl refuses a line from another server that was not made
	// safe (Post makes its own lines safe).
	ErrControl = errors.New("a line cannot hold control characters")
	ErrTooFast = errors.New("slow down: one line every two seconds")
	ErrMuted   = errors.New("the players have muted the spectators")
)

// Line is one posted line.
type Line struct {
	Handle    string
	Text      string
	At        time.Time
	Spectator bool
}

// same tells whether l and o are one line (heard twice: from its server
// and from the store, say), whatever the location or monotonic reading of
// their times.
func (l Line) same(o Line) bool {
	return l.Handle == o.Handle && l.Text == o.Text && l.At.Equal(o.At) && l.Spectator == o.Spectator
}

// Store keeps the chats where a crash does not reach them (store.Store).
type Store interface {
	Chat(ctx context.Context, id string) (store.Chat, error)
	AddChatLine(ctx context.Context, id string, l store.ChatLine, keep int) (store.Chat, error)
	MuteChat(ctx context.Context, id string, on bool) (store.Chat, error)
}

// keepTime bounds one write of a chat to its store.
const keepTime = 10 * time.Second

// Room is one game's chat. Its methods are safe for concurrent use.
type Room struct {
	mu      sync.Mutex
	lines   []Line
	limits  map[string]*rate.Limiter
	muted   bool // spectators muted by a player
	maxKeep int
	// tell, if set, sends a line posted or a mute made here to the other
	// servers of a cluster (Rooms); called with mu held, it must not
	// block.
	tell func(event)
	// st, if set, keeps the chat as game id's (Rooms); rev is the revision
	// of the kept chat whose mute the room has: of two mutes heard, the
	// later write wins, in whatever order they arrive.
	st  Store
	id  string
	rev uint64
}

// New is an empty chat.
func New() *Room { return &Room{limits: map[string]*rate.Limiter{}, maxKeep: MaxLines} }

// check says why text cannot be a line, if it cannot: a line is kept as
// Post makes it, safe and short.
func check(text string) error {
	switch {
	case text == "":
		return ErrEmpty
	case len(text) > 4*MaxLen || utf8.RuneCountInString(text) > MaxLen:
		return ErrTooLong
	}
	if _, _, ok := termtext.Unsafe(text, true); !ok {
		return ErrControl
	}
	return nil
}

// Post adds handle's line at now, made safe for a terminal (SafeLine), or
// says why not. Spectators' lines are refused while the players have them
// muted. A kept chat's line is in its store when Post returns nil; Post
// waits for the store (up to keepTime), so a screen posts off its own
// goroutine.
func (r *Room) Post(handle string, spectator bool, text string, now time.Time) error {
	if len(text) > maxRaw {
		return ErrTooLong // not worth making safe to refuse it
	}
	text = strings.TrimSpace(termtext.SafeLine(text))
	if err := check(text); err != nil {
		return err
	}
	r.mu.Lock()
	if spectator && r.muted {
		r.mu.Unlock()
		return ErrMuted
	}
	l, ok := r.limits[handle]
	if !ok {
		l = rate.NewLimiter(rate.Every(every), burst)
		r.limits[handle] = l
	}
	if !l.AllowN(now, 1) {
		r.mu.Unlock()
		return ErrTooFast
	}
	line := Line{Handle: handle, Text: text, At: now.Round(0), Spectator: spectator}
	st := r.st
	r.mu.Unlock()
	var kept store.Chat
	if st != nil {
		ctx, cancel := context.WithTimeout(context.Background(), keepTime)
		var err error
		kept, err = st.AddChatLine(ctx, r.id, store.ChatLine(line), r.maxKeep)
		cancel()
		if errors.Is(err, store.ErrChatMuted) { // muted on another server, its news not here yet
			r.mu.Lock()
			r.kept(kept)
			r.mu.Unlock()
			return ErrMuted
		}
		if err != nil {
			return fmt.Errorf("the line was not kept: %w", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(line)
	r.kept(kept)
	if r.tell != nil {
		r.tell(event{Line: &line})
	}
	return nil
}

// add keeps l, unless the chat has it; called with r.mu held.
func (r *Room) add(l Line) {
	r.merge([]Line{l})
}

// merge adds the lines the chat does not have, each in its place by time
// (lines heard from other servers and the store come late), and keeps the
// last maxKeep; called with r.mu held.
func (r *Room) merge(lines []Line) {
	n := len(r.lines)
	for _, l := range lines {
		if !slices.ContainsFunc(r.lines, l.same) {
			r.lines = append(r.lines, l)
		}
	}
	if len(r.lines) == n {
		return
	}
	slices.SortStableFunc(r.lines, func(a, b Line) int { return a.At.Compare(b.At) })
	if len(r.lines) > r.maxKeep {
		r.lines = append(r.lines[:0:0], r.lines[len(r.lines)-r.maxKeep:]...)
	}
}

// kept takes in the chat as its store says (a zero one: nothing heard);
// called with r.mu held.
func (r *Room) kept(c store.Chat) {
	lines := make([]Line, len(c.Lines))
	for i, l := range c.Lines {
		lines[i] = Line(l)
	}
	r.merge(lines)
	if c.Rev > 0 {
		r.mute(c.Muted, c.Rev)
	}
}

// mute takes in a mute heard of, kept at revision rev (0: by a chat not
// kept, whose mutes are taken as they come); called with r.mu held.
func (r *Room) mute(on bool, rev uint64) {
	if rev == 0 && r.st == nil || rev > r.rev {
		r.muted, r.rev = on, max(r.rev, rev)
	}
}

// Mute mutes (or unmutes) the spectators, as a player asks. A kept chat's
// mute is in its store when Mute returns nil (it waits up to keepTime);
// an error leaves it as it was.
func (r *Room) Mute(on bool) error {
	rev := uint64(0)
	if r.st != nil {
		ctx, cancel := context.WithTimeout(context.Background(), keepTime)
		kept, err := r.st.MuteChat(ctx, r.id, on)
		cancel()
		if err != nil {
			return fmt.Errorf("the mute was not kept: %w", err)
		}
		rev = kept.Rev
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mute(on, rev)
	if r.tell != nil {
		r.tell(event{Muted: &on, Rev: rev})
	}
	return nil
}

// Lines are the last n lines a reader sees: a player does not see the
// spectators' while they are muted.
func (r *Room) Lines(player bool, n int) []Line {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Line
	for i := len(r.lines) - 1; i >= 0 && len(out) < n; i-- {
		if l := r.lines[i]; !(player && r.muted && l.Spectator) {
			out = append(out, l)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
