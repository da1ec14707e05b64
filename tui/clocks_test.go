package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// clocked is a 3+2 game with lichess-style [%clk]s on every move but
// 3. Bb5, which has an [%emt] instead, and a variation at move 2 with
// none.
const clocked = `[Event "Clocks"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[TimeControl "180+2"]

1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} 2. Nf3 {[%clk 0:02:55]}
(2. Bc4 Nf6) 2... Nc6 {[%clk 0:02:41]} 3. Bb5 {[%emt 0:00:12]} Nf6 {[%clk 0:00:08.3]} *
`

// fileBoard is the board with pgnText's first game open for analysis at
// 100×30.
func fileBoard(t *testing.T, pgnText string) Model {
	t.Helper()
	games, err := ReadPGN(strings.NewReader(pgnText), "clocks.pgn")
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Games: games})
	return send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"))
}

// sideClocks reads the clocks the screen shows: the end of each player's
// line beside the board ("" for none), and the status line's clocks.
func sideClocks(t *testing.T, m Model) (white, black, status string) {
	t.Helper()
	plain := ansi.Strip(m.View())
	end := func(player string) string {
		for _, l := range strings.Split(plain, "\n") {
			if i := strings.Index(l, player); i >= 0 {
				f := strings.Fields(l[i+len(player):])
				if len(f) == 0 {
					return ""
				}
				return f[len(f)-1]
			}
		}
		t.Fatalf("no line names %q:\n%s", player, plain)
		return ""
	}
	for _, l := range strings.Split(plain, "\n") {
		if strings.Contains(l, " to move") {
			status = l
		}
	}
	return end("· White"), end("· Black"), status
}

// TestFileClocks: a game read from a file shows each side's [%clk] after
// its last move at or before the shown one, stepping forward and back and
// into a variation, the TimeControl's base before a side has moved, muted
// and unhighlighted beside the board and led by "clk" in the status line,
// followed by the time the shown move took.
func TestFileClocks(t *testing.T) {
	m := fileBoard(t, clocked)
	want := []struct{ white, black, took string }{
		{"3:00", "3:00", ""}, // the start: the TimeControl's base
		{"3:00", "3:00", ""}, // a side's first move: its time is not known
		{"3:00", "3:00", ""},
		{"2:55", "3:00", "Nf3 took 7.0s"},   // 3:00 + 2 s − 2:55
		{"2:55", "2:41", "Nc6 took 21s"},    // 3:00 + 2 s − 2:41
		{"2:55", "2:41", "Bb5 took 12s"},    // no [%clk]: White's last stays; the [%emt]
		{"2:55", "0:08.3", "Nf6 took 2:35"}, // tenths under 10 s, as clock.Text writes them
	}
	check := func(ply int) {
		t.Helper()
		w, b, status := sideClocks(t, m)
		if w != want[ply].white || b != want[ply].black {
			t.Errorf("ply %d: White %q Black %q, want %q %q", ply, w, b, want[ply].white, want[ply].black)
		}
		if s := "clk White " + want[ply].white + "  Black " + want[ply].black; !strings.Contains(status, s) {
			t.Errorf("ply %d: status line %q, want %q in it", ply, status, s)
		}
		if took := want[ply].took; took == "" && strings.Contains(status, "took") || !strings.Contains(status, took) {
			t.Errorf("ply %d: status line %q, want %q for the move's time", ply, status, took)
		}
	}
	check(0)
	for ply := 1; ply < len(want); ply++ {
		m = send(m, press("right"))
		check(ply)
	}
	for ply := len(want) - 2; ply >= 0; ply-- {
		m = send(m, press("left"))
		check(ply)
	}
	// 2. Bc4 Nf6, the variation: neither move records a clock, so the
	// times are those of 1. e4 e5.
	m = send(m, press("right"), press("right"), press("right"), press("]"), press("right"))
	if w, b, _ := sideClocks(t, m); w != "3:00" || b != "3:00" {
		t.Errorf("in the variation: White %q Black %q, want 3:00 3:00", w, b)
	}
}

// TestFileClocksWithoutControl: before a side has moved, a game without
// a TimeControl tag shows no time for it; a game without [%clk] shows no
// clocks at all.
func TestFileClocksWithoutControl(t *testing.T) {
	m := fileBoard(t, strings.Replace(clocked, `[TimeControl "180+2"]`, "", 1))
	m = send(m, press("right"))
	if w, b, status := sideClocks(t, m); w != "3:00" || b != "" || !strings.Contains(status, "clk White 3:00  Black –") {
		t.Errorf("after 1. e4: White %q Black %q, status %q; want 3:00, none, and – for Black", w, b, status)
	}
	m = fileBoard(t, trap)
	for range 4 {
		m = send(m, press("right"))
		if w, b, status := sideClocks(t, m); w != "" || b != "" || strings.Contains(status, "clk") {
			t.Fatalf("a game without [%%clk] at ply %d: White %q Black %q, status %q", m.cur.Ply(), w, b, status)
		}
	}
}

// TestGoldenFileClocks is the board at 100×30 showing a file's recorded
// clocks after 2... Nc6.
func TestGoldenFileClocks(t *testing.T) {
	m := fileBoard(t, clocked)
	m = send(m, press("right"), press("right"), press("right"), press("right"))
	golden(t, "file-clocks-100x30", m.View())
}
