// Package chat is a game's chat: players and spectators post short lines,
// each made safe by the one sanitiser (tui/termtext's SafeLine: an escape
// sequence is one mark, other controls visible stand-ins, nothing after
// them lost) and checked before it is kept — length and rate — and players may
// mute the spectators, whose lines then reach only other spectators. On
// several servers of one NATS, each server's copy of a game's chat hears
// the others' lines (Rooms).
package chat

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/squall-chess/squall/tui/termtext"
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
// muted.
func (r *Room) Post(handle string, spectator bool, text string, now time.Time) error {
	if len(text) > maxRaw {
		return ErrTooLong // not worth making safe to refuse it
	}
	text = strings.TrimSpace(termtext.SafeLine(text))
	if err := check(text); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if spectator && r.muted {
		return ErrMuted
	}
	l, ok := r.limits[handle]
	if !ok {
		l = rate.NewLimiter(rate.Every(every), burst)
		r.limits[handle] = l
	}
	if !l.AllowN(now, 1) {
		return ErrTooFast
	}
	line := Line{Handle: handle, Text: text, At: now, Spectator: spectator}
	r.add(line)
	if r.tell != nil {
		r.tell(event{Line: &line})
	}
	return nil
}

// add keeps l; called with r.mu held.
func (r *Room) add(l Line) {
	r.lines = append(r.lines, l)
	if len(r.lines) > r.maxKeep {
		r.lines = append(r.lines[:0:0], r.lines[len(r.lines)-r.maxKeep:]...)
	}
}

// Mute mutes (or unmutes) the spectators, as a player asks.
func (r *Room) Mute(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.muted = on
	if r.tell != nil {
		r.tell(event{Muted: &on})
	}
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
