package arena

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/termtext"
)

// Spec is an arena as a line of text names it: "Hourly Blitz 3+0 30m" —
// the name, then the time control (clock.ParseTimeControl's MINUTES+SECONDS),
// then the length in whole minutes (30m, 1h, 1h30m).
type Spec struct {
	Name    string
	Control clock.TimeControl
	Length  time.Duration
}

// ParseSpec reads a Spec, refusing a name that is empty or not one line
// of printable text, a control too fast to be rated, and a length out of
// MinLength..MaxLength or not whole minutes. The errors quote nothing of
// the name (it may hold anything).
func ParseSpec(s string) (Spec, error) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return Spec{}, fmt.Errorf("arena %q: want NAME CONTROL LENGTH, e.g. \"Hourly Blitz 3+0 30m\"", termtext.SafeLine(s))
	}
	name := strings.Join(f[:len(f)-2], " ")
	if name != termtext.SafeLine(name) {
		return Spec{}, fmt.Errorf("arena name: want printable text")
	}
	tc, err := clock.ParseTimeControl(f[len(f)-2])
	if err != nil {
		return Spec{}, fmt.Errorf("arena: %w", err)
	}
	if err := tc.CheckRated(); err != nil {
		return Spec{}, fmt.Errorf("arena: %w", err)
	}
	length, err := time.ParseDuration(f[len(f)-1])
	if err != nil || length%time.Minute != 0 || length < MinLength || length > MaxLength {
		return Spec{}, fmt.Errorf("arena length %q: want whole minutes from %v to %v, e.g. 30m or 1h", termtext.SafeLine(f[len(f)-1]), MinLength, MaxLength)
	}
	return Spec{Name: name, Control: tc, Length: length}, nil
}

// String writes the spec as ParseSpec reads it.
func (s Spec) String() string {
	return s.Name + " " + s.Control.String() + " " + lengthText(s.Length)
}

// lengthText writes whole minutes as 30m, 1h or 1h30m.
func lengthText(d time.Duration) string {
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%dm", m)
	case m == 0:
		return fmt.Sprintf("%dh", h)
	}
	return fmt.Sprintf("%dh%dm", h, m)
}

// NewID is the id of an arena named name starting at start: the name in
// lower case with every run of other characters one '-', then the start
// to the minute in UTC ("hourly-blitz-20261127T1800"). The same name and
// start always make the same id, so that servers creating the arena of
// one schedule create one.
func NewID(name string, start time.Time) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	slug := strings.TrimSuffix(b.String(), "-")
	if slug == "" {
		slug = "arena"
	}
	return slug + "-" + start.UTC().Format("20060102T1504")
}

// Definition is the arena of the spec starting at start, made by owner
// ("" for the server's own).
func (s Spec) Definition(start time.Time, owner string) Definition {
	return Definition{ID: NewID(s.Name, start), Name: s.Name, Start: start, Length: s.Length, Control: s.Control, Owner: owner}
}

// Title is how an arena's games name it, in their Event tag and on the
// game screens: "Hourly Blitz Arena" for the arena "Hourly Blitz", and
// the name as it is when it already says so ("Club Arena", not "Club Arena
// Arena").
func Title(name string) string {
	n := strings.TrimSpace(name)
	if i := len(n) - len("arena"); i >= 0 && strings.EqualFold(n[i:], "arena") && (i == 0 || !unicode.IsLetter(rune(n[i-1]))) {
		return name
	}
	return name + " Arena"
}
