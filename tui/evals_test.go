package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/internal/tuitest"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/reviewview"
	"github.com/squall-chess/squall/tui/view"
)

// trap is the Blackburne Shilling trap with lichess-style [%eval]s on
// every move but 5. Nxf7 (a gap in the graph) and the mate (its result).
const trap = `[Event "Trap"]
[White "Greedy"]
[Black "Shilling"]
[Result "0-1"]

1. e4 {[%eval 0.3]} e5 {[%eval 0.25]} 2. Nf3 {[%eval 0.2]} Nc6 {[%eval 0.3]}
3. Bc4 {[%eval 0.2]} Nd4 {[%eval 0.9]} 4. Nxe5 {[%eval -0.1]} Qg5 {[%eval 2.5]}
5. Nxf7 Qxg2 {[%eval -4.0]} 6. Rf1 {[%eval -6.2]} Qxe4+ {[%eval -7]} 7. Be2 {[%eval #-1]} Nf3# 0-1
`

// trapBoard is the board with the trap open for analysis, shown at ply.
func trapBoard(t *testing.T, opt Options, ply int) Model {
	t.Helper()
	games, err := ReadPGN(strings.NewReader(trap), "trap.pgn")
	if err != nil {
		t.Fatal(err)
	}
	opt.Games = games
	m := newTestModel(t, opt)
	for m.cur.Ply() < ply {
		m = send(m, press("esc"), press("right"))
	}
	return m
}

