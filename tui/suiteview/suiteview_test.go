package suiteview

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/epd"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/internal/tuitest"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

// testSuite has three positions for the fake engine, whose move is always
// the first legal one: the first two expect that move (solved), the third
// expects another (failed).
func testSuite(t *testing.T) []*epd.Record {
	t.Helper()
	fens := []string{
		"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -",
		"8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - -",
		"4k3/8/8/8/8/8/4P3/4K3 w - -",
	}
	var recs []*epd.Record
	for i, fen := range fens {
		p, err := chess.ParseFEN(fen + " 0 1")
		if err != nil {
			t.Fatal(err)
		}
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		want := ml.Moves[0]
		if i == 2 {
			want = ml.Moves[1]
		}
		r, err := epd.ParseLine(fen + " bm " + p.SAN(want) + `; id "T.` + string(rune('1'+i)) + `";`)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

func testEnv(eng engine.Analyzer) view.Env {
	th, _ := themes.ByName(themes.Default)
	env := view.Env{Renderer: tuitest.Renderer(termenv.TrueColor), Theme: th}
	if eng != nil {
		env.Runner = live.New(eng)
	}
	return env
}

// TestSuiteViewRunning: the first position runs; a report of the engine
// shows its move, depth and PV in the table and under the board.
func TestSuiteViewRunning(t *testing.T) {
	f := &enginetest.Engine{Tick: time.Hour} // never finishes by itself
	recs := testSuite(t)
	v := New(testEnv(f), Options{Name: "test", Records: recs, Limits: engine.Limits{MoveTime: time.Second}, AutoRun: true,
		Finished: func(o epd.Outcome) { t.Errorf("a stopped search reported position %d finished", o.Index) }}).(*suiteView)
	defer v.Close()
	v.Init()
	v.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if v.run == nil || v.run.index != 0 || v.rows[0].status != suiteRunning {
		t.Fatal("AutoRun did not start the first position")
	}
	p := recs[0].Position
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	v.Update(livecmd.Msg{Batch: live.Batch{Gen: v.run.s.Gen, Infos: []engine.Info{enginetest.Line(p, ml.Moves[0], 9, 0)}}})
	out := v.View(100, 30)
	tuitest.Golden(t, goldenDir, "suite-running", out)
	plain := ansi.Strip(out)
	for _, want := range []string{"Suite test", "0/3", "solved 0/0", "…", "depth 9 · +0.90", "T.1", "movetime 1s"} {
		if !strings.Contains(plain, want) {
			t.Errorf("running view lacks %q:\n%s", want, plain)
		}
	}
	// Stopping puts the position back to pending.
	v.Update(tuitest.Press("s"))
	waitSuiteDone(t, v)
	if v.rows[0].status != suitePending || v.run != nil {
		t.Errorf("after s: status %v, run %v", v.rows[0].status, v.run)
	}
}

// waitSuiteDone delivers the running search's messages until it ends.
func waitSuiteDone(t *testing.T, v *suiteView) {
	t.Helper()
	for v.run != nil {
		v.Update(livecmd.Wait(v.run.s)())
	}
}

// TestTeatestSuiteFinished runs the whole suite in a program with the
// fake engine, waits for the final score, selects the failed position and
// compares the screen with a golden file.
func TestTeatestSuiteFinished(t *testing.T) {
	f := &enginetest.Engine{Tick: time.Millisecond, MaxDepth: 4}
	recs := testSuite(t)
	// A relative path of fixed length: the export message is part of the
	// screen, and a temporary directory's name varies in length.
	t.Chdir(t.TempDir())
	out := "res.json"
	p := view.NewProgram(New(testEnv(f), Options{Name: "test", Records: recs, Limits: engine.Limits{Depth: 4}, AutoRun: true, Out: out}))
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(100, 30))
	tuitest.WaitScreen(t, tm, regexp.MustCompile(`3/3 +solved 2/3`))
	tm.Send(tuitest.Press("down"))
	tm.Send(tuitest.Press("j"))
	tm.Send(tuitest.Press("e"))
	tuitest.WaitScreen(t, tm, regexp.MustCompile(`3 results written`))
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*view.Program)
	fm.Close()
	v := fm.View()
	tuitest.Golden(t, goldenDir, "suite-finished-failed", v)
	plain := ansi.Strip(v)
	for _, want := range []string{"✗ failed", "✓", "T.3", "solved 2/3"} {
		if !strings.Contains(plain, want) {
			t.Errorf("finished view lacks %q:\n%s", want, plain)
		}
	}
	res, err := epd.LoadResults(out)
	if err != nil || res.Solved != 2 || res.Total != 3 || res.Outcomes[2].Solved {
		t.Errorf("exported results %+v, %v", res, err)
	}
	tuitest.WaitGoroutines(t, "squall-chess/squall/tui/suiteview")
}

