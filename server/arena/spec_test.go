package arena

import (
	"strings"
	"testing"
	"time"
)

// TestParseSpec reads the example and refuses what is not one.
func TestParseSpec(t *testing.T) {
	s, err := ParseSpec("Hourly Blitz 3+0 30m")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "Hourly Blitz" || s.Control.String() != "3+0" || s.Length != 30*time.Minute {
		t.Fatalf("%+v", s)
	}
	if s.String() != "Hourly Blitz 3+0 30m" {
		t.Fatalf("String %q", s)
	}
	if s, err := ParseSpec("  Marathon   10+5  1h30m "); err != nil || s.Name != "Marathon" || s.String() != "Marathon 10+5 1h30m" {
		t.Fatalf("%+v %v", s, err)
	}
	for _, bad := range []string{"", "3+0 30m", "Fast 0.1+0 30m", "Short 3+0 30s", "Long 3+0 25h",
		"Odd 3+0 30m30s", "Neg 3+0 -30m", "Word 3+0 soon", "Ctl x+y 30m", "Esc\x1b[2J 3+0 30m"} {
		if s, err := ParseSpec(bad); err == nil {
			t.Errorf("%q read as %+v", bad, s)
		} else if strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%q: error quotes an escape: %v", bad, err)
		}
	}
}

// FuzzParseSpec: never a panic; what is read writes back as itself.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"Hourly Blitz 3+0 30m", "a 1+0 5m", "x 0+1 1h", "\x00 3+0 30m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSpec(in)
		if err != nil {
			return
		}
		back, err := ParseSpec(s.String())
		if err != nil || back != s {
			t.Fatalf("%q → %+v → %q → %+v, %v", in, s, s.String(), back, err)
		}
	})
}

// TestNewID: one id per name and start minute, made of plain characters.
func TestNewID(t *testing.T) {
	start := time.Date(2026, 11, 27, 18, 0, 30, 0, time.FixedZone("CET", 3600))
	if id := NewID("Hourly  Blitz!", start); id != "hourly-blitz-20261127T1700" {
		t.Fatalf("id %q", id)
	}
	if id := NewID("♞♞", start); id != "arena-20261127T1700" {
		t.Fatalf("id %q", id)
	}
	s, _ := ParseSpec("Hourly Blitz 3+0 30m")
	if d := s.Definition(start, ""); d.Check() != nil || d.ID != "hourly-blitz-20261127T1700" {
		t.Fatalf("%+v: %v", d, d.Check())
	}
}

// TestTitle: an arena's games are "NAME Arena", once even when the name
// ends with the word ("Tmux Arena Arena" was the game screen's header).
func TestTitle(t *testing.T) {
	for name, want := range map[string]string{
		"Hourly Blitz": "Hourly Blitz Arena",
		"Tmux Arena":   "Tmux Arena",
		"club arena":   "club arena",
		"Arenaline":    "Arenaline Arena",
		"Sub-arena":    "Sub-arena",
		"Panarena":     "Panarena Arena",
		"Arena":        "Arena",
	} {
		if got := Title(name); got != want {
			t.Errorf("Title(%q) = %q, want %q", name, got, want)
		}
	}
}
