package serve

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/termtext"
)

// The lobby's list of seeks (issue 37): the player's own seeks and the
// challenges to and from them first, then the open seeks of others that
// the player may accept (lobby.Seek.Admits, at the player's rating at each
// seek's speed) at the speed chosen (f: every speed, or one), sorted by
// speed, control and the seeker's rating.

// speedFilter is the lobby's choice of speed: 0 every speed, else one
// (clock.Speed + 1).
type speedFilter uint8

// next is the filter f moves to: every speed, bullet, …, classical.
func (f speedFilter) next() speedFilter { return (f + 1) % (speedFilter(clock.Classical) + 2) }

func (f speedFilter) String() string {
	if f == 0 {
		return "every speed"
	}
	return clock.Speed(f - 1).String()
}

// shows reports whether the filter lets a seek of control tc through.
func (f speedFilter) shows(tc clock.TimeControl) bool {
	return f == 0 || tc.Speed() == clock.Speed(f-1)
}

// lobbySeeks are the seeks handle's lobby lists from all (lobby.Seeks):
// their own and the challenges first, oldest first; then the open seeks
// of others the filter lets through and whose range admits handle's
// rating at their speed (ratings by speed's name; a speed not read yet
// admits), by speed, control, the seeker's rating (best first) and age.
// hidden counts the open seeks of others the filter left out (those out
// of range are not the player's to see).
func lobbySeeks(all []lobby.Seek, handle string, f speedFilter, ratings map[string]rating.Rating) (shown []lobby.Seek, hidden int) {
	var open []lobby.Seek
	for _, s := range all {
		switch {
		case s.Handle == handle || s.To != "":
			shown = append(shown, s)
		case !admits(s, ratings):
		case !f.shows(s.TC):
			hidden++
		default:
			open = append(open, s)
		}
	}
	slices.SortStableFunc(open, func(a, b lobby.Seek) int {
		return cmp.Or(cmp.Compare(a.TC.Speed(), b.TC.Speed()), cmp.Compare(a.TC.Estimate(), b.TC.Estimate()),
			cmp.Compare(b.Rating.Rating, a.Rating.Rating))
	})
	return append(shown, open...), hidden
}

// admits reports whether a seek's range admits the player rated ratings.
func admits(s lobby.Seek, ratings map[string]rating.Rating) bool {
	r, ok := ratings[s.TC.Speed().String()]
	return !ok || s.Admits(r)
}

// seekWords reads a seek's words after its control and colour: "casual"
// (else rated) and a rating range, "±200" or "+-200", in either order;
// the rest are the control and the colour.
func seekWords(words []string) (rest []string, rated bool, rng int, err error) {
	rated = true
	for _, w := range words {
		switch {
		case w == "casual":
			rated = false
		case strings.HasPrefix(w, "±"), strings.HasPrefix(w, "+-"):
			n, perr := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(w, "±"), "+-"))
			if perr != nil || n <= 0 {
				return nil, false, 0, fmt.Errorf("a rating range is ±N (or +-N), N rating points, e.g. ±200; not %q", termtext.SafeLine(w))
			}
			rng = n
		default:
			rest = append(rest, w)
		}
	}
	if len(rest) == 0 || len(rest) > 2 {
		return nil, false, 0, errors.New("type a time control, e.g. 3+2, and optionally white or black, casual and a rating range ±200")
	}
	return rest, rated, rng, nil
}

// seekRow is a seek as the lobby lists it to reader.
func seekRow(s lobby.Seek, reader string) string {
	kind := "casual"
	if s.Rated {
		kind = "rated"
	}
	row := fmt.Sprintf("%-26s %6s  %-6s %-5s %s", ratedName(s.Handle, s.Rating), s.TC, kind, s.RangeText(), colourFor(s, reader))
	switch {
	case s.Handle == reader && s.To != "":
		row += " (your challenge to " + termtext.SafeLine(s.To) + ")"
	case s.Handle == reader:
		row += " (yours)"
	case s.To != "":
		row += " (a challenge to you)"
	}
	return row
}