// TestSuiteViewKeys: run one, run from here, closing stops the search.
func TestSuiteViewKeys(t *testing.T) {
	f := &enginetest.Engine{MaxDepth: 2}
	var finished []int
	v := New(testEnv(f), Options{Name: "k", Records: testSuite(t), Limits: engine.Limits{Depth: 2},
		Finished: func(o epd.Outcome) { finished = append(finished, o.Index) }}).(*suiteView)
	v.Init()
	if v.run != nil {
		t.Fatal("a search started without AutoRun")
	}
	v.Update(tuitest.Press("down"))
	v.Update(tuitest.Press("enter"))
	waitSuiteDone(t, v)
	if v.rows[1].status != suiteSolved || v.rows[0].status != suitePending || v.rows[2].status != suitePending {
		t.Fatalf("run one: %v %v %v", v.rows[0].status, v.rows[1].status, v.rows[2].status)
	}
	v.Update(tuitest.Press("f"))
	waitSuiteDone(t, v)
	if v.rows[2].status != suiteFailed || v.rows[0].status != suitePending {
		t.Fatalf("run from here: %v %v", v.rows[0].status, v.rows[2].status)
	}
	if fmt.Sprint(finished) != "[1 1 2]" {
		t.Errorf("Finished called for positions %v, want [1 1 2]", finished)
	}
	slow := &enginetest.Engine{Tick: time.Hour}
	v = New(testEnv(slow), Options{Name: "k", Records: testSuite(t), AutoRun: true}).(*suiteView)
	v.Init()
	if _, cmd := v.Update(tuitest.Press("esc")); cmd == nil || cmd() != view.Close() {
		t.Fatal("esc did not close the view")
	}
	if slow.Active() != 0 {
		t.Error("the search still runs after the view closed")
	}
}

// TestSuiteViewLongMessage: a message longer than the screen, with line
// breaks and tabs (an export error quoting a path, say), takes exactly its
// one line, cut to the width: every other line is as without a message.
func TestSuiteViewLongMessage(t *testing.T) {
	v := New(testEnv(nil), Options{Name: "test", Records: testSuite(t), Limits: engine.Limits{Depth: 2}}).(*suiteView)
	calm := strings.Split(v.View(100, 30), "\n")
	v.message = "export: open /home/user/some/very/long/directory/name/that/goes/on/and/on/results.json:\n\tpermission denied\r\nand more"
	out := v.View(100, 30)
	tuitest.Golden(t, goldenDir, "suite-long-message", out)
	lines := strings.Split(out, "\n")
	if len(lines) != 30 {
		t.Fatalf("%d lines, want 30", len(lines))
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w != 100 || strings.ContainsAny(ansi.Strip(l), "\t\r") {
			t.Errorf("line %d is %d cells wide: %q", i, w, ansi.Strip(l))
		}
		if i != 28 && l != calm[i] {
			t.Errorf("line %d moved:\n%q\nwant\n%q", i, ansi.Strip(l), ansi.Strip(calm[i]))
		}
	}
	if msg := ansi.Strip(lines[28]); !strings.HasPrefix(msg, "export: open /home/user/") || !strings.HasSuffix(strings.TrimRight(msg, " "), "…") {
		t.Errorf("message line %q", msg)
	}
}

// goldenDir is taken at start: a test may change its working directory.
var goldenDir = tuitest.GoldenDir()

// runUntil delivers the running searches' messages until position i runs
// (or nothing does).
func runUntil(t *testing.T, v *suiteView, i int) {
	t.Helper()
	for v.run != nil && v.run.index < i {
		v.Update(livecmd.Wait(v.run.s)())
	}
	if v.run == nil || v.run.index != i {
		t.Fatalf("position %d is not running", i+1)
	}
}

// tableRow is the table's line of the position with id, "" if none.
func tableRow(out, id string) string {
	for _, l := range strings.Split(ansi.Strip(out), "\n") {
		if strings.Contains(l, " "+id+" ") && strings.Index(l, id) < 20 {
			return l
		}
	}
	return ""
}

