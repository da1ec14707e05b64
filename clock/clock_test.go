package clock

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// TestGame plays a 1+2 game's clocks: the first move of each side is free,
// then each move costs its time and earns the increment, and a side whose
// time runs out has flagged.
func TestGame(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	c := New(time.Minute, 2*time.Second)
	c.Moved(chess.White, 1, at(30)) // 1. e4 after 30 s: free
	c.Moved(chess.Black, 2, at(50)) // 1... e5 after 20 s: free; White's clock starts
	if side, run := c.Running(); !run || side != chess.White {
		t.Fatalf("after both first moves: running %v for %v", run, side)
	}
	if w, b := c.Remaining(chess.White, at(50)), c.Remaining(chess.Black, at(50)); w != time.Minute || b != time.Minute {
		t.Fatalf("first moves charged: %v %v", w, b)
	}
	c.Moved(chess.White, 3, at(60)) // 10 s, +2
	if w := c.Remaining(chess.White, at(60)); w != 52*time.Second {
		t.Errorf("White after a 10 s move: %v, want 52s", w)
	}
	if b := c.Remaining(chess.Black, at(65)); b != 55*time.Second {
		t.Errorf("Black 5 s into its move: %v, want 55s", b)
	}
	c.MovedLag(chess.Black, 4, at(70), 300*time.Millisecond) // 10 s with 0.3 s forgiven
	if b := c.Remaining(chess.Black, at(70)); b != 52*time.Second+300*time.Millisecond {
		t.Errorf("Black after a lagged 10 s move: %v, want 52.3s", b)
	}
	if _, flagged := c.Flagged(at(121)); flagged {
		t.Error("flagged with a second left")
	}
	if side, flagged := c.Flagged(at(122.5)); !flagged || side != chess.White {
		t.Errorf("White's 52 s are gone at 122.5: flagged %v %v", flagged, side)
	}
	c.SetRemaining(chess.White, 5*time.Second, at(200)) // a stored game restored
	if w := c.Remaining(chess.White, at(201)); w != 4*time.Second {
		t.Errorf("restored clock: %v, want 4s", w)
	}
	c.Resume(chess.White, 1, at(202)) // taken back to move one: clocks stop
	if _, run := c.Running(); run {
		t.Error("clock runs before move two")
	}
	if tc := c.TimeControl(); tc.PGNTag() != "60+2" || tc.String() != "1+2" {
		t.Errorf("tags %q %q", tc.PGNTag(), tc.String())
	}
	var none Clock
	none.Moved(chess.White, 5, at(1))
	if _, run := none.Running(); run || none.Enabled() {
		t.Error("a game without clocks has a running clock")
	}
}

