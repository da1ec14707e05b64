package serve

import (
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/termtext"
)

// sgr matches the styling the rooms draw themselves.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// FuzzRoomText is issue 18's B3 for the SSH rooms: a room name, an
// engine's name and info string, and text a user typed (a move, a FEN)
// reach a viewer's screen without a byte a terminal would act on, besides
// the rooms' own styling.
func FuzzRoomText(f *testing.F) {
	f.Add("main\x1b[2J", "Fake\x1b]52;c;aGk=\x07", "info \x9b2J", "e4\x1bc")
	f.Add("\u202eroom", "\r\n", "\x00", "zz\x7f")
	f.Fuzz(func(t *testing.T, roomName, name, info, typed string) {
		h := room.NewRooms(nil, 1)
		defer h.Close("")
		r, err := h.Create("r")
		if err != nil {
			t.Fatal(err)
		}
		rend := lipgloss.NewRenderer(nil)
		rend.SetColorProfile(termenv.TrueColor)
		m, err := newSessionModel(h, rend, sshd.Owner, []string{"room", "r"}, 100, 30)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Snapshot()
		s.Room, s.EngineName, s.Analysing = roomName, name, true
		var ml chess.MoveList
		s.Position.GenerateLegal(&ml)
		s.Lines = []engine.Info{{String: info}, {Depth: 3, MultiPV: 2, PV: ml.Moves[:1]}}
		s.LinesSAN = [][]string{nil, {s.Position.SAN(ml.Moves[0])}}
		m.snap = s
		if err := r.MoveText(typed); err != nil {
			m.status = err.Error()
		}
		m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
		for _, v := range []string{m.View(), strings.Join(m.listView(0), "\n")} {
			rest := sgr.ReplaceAllString(v, "")
			if off, c, ok := termtext.Unsafe(rest, false); !ok {
				t.Fatalf("%q reached the screen at %d: %q", c, off, rest)
			}
		}
	})
}