// TestSuiteFailedRowNotFound: the table's last columns are where a solved
// position's answer was first found; a failed one has none, and says so
// instead of showing its whole search's time and depth there.
func TestSuiteFailedRowNotFound(t *testing.T) {
	f := &enginetest.Engine{MaxDepth: 3}
	v := New(testEnv(f), Options{Name: "test", Records: testSuite(t), Limits: engine.Limits{Depth: 3}, AutoRun: true}).(*suiteView)
	defer v.Close()
	v.Init()
	waitSuiteDone(t, v)
	out := v.View(100, 30)
	solved, failed := tableRow(out, "T.1"), tableRow(out, "T.3")
	if !strings.Contains(solved, "✓") || !strings.HasSuffix(strings.TrimRight(solved, " "), " 1") {
		t.Errorf("solved row %q: want its first depth, 1", solved)
	}
	if !strings.Contains(failed, "✗") || !strings.HasSuffix(strings.TrimRight(failed, " "), "not found") {
		t.Errorf("failed row %q: want \"not found\" where the answer was first found", failed)
	}
}

// TestSuiteListFollowsRunning: running the suite, the selection (and so
// the table, and the board beside it) follows the running position down
// past the screen; once the user moves the selection it stays.
func TestSuiteListFollowsRunning(t *testing.T) {
	wac, err := epd.Load("wac")
	if err != nil {
		t.Fatal(err)
	}
	f := &enginetest.Engine{MaxDepth: 1}
	v := New(testEnv(f), Options{Name: "wac", Records: wac.Records[:40], Limits: engine.Limits{Depth: 1}, AutoRun: true}).(*suiteView)
	defer v.Close()
	v.Init()
	runUntil(t, v, 30)
	if row := tableRow(v.View(100, 30), "WAC.031"); !strings.Contains(row, "…") {
		t.Fatalf("the running position 31 is not in the table:\n%s", ansi.Strip(v.View(100, 30)))
	}
	v.Update(tuitest.Press("up"))
	runUntil(t, v, 35)
	if v.sel != 29 {
		t.Errorf("after up the selection followed the run to %d, want 29", v.sel)
	}
	if row := tableRow(v.View(100, 30), "WAC.030"); row == "" {
		t.Errorf("the selected position 30 is not in the table:\n%s", ansi.Strip(v.View(100, 30)))
	}
}

// TestSuitePicker: the board's S opens a picker of the bundled suites,
// the entry's one first selected; enter opens the chosen suite, which
// waits for a run key; esc in the picker goes back to the board.
func TestSuitePicker(t *testing.T) {
	f := &enginetest.Engine{MaxDepth: 1}
	entry := Entry("wac", engine.Limits{Depth: 1})
	v := entry.New(testEnv(f)).(*suiteView)
	defer v.Close()
	v.Init()
	v.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	out := v.View(100, 30)
	plain := ansi.Strip(out)
	for _, want := range []string{"bk", "24 positions", "ecm", "879 positions", "wcsac", "1001 positions", "› wac", "300 positions"} {
		if !strings.Contains(plain, want) {
			t.Errorf("picker lacks %q:\n%s", want, plain)
		}
	}
	if t.Failed() {
		return
	}
	tuitest.Golden(t, goldenDir, "suite-picker", out)
	v.Update(tuitest.Press("up"))
	v.Update(tuitest.Press("enter"))
	plain = ansi.Strip(v.View(100, 30))
	if !strings.Contains(plain, "Suite ecm") || !strings.Contains(plain, "0/879") || v.run != nil {
		t.Fatalf("up, enter: want ECM loaded and waiting:\n%s", plain)
	}
	v.Update(tuitest.Press("a"))
	if v.run == nil || v.run.index != 0 {
		t.Fatal("a did not run the picked suite")
	}
	v.Close()
	v = entry.New(testEnv(f)).(*suiteView)
	v.Init()
	if _, cmd := v.Update(tuitest.Press("esc")); cmd == nil || cmd() != view.Close() {
		t.Error("esc in the picker did not close the view")
	}
}

// TestSuiteExportOneResult: the export message counts in the singular at 1.
func TestSuiteExportOneResult(t *testing.T) {
	t.Chdir(t.TempDir())
	v := New(testEnv(&enginetest.Engine{MaxDepth: 1}), Options{Name: "one", Records: testSuite(t), Limits: engine.Limits{Depth: 1}}).(*suiteView)
	defer v.Close()
	v.Init()
	v.Update(tuitest.Press("enter"))
	waitSuiteDone(t, v)
	v.Update(tuitest.Press("e"))
	if v.message != "1 result written to one-results.json" {
		t.Errorf("export: %q", v.message)
	}
}
