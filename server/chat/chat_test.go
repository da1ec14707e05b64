package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/store"
)

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// TestPost: good lines are kept; huge lines, empty lines and floods are
// refused with a clear error and change nothing.
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
		{strings.Repeat("\x1b[0m", MaxLen+1), ErrTooLong}, // one mark each
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

// TestPostMadeSafe is issue 33's G6 for the chat: a line holding escape
// sequences and control bytes is kept as the one sanitiser (termtext's
// SafeLine) makes it — each sequence one mark, its payload gone, nothing
// after it lost — not refused, and so is every line a reader is shown.
func TestPostMadeSafe(t *testing.T) {
	r := New()
	for i, c := range []struct{ text, want string }{
		{"hi \x1b[2J\x1b[31mRED\x07 bell \x1b]0;pwned\x07 end", "hi ␛␛RED␇ bell ␛ end"},
		{"bell\a", "bell␇"},
		{"two\nlines", "two lines"},
		{"rtl\u202eevil", "rtl\ufffdevil"},
		{"bad utf8 \xff", "bad utf8 \ufffd"},
		{"  \x1b[0m  ", "␛"},
	} {
		if err := r.Post("bob", false, c.text, t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got := r.Lines(false, 1); len(got) != 1 || got[0].Text != c.want {
			t.Errorf("%q is kept as %+v, want %q", c.text, got, c.want)
		}
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
	rs, _ := NewRooms(nil, nil)
	if a, b := rs.Room("g1"), rs.Room("g1"); a != b || a == rs.Room("g2") {
		t.Fatal("one chat per game")
	}
	rs.Room("g1").Post("ann", false, "hi", t0)
	rs.Forget("g1")
	if len(rs.Room("g1").Lines(false, 10)) != 0 {
		t.Error("a forgotten chat kept its lines")
	}
}

// TestRoomsAcrossServers: two servers' chats of one game on one NATS: a
// line posted on either reaches the other, and so does a mute; a server
// that opens the chat later gets the lines so far; a forged line with a
// control byte reaches no one.
func TestRoomsAcrossServers(t *testing.T) {
	st, err := store.Open(context.Background(), store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rooms := func() *Rooms {
		rs, err := NewRooms(st.Conn(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rs.Close)
		return rs
	}
	a, b := rooms(), rooms()
	ra, rb := a.Room("g1"), b.Room("g1")
	texts := func(r *Room, player bool) string {
		var out []string
		for _, l := range r.Lines(player, 10) {
			out = append(out, l.Handle+": "+l.Text)
		}
		return strings.Join(out, " | ")
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s after 10 s: a has %q, b %q", what, texts(ra, false), texts(rb, false))
			}
		}
	}
	if err := ra.Post("ann", false, "good luck", t0); err != nil {
		t.Fatal(err)
	}
	waitFor("ann's line on b", func() bool { return texts(rb, false) == "ann: good luck" })
	if err := rb.Post("bob", false, "you too", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	waitFor("bob's line on a", func() bool { return texts(ra, false) == "ann: good luck | bob: you too" })
	forged, _ := json.Marshal(event{Origin: "elsewhere", Line: &Line{Handle: "eve", Text: "\x1b[2Jgotcha"}})
	st.Conn().Publish(subject("g1"), forged)
	if err := ra.Post("eve", true, "hello", t0.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	all := "ann: good luck | bob: you too | eve: hello"
	waitFor("eve's line on b", func() bool { return texts(rb, false) == all })
	rb.Mute(true)
	waitFor("the mute on a", func() bool { return texts(ra, true) == "ann: good luck | bob: you too" })
	c := rooms().Room("g1") // a third server opens the chat now
	waitFor("the lines so far on c", func() bool { return texts(c, false) == all })
	if c.Post("eve", true, "hi", t0.Add(3*time.Second)) != ErrMuted {
		t.Error("the mute did not reach the late server")
	}
}

// TestKept is issue 33's G5 in the chat: a kept chat's lines and mute are
// in the store when Post and Mute return, and a server that opens the
// chat after a crash has them; a mute made on another server whose news
// has not come refuses a spectator's line all the same (the store
// decides); the players' view hides the muted spectators' lines.
func TestKept(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), store.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewRooms(nil, st) // two servers that do not hear each other
	b, _ := NewRooms(nil, st)
	ra, rb := a.Room("g1"), b.Room("g1")
	if err := ra.Post("ann", false, "good luck", t0); err != nil {
		t.Fatal(err)
	}
	if err := rb.Post("eve", true, "Qh5 wins", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := ra.Mute(true); err != nil {
		t.Fatal(err)
	}
	if err := rb.Post("eve", true, "psst", t0.Add(time.Minute)); !errors.Is(err, ErrMuted) {
		t.Errorf("a spectator posts on b after the mute on a: %v", err)
	}
	if err := rb.Post("bob", false, "thanks", t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	texts := func(r *Room, player bool) string {
		var out []string
		for _, l := range r.Lines(player, 10) {
			out = append(out, l.Handle+": "+l.Text)
		}
		return strings.Join(out, " | ")
	}
	if got := texts(rb, true); got != "ann: good luck | bob: thanks" {
		t.Errorf("a player on b sees %q", got)
	}
	st.Close() // the crash: nothing but the store is left

	st, err = store.Open(context.Background(), store.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, _ := NewRooms(nil, st)
	rc := c.Room("g1")
	all := "ann: good luck | eve: Qh5 wins | bob: thanks"
	for deadline := time.Now().Add(10 * time.Second); texts(rc, false) != all; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after the restart: %q, want %q", texts(rc, false), all)
		}
	}
	if got := texts(rc, true); got != "ann: good luck | bob: thanks" {
		t.Errorf("after the restart a player sees %q: the mute was lost", got)
	}
	if err := rc.Mute(false); err != nil {
		t.Fatal(err)
	}
	if err := rc.Post("eve", true, "free again", t0.Add(3*time.Minute)); err != nil {
		t.Errorf("after unmuting: %v", err)
	}
}
