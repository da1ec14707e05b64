package tui

import (
	"strconv"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// The clocks the board draws beside it and in the status line
// (sidePanel, statusLine), read in one place: a game's running clocks
// while it has them, or else the shown move's clocks as the game records
// them ([%clk]), as lichess's analysis board shows a game's clocks for
// the shown move. A recorded side's time is the one after its last move
// at or before the shown one, walking back the shown line (a move added
// in analysis has none and leaves the last recorded time); before a side
// has moved it is the TimeControl tag's start time where the tag reads as
// one, else nothing. A game none of whose main-line moves carry a [%clk]
// shows no clocks.

// boardClock is one side's clock as the board draws it.
type boardClock struct {
	// text is the time as clock.Text writes it; "" where the game
	// records none for the side yet.
	text string
	// running: the side's clock runs now (a game in progress); drawn
	// highlighted.
	running bool
	// recorded: read from the game's [%clk] commands, not a running
	// clock; drawn muted, never highlighted.
	recorded bool
}

// boardClocks returns both sides' clocks, indexed by chess.Color, and
// false where the board has none to draw.
func (m *Model) boardClocks(now time.Time) ([2]boardClock, bool) {
	var cs [2]boardClock
	if m.clock.Enabled() {
		side, run := m.clock.Running()
		for _, c := range []chess.Color{chess.White, chess.Black} {
			cs[c] = boardClock{text: clock.Text(m.clock.Remaining(c, now)), running: run && side == c}
		}
		return cs, true
	}
	left, has := recordedClocks(m.cur, m.pos.SideToMove())
	if !has[chess.White] || !has[chess.Black] {
		if !mainLineHasClock(m.tree.Root) {
			return cs, false
		}
		if tc, err := clock.ParseSeconds(m.tree.Tag("TimeControl")); err == nil {
			for c := range has {
				if !has[c] {
					left[c], has[c] = tc.Initial(), true
				}
			}
		}
	}
	for c := range cs {
		cs[c].recorded = true
		if has[c] {
			cs[c].text = clock.Text(left[c])
		}
	}
	return cs, true
}

// recordedClocks is each side's [%clk] after its last move at or before
// n, walking back from n to the root; toMove is the side to move after n.
func recordedClocks(n *pgn.Node, toMove chess.Color) (left [2]time.Duration, has [2]bool) {
	mover := toMove.Other()
	for ; n.Parent != nil && !(has[chess.White] && has[chess.Black]); n = n.Parent {
		if c := n.Commands; c != nil && c.HasClock && !has[mover] {
			left[mover], has[mover] = c.Clock, true
		}
		mover = mover.Other()
	}
	return left, has
}

// mainLineHasClock reports whether a move of the main line from root
// carries a [%clk].
func mainLineHasClock(root *pgn.Node) bool {
	for n := root.Next(); n != nil; n = n.Next() {
		if n.Commands != nil && n.Commands.HasClock {
			return true
		}
	}
	return false
}

// clocksText is the status line's clocks: "White 4:59  Black 5:00", a
// side with no recorded time yet shown as "–". Recorded ones are led by
// "clk" (the file's, as lichess names the command) so that they are not
// taken for a game's running clocks, and followed by the time the shown
// move took where the game tells it ("· Nf3 took 4s").
func (m *Model) clocksText(cs [2]boardClock) string {
	text := func(c chess.Color) string {
		if cs[c].text == "" {
			return "–"
		}
		return cs[c].text
	}
	s := "White " + text(chess.White) + "  Black " + text(chess.Black)
	if !cs[chess.White].recorded {
		return s
	}
	s = "clk " + s
	tc, err := clock.ParseSeconds(m.tree.Tag("TimeControl"))
	if d, ok := moveTime(m.cur, tc, err == nil); ok {
		s += " · " + m.cur.SAN + " took " + tookText(d)
	}
	return s
}

// moveTime is the time n's move took as the game records it: its
// [%emt], or else, with a known time control, its mover's [%clk] after
// the previous move plus the increment, less the one after this move;
// false where the record does not tell (a side's first move, whose
// increment lichess does not give, or a move without a [%clk]).
func moveTime(n *pgn.Node, tc clock.TimeControl, hasTC bool) (time.Duration, bool) {
	c := n.Commands
	if n.Parent == nil || c == nil {
		return 0, false
	}
	if c.HasEMT {
		return c.EMT, true
	}
	prev := n.Parent.Parent // the mover's previous move, unless the root
	if !hasTC || !c.HasClock || prev == nil || prev.Parent == nil || prev.Commands == nil || !prev.Commands.HasClock {
		return 0, false
	}
	return max(prev.Commands.Clock+tc.Increment-c.Clock, 0), true
}

// tookText writes a move's time short: tenths under 10 s, whole seconds
// under a minute, then as a clock.
func tookText(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Minute:
		return strconv.Itoa(int(d.Round(time.Second)/time.Second)) + "s"
	}
	return clock.Text(d)
}