// TestGoldenEvalGraph is issue 36's acceptance 5 on the board: the eval
// graph of the file's [%eval]s under the board at 100×30 (one row of bars
// and the axis, in place of the game's header) and 160×50 (six rows with
// the zero line, the header under it), the shown move marked, 5. Nxf7's
// gap left blank.
func TestGoldenEvalGraph(t *testing.T) {
	m := trapBoard(t, Options{}, 8) // after 4... Qg5
	for _, size := range [][2]int{{100, 30}, {160, 50}} {
		m = send(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		out := m.View()
		golden(t, "evalgraph-"+sizeName(size), out)
		plain := ansi.Strip(out)
		if n := strings.Count(out, "\n") + 1; n != size[1] {
			t.Errorf("%v: %d lines", size, n)
		}
		if !strings.Contains(plain, "▲") {
			t.Errorf("%v: no graph, or no marker:\n%s", size, plain)
		}
	}
	if plain := ansi.Strip(m.View()); !strings.Contains(plain, "Trap") {
		t.Errorf("160×50: the game's header gave way to the graph:\n%s", plain)
	}
}

func sizeName(s [2]int) string { return fmt.Sprintf("%dx%d", s[0], s[1]) }

// TestEvalGraphPoints: each position's point is the session's score, else
// the file's [%eval], else the mate's result; unknown for none.
func TestEvalGraphPoints(t *testing.T) {
	m := trapBoard(t, Options{}, 0)
	line := m.line()
	if len(line) != 15 {
		t.Fatalf("line of %d nodes, want 15", len(line))
	}
	m.scores.keep(line[2], pgn.Eval{Kind: pgn.Centipawns, Value: 55, Depth: 20})
	m.scores.keep(line[2], pgn.Eval{Kind: pgn.Centipawns, Value: 99, Depth: 10}) // shallower: not kept
	points, scored := m.points(line)
	if !scored {
		t.Fatal("no scores")
	}
	for ply, want := range map[int]int{1: 30, 2: 55, 8: 250, 10: -400, 13: -1000, 14: -1000} {
		if p := points[ply]; !p.Known || p.CP != want {
			t.Errorf("ply %d: %+v, want %d", ply, p, want)
		}
	}
	if points[0].Known || points[9].Known {
		t.Errorf("the start and 5. Nxf7 have no evaluation: %+v %+v", points[0], points[9])
	}
}

// TestSwingKey: J steps to the biggest swing of the eval along the line,
// then the next biggest, and says which.
func TestSwingKey(t *testing.T) {
	m := trapBoard(t, Options{}, 0)
	m = send(m, press("esc"), press("J"))
	// 4... Qg5 (-0.10 → +2.50, a blunder by the evals) is the biggest.
	if m.cur.Ply() != 8 || !strings.Contains(m.message, "eval swing 1 of") || !strings.Contains(m.message, "4… Qg5") {
		t.Fatalf("J showed ply %d, said %q", m.cur.Ply(), m.message)
	}
	m = send(m, press("J"))
	if m.cur.Ply() == 8 || !strings.Contains(m.message, "eval swing 2 of") {
		t.Errorf("J again showed ply %d, said %q", m.cur.Ply(), m.message)
	}
	// J is a board key in the move box too: no move begins with it.
	m = send(m, press("tab"), press("J"))
	if m.input.Value() != "" || !strings.Contains(m.message, "eval swing 3 of") {
		t.Errorf("J in the move box: typed %q, said %q", m.input.Value(), m.message)
	}
}

// TestAnalysisFillsGraph: the live analysis' best line's score is kept
// for the position it analysed, White's view, and drawn; a bound is not.
func TestAnalysisFillsGraph(t *testing.T) {
	f := &enginetest.Engine{Tick: time.Hour}
	m := New(testRenderer(termenv.TrueColor), f, Options{Mode: Analysis, Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = playAll(t, m, "e4", "e5", "Nf3")
	if !m.search.running() {
		t.Fatal("no analysis runs")
	}
	node := m.cur
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	exact := enginetest.Line(m.pos, ml.Moves[0], 10, 0) // +1.00 for Black
	bound := enginetest.Line(m.pos, ml.Moves[0], 11, 0)
	bound.Score = engine.Score{CP: 900, Bound: engine.Lower}
	m = send(m, livecmd.Msg{Batch: live.Batch{Gen: m.search.gen(), Infos: []engine.Info{exact, bound}}})
	if e, ok := m.scores[node]; !ok || e.Value != -100 || e.Depth != 10 {
		t.Fatalf("kept %+v %v, want Black's +1.00 as White's -1.00 at depth 10", e, ok)
	}
	if plain := ansi.Strip(m.View()); !strings.Contains(plain, "▲") {
		t.Errorf("no graph after an analysis:\n%s", plain)
	}
}

// TestReviewFillsBoardGraph: a review run from the board gives the board
// its evaluations (view.ScoredMsg), which the graph draws after the
// review is closed.
func TestReviewFillsBoardGraph(t *testing.T) {
	eng := &enginetest.Engine{Score: enginetest.ScoresByPly(map[int]engine.Score{1: {CP: -30}, 2: {CP: 70}})}
	m := New(testRenderer(termenv.Ascii), eng, Options{Mode: TwoHumans, Now: func() time.Time { return fixedNow },
		Views: []view.Entry{reviewview.Entry(reviewview.Options{Limits: engine.Limits{Depth: 4}})}})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = playAll(t, m, "e4", "e5")
	m = settle(t, m, press("esc"), press("r"), press("enter"))
	if !strings.Contains(ansi.Strip(m.View()), "White: ") {
		t.Fatalf("the review did not finish:\n%s", ansi.Strip(m.View()))
	}
	m = settle(t, m, press("esc"))
	points, _ := m.points(m.line())
	for ply, want := range []int{0, 30, 70} {
		if p := points[ply]; !p.Known || p.CP != want {
			t.Errorf("ply %d: %+v, want %d from the review", ply, p, want)
		}
	}
}

// TestReviewAtChosenLimits is issue 36's acceptance 5, the review's
// limits set in the board: r asks for them, offering the entry's; the
// review then searches every position at the depth typed (the Limits the
// engine receives), and the next review offers that depth and searches at
// the time typed instead.
func TestReviewAtChosenLimits(t *testing.T) {
	eng := &enginetest.Engine{}
	m := New(testRenderer(termenv.Ascii), eng, Options{Mode: TwoHumans, Now: func() time.Time { return fixedNow },
		Views: []view.Entry{reviewview.Entry(reviewview.Options{Limits: engine.Limits{MoveTime: 200 * time.Millisecond}})}})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = playAll(t, m, "e4", "e5", "Nf3")
	m = settle(t, m, press("esc"), press("r"))
	if plain := ansi.Strip(m.View()); !strings.Contains(plain, "each position: 0.2s") {
		t.Fatalf("r did not ask for the limits, offering 0.2s:\n%s", plain)
	}
	keys := []tea.Msg{tea.KeyMsg{Type: tea.KeyCtrlU}}
	for _, r := range "depth 7" {
		keys = append(keys, press(string(r)))
	}
	m = settle(t, m, append(keys, press("enter"))...)
	plain := ansi.Strip(m.View())
	if !strings.Contains(plain, "Game review  Fake 1.0 · depth 7") || !strings.Contains(plain, "White: ") {
		t.Fatalf("the review at depth 7 did not run to its end:\n%s", plain)
	}
	lims := eng.Limits()
	if len(lims) != 4 {
		t.Fatalf("%d searches, want one for each of the 4 positions", len(lims))
	}
	for i, l := range lims {
		if l.Depth != 7 || l.MoveTime != 0 {
			t.Errorf("search %d: %v, want depth 7", i+1, l)
		}
	}
	m = settle(t, m, press("esc"), press("r"))
	if plain := ansi.Strip(m.View()); !strings.Contains(plain, "each position: depth 7") {
		t.Fatalf("the next review does not offer depth 7:\n%s", plain)
	}
	keys = []tea.Msg{tea.KeyMsg{Type: tea.KeyCtrlU}}
	for _, r := range "0.05s" {
		keys = append(keys, press(string(r)))
	}
	m = settle(t, m, append(keys, press("enter"))...)
	lims = eng.Limits()[4:]
	if len(lims) != 4 || !strings.Contains(ansi.Strip(m.View()), "movetime 50ms") {
		t.Fatalf("%d searches at 0.05s:\n%s", len(lims), ansi.Strip(m.View()))
	}
	for i, l := range lims {
		if l.MoveTime != 50*time.Millisecond || l.Depth != 0 {
			t.Errorf("search %d: %v, want movetime 50ms", i+1, l)
		}
	}
	// A typing slip is refused with the reason, and nothing runs.
	m = settle(t, m, press("esc"), press("r"), tea.KeyMsg{Type: tea.KeyCtrlU}, press("x"), press("enter"))
	if plain := ansi.Strip(m.View()); !strings.Contains(plain, `"x"`) || len(eng.Limits()) != 8 {
		t.Errorf("x was not refused:\n%s", plain)
	}
}

// settle sends msgs, each once the last one's commands have run
// (tuitest.Run: every command of a batch, where drive takes only a batch's
// search or book message), so that a view's background work runs to its
// end and what it tells the board (view.ScoredMsg) arrives.
func settle(t *testing.T, m Model, msgs ...tea.Msg) Model {
	t.Helper()
	for _, msg := range msgs {
		tuitest.Run(t, func() tea.Msg { return msg }, func(msg tea.Msg) tea.Cmd {
			nm, cmd := m.Update(msg)
			m = nm.(Model)
			return cmd
		})
	}
	return m
}
