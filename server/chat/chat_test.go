package chat

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// TestPost: good lines are kept; control bytes, huge lines, empty lines
// and floods are refused with a clear error and change nothing.
func TestPost(t *testing.T) {
	r := New()
	if err := r.Post("ann", false, "  good luck!  ", t0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want error
	}{
		{"", ErrEmpty},
		{"   ", ErrEmpty},
		{strings.Repeat("x", MaxLen+1), ErrTooLong},
		{strings.Repeat("y", 1<<20), ErrTooLong},
		{"hi\x1b[2J", ErrControl},
		{"bell\a", ErrControl},
		{"two\nlines", ErrControl},
		{"rtl\u202eevil", ErrControl},
		{"bad utf8 \xff", ErrControl},
	} {
		if err := r.Post("bob", true, c.text, t0); !errors.Is(err, c.want) {
			t.Errorf("%.20q: %v, want %v", c.text, err, c.want)
		}
	}
	if got := r.Lines(false, 10); len(got) != 1 || got[0].Text != "good luck!" {
		t.Errorf("lines %+v", got)
	}
	// Three at once, then one every two seconds.
	for i := range 3 {
		if err := r.Post("cid", true, "spam", t0); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	if err := r.Post("cid", true, "spam", t0); !errors.Is(err, ErrTooFast) {
		t.Errorf("fourth line at once: %v", err)
	}
	if err := r.Post("cid", true, "later", t0.Add(2*time.Second)); err != nil {
		t.Errorf("after two seconds: %v", err)
	}
	if err := r.Post("ann", false, strings.Repeat("é", MaxLen), t0.Add(3*time.Second)); err != nil {
		t.Errorf("%d two-byte characters: %v", MaxLen, err)
	}
}

// TestMute: muted, spectators cannot post, and their earlier lines are
// hidden from players but not from spectators.
func TestMute(t *testing.T) {
	r := New()
	r.Post("ann", false, "hello", t0)
	r.Post("eve", true, "Qh5 wins!", t0)
	r.Mute(true)
	if err := r.Post("eve", true, "psst", t0.Add(time.Minute)); !errors.Is(err, ErrMuted) {
		t.Errorf("a muted spectator posts: %v", err)
	}
	if err := r.Post("bob", false, "thanks", t0.Add(time.Minute)); err != nil {
		t.Errorf("a player posts: %v", err)
	}
	if got := r.Lines(true, 10); len(got) != 2 || got[0].Text != "hello" || got[1].Text != "thanks" {
		t.Errorf("a player sees %+v", got)
	}
	if got := r.Lines(false, 10); len(got) != 3 {
		t.Errorf("a spectator sees %+v", got)
	}
	if got := r.Lines(false, 1); len(got) != 1 || got[0].Text != "thanks" {
		t.Errorf("the last line: %+v", got)
	}
}

// TestKeepsLast: a long chat keeps its last MaxLines lines.
func TestKeepsLast(t *testing.T) {
	r := New()
	for i := range MaxLines + 50 {
		r.Post(strings.Repeat("p", i%50+1), false, "line", t0.Add(time.Duration(i)*time.Hour))
	}
	if n := len(r.Lines(false, 1000)); n != MaxLines {
		t.Errorf("%d lines kept", n)
	}
}

func TestRooms(t *testing.T) {
	rs := NewRooms()
	if a, b := rs.Room("g1"), rs.Room("g1"); a != b || a == rs.Room("g2") {
		t.Fatal("one chat per game")
	}
	rs.Room("g1").Post("ann", false, "hi", t0)
	rs.Forget("g1")
	if len(rs.Room("g1").Lines(false, 10)) != 0 {
		t.Error("a forgotten chat kept its lines")
	}
}
