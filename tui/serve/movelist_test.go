package serve

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/tui/internal/tuitest"
)

// longGame is a 60-ply game (Kasparov–Topalov, Wijk aan Zee 1999, to
// 30... Qc4): long enough that its moves fill more than a row at any width.
var longGame = strings.Fields(`e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7
	a3 e5 O-O-O Qe7 Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7
	Rhe1 d4 Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 Rxb7 Qc4`)

// TestGameScreensShowNewestMove is issue 33's G1: the play and spectator
// screens wrote the game's moves on one line cut at the screen's edge, so
// past move 10 or so the newest moves were never shown (at 100 columns
// the line stopped at "10.…" while the game was at move 30). The move
// list keeps the newest move in view at every width.
func TestGameScreensShowNewestMove(t *testing.T) {
	_, p := startPlayServer(t)
	ann, spec := playLongGame(t, p)
	for _, w := range []int{80, 100, 160} {
		for _, s := range []struct {
			who  string
			view func() string
		}{
			{"ann", func() string { ann.w, ann.h = w, 40; return ann.View() }},
			{"the spectator", func() string { spec.w, spec.h = w, 40; return spec.View() }},
		} {
			v := ansi.Strip(s.view())
			if !strings.Contains(v, "30. Rxb7") || !strings.Contains(v, "Qc4") {
				rows := strings.Split(v, "\n")
				moves := ""
				for _, r := range rows {
					if strings.Contains(r, "1. e4") || strings.Contains(r, "…") {
						moves = r
					}
				}
				t.Errorf("%s's screen at %d columns lacks the newest move, 30. Rxb7 Qc4; its moves read %q", s.who, w, moves)
			}
		}
	}
}

// TestMoveListGoldens is issue 34's acceptance 4 on the server's screens:
// the play, spectator and room screens of a 60-ply game at 80, 100 and
// 160 columns, each showing the newest move (tui/movelist, the one move
// list of every screen).
func TestMoveListGoldens(t *testing.T) {
	_, p := startPlayServer(t)
	ann, spec := playLongGame(t, p)
	hub := room.NewRooms(nil, 1)
	defer hub.Close("")
	r, err := hub.Create("r")
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range longGame {
		if err := r.MoveText(mv); err != nil {
			t.Fatal(err)
		}
	}
	room, err := newSessionModel(hub, testRenderer(), sshd.Viewer, []string{"room", "r"}, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	room.Update(snapshotMsg{From: room.updates, Value: <-room.updates, OK: true})
	// The clocks as they stood, not as the test's run went: the running
	// one counts down from the time the record was read, now.
	left := [2]time.Duration{4*time.Minute + 31*time.Second + 250*time.Millisecond, 3*time.Minute + 12*time.Second + 250*time.Millisecond}
	for _, size := range [][2]int{{80, 24}, {100, 30}, {160, 50}} {
		w, h := size[0], size[1]
		for _, s := range []struct {
			name string
			view func() string
		}{
			{"play", func() string {
				ann.Update(tea.WindowSizeMsg{Width: w, Height: h})
				ann.upd.Game.Left, ann.upd.Game.Saved = left, time.Now()
				return ann.View()
			}},
			{"spectate", func() string {
				spec.Update(tea.WindowSizeMsg{Width: w, Height: h})
				spec.shown.Game.Left, spec.shown.Game.Saved = left, time.Now()
				return spec.View()
			}},
			{"room", func() string {
				room.Update(tea.WindowSizeMsg{Width: w, Height: h})
				return room.View()
			}},
		} {
			v := s.view()
			tuitest.Golden(t, tuitest.GoldenDir(), fmt.Sprintf("movelist-%s-%d", s.name, w), v)
			if plain := ansi.Strip(v); !strings.Contains(plain, "30. Rxb7") || !strings.Contains(plain, "Qc4◂") {
				t.Errorf("%s at %d×%d: the newest move, 30... Qc4, is not shown:\n%s", s.name, w, h, plain)
			}
		}
	}
}

// playLongGame plays longGame between ann and bob on p, and returns ann's
// screen and a spectator's, each with the game as it stands.
func playLongGame(t *testing.T, p *server.Games) (ann *playModel, spec *spectatorModel) {
	t.Helper()
	id, err := p.Hub.Start(context.Background(), "ann", "bob", game.TimeControl{Base: 5 * time.Minute}, false)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob := boardModel(t, p, "ann", id, 100), boardModel(t, p, "bob", id, 100)
	for i, mv := range longGame {
		if i%2 == 0 {
			enter(ann, mv, bob)
		} else {
			enter(bob, mv, ann)
		}
		if ann.status != "" && ann.isErr || bob.status != "" && bob.isErr {
			t.Fatalf("ply %d %s: ann %q, bob %q", i+1, mv, ann.status, bob.status)
		}
	}
	if n := len(ann.upd.Replayed.SANs); n != len(longGame) {
		t.Fatalf("the game has %d plies, want %d", n, len(longGame))
	}
	spec = newSpectatorModel(p, testRenderer(), nil, 100, 40)
	t.Cleanup(spec.release)
	spec.follow(id)
	for done := false; !done; {
		select {
		case u := <-spec.updates:
			spec.Update(shownMsg{from: spec.updates, u: u})
		default:
			done = true
		}
	}
	return ann, spec
}

// TestMoveListDrawnOnce: a move list keeps its rows until what they are
// drawn from changes — new moves (a new slice), the width, the selected
// ply, the styles — and the rows it returns are the caller's to change.
func TestMoveListDrawnOnce(t *testing.T) {
	st := sessionStyles(testRenderer())
	var l moveList
	moves := longGame[:20]
	first := l.rows(st, moves, 0, -1, "none", 40, 3)
	drawn := l.drawn
	again := l.rows(st, moves, 0, -1, "none", 40, 3)
	if strings.Join(first, "\n") != strings.Join(again, "\n") || &l.drawn[0] != &drawn[0] {
		t.Fatal("the same moves, width and height drew the list again")
	}
	again[0] = "scribbled"
	if l.rows(st, moves, 0, -1, "none", 40, 3)[0] == "scribbled" {
		t.Fatal("a caller's change to the rows reached the list's kept rows")
	}
	more := longGame[:21]
	if v := ansi.Strip(strings.Join(l.rows(st, more, 0, -1, "none", 40, 3), "\n")); !strings.Contains(v, longGame[20]) {
		t.Errorf("a new move, %s, not drawn:\n%s", longGame[20], v)
	}
	if a, b := l.rows(st, more, 0, -1, "none", 40, 3), l.rows(st, more, 0, -1, "none", 60, 3); strings.Join(a, "\n") == strings.Join(b, "\n") {
		t.Error("another width drew the same rows")
	}
	if a, b := l.rows(st, more, 0, -1, "none", 60, 3), l.rows(st, more, 0, 2, "none", 60, 3); strings.Join(a, "\n") == strings.Join(b, "\n") {
		t.Error("another selected ply drew the same rows")
	}
	other := sessionStyles(testRenderer())
	l.rows(other, more, 0, 2, "none", 60, 3)
	if l.drawnFrom.styles != other.Styles {
		t.Error("new styles did not draw the list again")
	}
}

// BenchmarkMoveListRows: a 60-ply game's move list drawn as every clock
// tick draws it, nothing changed between frames.
func BenchmarkMoveListRows(b *testing.B) {
	st := sessionStyles(testRenderer())
	var l moveList
	for b.Loop() {
		l.rows(st, longGame, 0, -1, "none", 40, 6)
	}
}