func TestText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		9*time.Second + 450*time.Millisecond: "0:09.4",
		75 * time.Second:                     "1:15",
		3*time.Hour + 5*time.Second:          "3:00:05",
	} {
		if got := Text(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

func TestTimeControl(t *testing.T) {
	for s, want := range map[string]Speed{"1+0": Bullet, "2+1": Bullet, "3+0": Blitz, "3+2": Blitz, "10+0": Rapid, "15+10": Rapid, "30+0": Classical, "0.5+0": Bullet} {
		tc, err := ParseTimeControl(s)
		if err != nil || tc.Speed() != want || tc.String() != s {
			t.Errorf("%s: %v %v %q, want %v", s, tc, err, tc.String(), want)
		}
	}
	if tc, err := ParseTimeControl("5"); err != nil || tc.String() != "5+0" {
		t.Errorf("5: %v %v", tc, err)
	}
	for _, bad := range []string{"", "+2", "-1+0", "0+0", "0+0.5", "601+0", "3+601", "3+2+1", "a+b", "NaN+0"} {
		if _, err := ParseTimeControl(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseSeconds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want TimeControl
		tag  string
	}{
		{"10+0.1", TimeControl{10 * time.Second, 100 * time.Millisecond}, "10+0.1"},
		{"60", TimeControl{Base: time.Minute}, "60+0"},
		{" 0.5+0.005 ", TimeControl{500 * time.Millisecond, 5 * time.Millisecond}, "0.5+0.005"},
	} {
		got, err := ParseSeconds(tc.in)
		if err != nil || got != tc.want || got.PGNTag() != tc.tag {
			t.Errorf("ParseSeconds(%q) = %+v %q, %v", tc.in, got, got.PGNTag(), err)
		}
	}
	for _, bad := range []string{"", "+1", "0+1", "-5", "10+-1", "x+1", "10+y", "NaN", "1e300", "10+0.1+2", "1e-12"} {
		if _, err := ParseSeconds(bad); err == nil {
			t.Errorf("ParseSeconds(%q): no error", bad)
		}
	}
	_, err := ParseSeconds("10+y")
	if want := `time control "10+y": increment: "y" is not a number; want SECONDS+SECONDS, e.g. 10+0.1`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestZeroBaseAndRated is issue 33's F1: "0.001+0" made a 60 ms rated
// game, and "0+1", a standard lichess control, was refused ("the base time
// must be positive"). Lichess controls are whole seconds; 0+N starts each
// clock at N (at least 3 s), as lichess does; a rated control's base + 40
// × increment comes to at least 15 s; PGN's tag is whole seconds.
func TestZeroBaseAndRated(t *testing.T) {
	tc, err := ParseTimeControl("0+1")
	if err != nil || tc != (TimeControl{Increment: time.Second}) || tc.PGNTag() != "0+1" || tc.String() != "0+1" {
		t.Fatalf("0+1: %+v %v", tc, err)
	}
	c := New(tc.Base, tc.Increment)
	if !c.Enabled() || c.Remaining(chess.White, time.Time{}) != 3*time.Second {
		t.Errorf("a 0+1 clock: enabled %v, %v at the start, want 3s", c.Enabled(), c.Remaining(chess.White, time.Time{}))
	}
	if c := New(0, 5*time.Second); c.Remaining(chess.Black, time.Time{}) != 5*time.Second {
		t.Errorf("a 0+5 clock starts at %v, want 5s", c.Remaining(chess.Black, time.Time{}))
	}
	for s, tag := range map[string]string{"15+10": "900+10", "0.25+0": "15+0", "0.5+0": "30+0", "3+2": "180+2"} {
		if tc, err := ParseTimeControl(s); err != nil || tc.PGNTag() != tag {
			t.Errorf("%s: tag %q, %v, want %q", s, tc.PGNTag(), err, tag)
		}
	}
	for _, bad := range []string{"0.001+0", "1+0.5", "0+0"} {
		if tc, err := ParseTimeControl(bad); err == nil {
			t.Errorf("%q accepted: %+v (tag %q)", bad, tc, tc.PGNTag())
		}
	}
	for s, rated := range map[string]bool{"0.25+0": true, "0+1": true, "0.2+0": false, "0.1+0": false, "1+0": true} {
		tc, err := ParseTimeControl(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.CheckRated(); (err == nil) != rated {
			t.Errorf("%s rated: %v, want allowed %v", s, err, rated)
		}
	}
	err = TimeControl{Base: 12 * time.Second}.CheckRated()
	if !errors.Is(err, ErrTooFastToRate) || !strings.Contains(err.Error(), "base + 40 × increment is 12s, under 15s") {
		t.Errorf("the refusal does not name the rule: %v", err)
	}
}

// TestRangeStated is issue 33's G10: "999+999" said "out of range (0 to
// 10h0m0s)" — a duration where minutes were typed. The range is stated in
// the unit typed, and it is the range checked.
func TestRangeStated(t *testing.T) {
	for _, c := range []struct {
		s       string
		want    string
		seconds bool
	}{
		{"999+999", `base: "999" is out of range (0 to 600 minutes)`, false},
		{"10+99999", `increment: "99999" is out of range (0 to 600 seconds)`, false},
		{"0+0.5", "not a whole number of seconds", false},
		{"0+5", "", true},
		{"-3+0", `base: "-3" is out of range (more than 0, up to 86400 seconds)`, true},
	} {
		var err error
		if c.seconds {
			_, err = ParseSeconds(c.s)
		} else {
			_, err = ParseTimeControl(c.s)
		}
		if c.want == "" {
			if err == nil {
				t.Errorf("%q accepted as a match's control", c.s)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.s, err, c.want)
		}
	}
	// The limits stated are the limits: 600 minutes and 600 s of increment pass.
	if _, err := ParseTimeControl("600+600"); err != nil {
		t.Errorf("600+600: %v", err)
	}
}

// TestDropIncrement: a side that gave its increment up earns none; the
// other still does.
func TestDropIncrement(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	c := New(time.Minute, 2*time.Second)
	c.DropIncrement(chess.White)
	c.Moved(chess.White, 1, t0)
	c.Moved(chess.Black, 2, t0.Add(time.Second))
	c.Moved(chess.White, 3, t0.Add(2*time.Second))
	c.Moved(chess.Black, 4, t0.Add(3*time.Second))
	if w, b := c.Remaining(chess.White, t0.Add(3*time.Second)), c.Remaining(chess.Black, t0.Add(3*time.Second)); w != time.Minute-time.Second || b != time.Minute+time.Second {
		t.Fatalf("white %v black %v: want 59s (no increment) and 61s", w, b)
	}
}
