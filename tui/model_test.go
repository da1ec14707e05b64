package tui

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

func TestIllegalMoveAndNavigation(t *testing.T) {
	m := newTestModel(t, Options{Mode: Analysis})
	m, _ = typeMove(m, "e5")
	if !m.msgIsErr || !strings.Contains(m.message, `illegal move "e5"`) || m.cur.Parent != nil {
		t.Fatalf("e5 from the start: message %q", m.message)
	}
	m = playAll(t, m, "e4", "e5", "Nf3", "Nc6")
	m = send(m, press("left"), press("left"))
	if m.cur.SAN != "e5" {
		t.Fatalf("after two steps back at %q", m.cur.SAN)
	}
	// A different move here makes a variation; the main line is kept.
	m = playAll(t, m, "d4")
	if m.cur.Parent.Children[0].SAN != "Nf3" || len(m.cur.Parent.Children) != 2 || onMainLine(m.cur) {
		t.Fatal("d4 did not become a variation")
	}
	pgn := m.tree.Export().String()
	if !strings.Contains(pgn, "1. e4 e5 2. Nf3 (2. d4) 2... Nc6 *") {
		t.Fatalf("PGN:\n%s", pgn)
	}
	m = send(m, press("up"))
	if m.cur != m.tree.Root {
		t.Fatal("up did not go to the start")
	}
	m = send(m, press("down"))
	if m.cur.SAN != "Nc6" {
		t.Fatalf("down went to %q", m.cur.SAN)
	}
	m = send(m, press("esc"), press("k"))
	if m.cur.SAN != "Nf3" {
		t.Fatalf("k went to %q", m.cur.SAN)
	}
	m = send(m, press("j"))
	if m.cur.SAN != "Nc6" {
		t.Fatalf("j went to %q", m.cur.SAN)
	}
}

func TestMouseAndCursor(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	g, _ := m.geometry()
	// Click e2 then e4 (screen rows count from the top: rank 2 is row 6).
	cell := func(file, row int) tea.MouseMsg {
		return tea.MouseMsg{X: g.x0 + file*g.w + 1, Y: g.y0 + row*g.h, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
	}
	m = send(m, cell(4, 6))
	if m.board.selected != chess.MakeSquare(4, 1) {
		t.Fatalf("click selected %v", m.board.selected)
	}
	if tg := m.targets(); tg.Count() != 2 {
		t.Fatalf("e2 targets %v", tg)
	}
	m = send(m, cell(4, 4))
	if m.cur.SAN != "e4" {
		t.Fatalf("click-click played %q", m.cur.SAN)
	}
	// Keyboard cursor, board flipped: black plays e7-e5.
	m = send(m, press("esc"), press("f"), press("enter"))
	if !m.board.cursorOn {
		t.Fatal("enter did not show the cursor")
	}
	m.board.cursor = chess.MakeSquare(4, 6)
	m = send(m, press(" "))
	if m.board.selected != chess.MakeSquare(4, 6) {
		t.Fatal("space did not pick e7")
	}
	// Flipped: down on the screen is up the board.
	m = send(m, press("up"), press("up"), press("enter"))
	if m.cur.SAN != "e5" {
		t.Fatalf("cursor drop played %q (cursor %v)", m.cur.SAN, m.board.cursor)
	}
}

func TestClockFlagFall(t *testing.T) {
	now := fixedNow
	m := New(testRenderer(termenv.Ascii), nil, Options{Mode: TwoHumans, Clock: time.Minute, Increment: 2 * time.Second,
		Now: func() time.Time { return now }})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24}, startMsg{})
	// Each side's first move is free (lichess's rule): a minute of thought
	// on each costs nothing, and no increment is added.
	now = now.Add(time.Minute)
	m = playAll(t, m, "e4")
	now = now.Add(time.Minute)
	m = playAll(t, m, "e5")
	if w, b := m.clock.Remaining(chess.White, now), m.clock.Remaining(chess.Black, now); w != time.Minute || b != time.Minute {
		t.Fatalf("after the free first moves: white %v, black %v, want 1m0s each", w, b)
	}
	now = now.Add(10 * time.Second)
	m = playAll(t, m, "Nf3")
	if got := m.clock.Remaining(chess.White, now); got != 52*time.Second {
		t.Fatalf("white has %v after 10 s +2 s, want 52s", got)
	}
	if !strings.Contains(ansi.Strip(m.View()), "0:52") {
		t.Fatalf("clock not shown:\n%s", ansi.Strip(m.View()))
	}
	now = now.Add(61 * time.Second)
	m = send(m, tickMsg(now))
	over, banner := m.Over()
	if !over || banner != "Black's time is up · White wins" || m.tree.Result != "1-0" {
		t.Fatalf("flag: over=%v %q %s", over, banner, m.tree.Result)
	}
}

func TestTakebackVsEngine(t *testing.T) {
	f := &enginetest.Engine{}
	m := New(testRenderer(termenv.Ascii), f, Options{Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, cmd := typeMove(m, "e4")
	// Run the engine's search to its end through the wait command.
	for cmd != nil && m.cur.Ply() < 2 {
		msg := runCmd(cmd)
		var nm tea.Model
		nm, cmd = m.Update(msg)
		m = nm.(Model)
	}
	if m.cur.Ply() != 2 {
		t.Fatalf("engine did not reply (ply %d)", m.cur.Ply())
	}
	m = send(m, press("esc"), press("u"))
	if m.cur != m.tree.Root || len(m.tree.Root.Children) != 0 {
		t.Fatalf("takeback left ply %d", m.cur.Ply())
	}
}

// runCmd runs a command, unpacking batches until a message of the model's
// own kinds appears.
func runCmd(cmd tea.Cmd) tea.Msg {
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if c == nil {
				continue
			}
			if r := runCmd(c); r != nil {
				switch r.(type) {
				case livecmd.Msg, bookMsg:
					return r
				}
			}
		}
		return nil
	}
	return msg
}

func TestThrottle(t *testing.T) {
	// An engine reporting every millisecond reaches the model at most 15
	// times a second.
	f := &enginetest.Engine{Tick: time.Millisecond}
	pos := chess.NewPosition()
	tree := NewTree(pos)
	s := newBoardSearch(f, "squall")
	defer s.runner.Close()
	wait := s.start(searchWant{kind: searchAnalysis, node: tree.Root, game: tree.EngineGame(tree.Root), limits: engine.Limits{Infinite: true}})
	r := s.run.s
	start := time.Now()
	msgs, infos := 0, 0
	for time.Since(start) < 600*time.Millisecond {
		msg := wait()
		b := msg.(livecmd.Msg)
		msgs++
		infos += len(b.Infos)
		wait = livecmd.Wait(r)
	}
	s.stop()
	<-r.Done()
	elapsed := time.Since(start).Seconds()
	if rate := float64(msgs) / elapsed; rate > 16 {
		t.Fatalf("%d messages in %.2fs (%.1f/s)", msgs, elapsed, rate)
	}
	if infos <= msgs {
		t.Fatalf("reports not batched: %d infos in %d messages", infos, msgs)
	}
}

func TestSaveAndSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "g.pgn")
	if err := writeFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	// A new file gets the usual permissions, not the temporary file's
	// private ones; a replaced file keeps its own.
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode %v, %v", fi.Mode(), err)
	}
	os.Chmod(path, 0o600)
	if err := writeFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	ents, _ := os.ReadDir(filepath.Dir(path))
	if string(b) != "two" || len(ents) != 1 {
		t.Fatalf("content %q, %d files", b, len(ents))
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600 kept", fi.Mode())
	}
	s := DefaultSettings()
	s.Theme, s.Pieces, s.Level, s.Clock, s.Engine = "blue", "letters", 3, "5+3", "stockfish --x"
	s.Book, s.Syzygy = `/books/my "best".bin`, "/tb/3-4:/tb/5"
	cfg := filepath.Join(dir, "config.toml")
	if err := SaveSettings(cfg, s); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSettings(cfg)
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	_, err = ParseSettings(strings.NewReader("theme = \"x\"\nlevel = 99\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2: level") {
		t.Fatalf("bad level: %v", err)
	}
	if b, i, err := ParseClock("3+2"); err != nil || b != 3*time.Minute || i != 2*time.Second {
		t.Fatalf("ParseClock: %v %v %v", b, i, err)
	}
	if _, _, err := ParseClock("fast"); err == nil {
		t.Fatal("ParseClock accepted nonsense")
	}
}

func FuzzParseSettings(f *testing.F) {
	f.Add(DefaultSettings().String())
	f.Add("clock = \"1+\"\nhash = -1\n[x]\n")
	f.Add("beside = \"sf\"\n[engines]\nsf = \"/usr/games/stockfish\"\n\"my lc0\" = lc0\n[options.\"my lc0\"]\n\"Skill Level\" = \"3\"\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseSettings(strings.NewReader(s))
	})
}

// stubView is an extra view for the View plumbing test.
type stubView struct{ keys int }

func (v stubView) Init() tea.Cmd { return nil }
func (v stubView) Update(msg tea.Msg) (view.View, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if k.String() == "esc" {
			return v, view.Close
		}
		v.keys++
	}
	return v, nil
}
func (v stubView) View(w, h int) string { return "SUITE VIEW " + strings.Repeat("*", v.keys) }

func TestExtraView(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans, Views: []view.Entry{{Key: "S", Help: "suite", New: func(view.Env) view.View { return stubView{} }}}})
	m = send(m, press("esc"), press("S"), press("x"), press("y"))
	if !strings.HasPrefix(m.View(), "SUITE VIEW **") {
		t.Fatalf("view: %q", m.View())
	}
	nm, cmd := m.Update(press("esc"))
	m = send(nm.(Model), cmd())
	if len(m.views) != 0 || !strings.Contains(ansi.Strip(m.View()), "White to move") {
		t.Fatal("view did not close")
	}
}

func TestHelpOverlayAndNewGameDialog(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, press("?"))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "takeback") || !strings.Contains(v, "copy FEN") {
		t.Fatalf("help overlay:\n%s", v)
	}
	m = send(m, press("x"), press("esc"), press("n"))
	if _, ok := m.dialog.(*newGameDialog); !ok {
		t.Fatal("n opened no dialog")
	}
	// Mode: analysis (one step right from human vs human), which has no
	// clock.
	m = send(m, press("right"), press("enter"))
	if m.mode != Analysis || m.clock.Enabled() {
		t.Fatalf("new game mode %v clock %v", m.mode, m.clock.Enabled())
	}
}

func TestLevelSetsEloThenFullStrengthForAnalysis(t *testing.T) {
	// An engine that can limit its strength; Misuse catches an option set
	// during a search.
	e := &enginetest.Engine{Opts: []engine.Option{{Name: "UCI_LimitStrength", Type: "check"}, {Name: "UCI_Elo", Type: "spin", Min: 500, Max: 3000}}}
	m := New(testRenderer(termenv.Ascii), e, Options{Level: 2, Now: func() time.Time { return fixedNow }})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, cmd := typeMove(m, "e4")
	for cmd != nil && m.cur.Ply() < 2 {
		nm, c := m.Update(runCmd(cmd))
		m, cmd = nm.(Model), c
	}
	m = send(m, press("esc"), press("a"))
	m.Close()
	if err := e.Misuse(); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(e.Settings(), " ")
	if got != "UCI_LimitStrength=true UCI_Elo=1100 UCI_LimitStrength=false" {
		t.Fatalf("options set: %s", got)
	}
}

func TestMoveListScrolls(t *testing.T) {
	m := newTestModel(t, Options{Mode: Analysis})
	for i := 0; i < 15; i++ {
		m = playAll(t, m, "Nf3", "Nf6", "Ng1", "Ng8")
	}
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "30. Ng1") || strings.Contains(v, "   1. Nf3") {
		t.Fatalf("move list not scrolled to the current move:\n%s", v)
	}
	m = send(m, press("up"))
	v = ansi.Strip(m.View())
	if !strings.Contains(v, "   1. Nf3") {
		t.Fatalf("move list not scrolled back to the start:\n%s", v)
	}
}

func TestCopyPasteSave(t *testing.T) {
	var copied string
	m := newTestModel(t, Options{Mode: TwoHumans, Clipboard: func(s string) error { copied = s; return nil }})
	m = playAll(t, m, "d4")
	m = send(m, press("esc"), press("c"))
	if copied != "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1" {
		t.Fatalf("copied %q", copied)
	}
	m = send(m, press("p"))
	for _, r := range "8/8/8/8/8/1k6/8/K1q5 w - - 0 1" {
		m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m = send(m, press("enter"))
	if m.mode != Analysis || !m.pos.IsCheckmate() || !strings.Contains(ansi.Strip(m.View()), "Checkmate") {
		t.Fatalf("pasted FEN: mode %v, fen %s", m.mode, m.pos.FEN())
	}
	m = send(m, press("p"))
	for _, r := range "not a fen" {
		m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m = send(m, press("enter"))
	if d, ok := m.dialog.(*promptDialog); !ok || d.err == "" || !m.pos.IsCheckmate() {
		t.Fatal("a bad FEN was not reported, or changed the board")
	}
	m = send(m, press("esc"))
	path := filepath.Join(t.TempDir(), "out.pgn")
	m = send(m, press("s"))
	d := m.dialog.(*promptDialog)
	d.in.SetValue(path)
	nm, cmd := m.Update(press("enter"))
	m = send(nm.(Model), cmd())
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `[FEN "8/8/8/8/8/1k6/8/K1q5 w - - 0 1"]`) || !strings.Contains(m.message, "saved") {
		t.Fatalf("save: %v %q\n%s", err, m.message, b)
	}
}

// TestQuickEscThenKey: esc followed quickly by a key reaches the program
// as alt+key; it acts as both, so "esc a" turns analysis on.
func TestQuickEscThenKey(t *testing.T) {
	m := newTestModel(t, Options{Mode: Analysis})
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'a'}, Alt: true})
	if m.focus != focusBoard || !m.analysisOn || m.input.Value() != "" {
		t.Fatalf("alt+a: focus %v, analysis %v, input %q", m.focus, m.analysisOn, m.input.Value())
	}
}

// TestClockWaitsForFirstMoves is issue 18's B6: the clock started when the
// game opened, so with --clock 0.05+0 and nothing touched White lost on
// time after 3 s. No clock runs before both sides have moved; until then
// R aborts the game instead of resigning it.
func TestClockWaitsForFirstMoves(t *testing.T) {
	now := fixedNow
	m := New(testRenderer(termenv.Ascii), nil, Options{Mode: TwoHumans, Clock: 3 * time.Second,
		Now: func() time.Time { return now }})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24}, startMsg{})
	now = now.Add(time.Hour)
	m = send(m, tickMsg(now))
	if over, banner := m.Over(); over {
		t.Fatalf("the untouched game ended: %q", banner)
	}
	m = playAll(t, m, "e4")
	now = now.Add(time.Hour)
	m = send(m, tickMsg(now))
	if over, banner := m.Over(); over {
		t.Fatalf("the game ended before Black's first move: %q", banner)
	}
	m = send(m, press("esc"), press("R"), press("y"))
	if over, banner := m.Over(); !over || banner != "Game aborted" || m.tree.Result != "*" {
		t.Fatalf("R before both sides moved: over %v %q %s, want an aborted game", over, banner, m.tree.Result)
	}
}

// TestStatusShowsTimeControl is B5: the status line showed White's
// remaining seconds as the time control ("180+2", "178+2" … "0+0"). It
// shows the control as --clock writes it, whatever the clocks say.
func TestStatusShowsTimeControl(t *testing.T) {
	now := fixedNow
	f := &enginetest.Engine{}
	m := New(testRenderer(termenv.Ascii), f, Options{Clock: 3 * time.Minute, Increment: 2 * time.Second,
		Now: func() time.Time { return now }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, startMsg{})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "3+2") || strings.Contains(v, "180+2") {
		t.Fatalf("status line at the start:\n%s", v)
	}
	m.clock.SetRemaining(chess.White, 17*time.Second, fixedNow)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "3+2") || strings.Contains(v, "17+2") {
		t.Fatalf("status line after White used time:\n%s", v)
	}
	if got := m.tree.Tag("TimeControl"); got != "180+2" {
		t.Errorf("PGN TimeControl tag %q, want 180+2 (seconds, as PGN has it)", got)
	}
}

// TestWarningsOnBoard is issue 18's B7 on the board's side: problems found
// while starting (an --engine that did not start) went to stderr, behind
// the board, and were seen only after quitting. They are shown on the
// board when it opens, made safe for the terminal.
func TestWarningsOnBoard(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans, Warnings: []string{`engine "/no/such\x1b[2J" did not start: playing with the built-in engine`}})
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "did not start") {
		t.Fatalf("the warning is not on the board:\n%s", v)
	}
	if strings.Contains(m.View(), "\x1b[2J") {
		t.Error("the warning reached the screen raw")
	}
}

// TestCommandKeysFromEmptyInput is the focus trap of issue 18: the board
// opens with the move box focused, and the keys the panel advertises (a,
// s, q…) were typed into it as letters. From the empty box a board key
// runs when no legal move begins with it; a file letter that begins a move
// is typed, and enter on it alone runs its command.
func TestCommandKeysFromEmptyInput(t *testing.T) {
	m := newTestModel(t, Options{Mode: Analysis})
	if m.focus != focusInput {
		t.Fatal("the board does not open with the move box focused")
	}
	// s: no move begins with it; it opens the save prompt.
	m = send(m, press("s"))
	if _, ok := m.dialog.(*promptDialog); !ok || m.input.Value() != "" {
		t.Fatalf("s from the empty box: dialog %T, input %q", m.dialog, m.input.Value())
	}
	m = send(m, press("esc"))
	// a: a3 and a4 begin with it in the start position, so it is typed;
	// enter on it alone toggles analysis.
	m = send(m, press("a"))
	if m.input.Value() != "a" || m.analysisOn {
		t.Fatalf("a at the start: input %q, analysing %v", m.input.Value(), m.analysisOn)
	}
	// The help line says what enter does now, and how to go on to a3.
	if h := ansi.Strip(m.helpLine()); !strings.Contains(h, "enter analysis") || !strings.Contains(h, "tab complete the move") {
		t.Errorf("help line with a typed: %q", h)
	}
	m = send(m, press("enter"))
	if !m.analysisOn || m.input.Value() != "" {
		t.Fatalf("a then enter: analysing %v, input %q", m.analysisOn, m.input.Value())
	}
	// Where no move begins with a (the a-pawn and rook blocked), a alone
	// toggles analysis, and typing moves still works.
	m2 := newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, "4k3/8/8/8/8/p7/P7/4K3 w - - 0 1")})
	m2 = send(m2, press("a"))
	if !m2.analysisOn || m2.input.Value() != "" {
		t.Fatalf("a with no a-file move: analysing %v, input %q", m2.analysisOn, m2.input.Value())
	}
	m2 = playAll(t, m2, "Kd2")
	if m2.cur.SAN != "Kd2" {
		t.Fatalf("typing a move after a command: %q", m2.cur.SAN)
	}
}

// TestWatchPace: a watched engine game keeps at least WatchPace between
// moves, so a person can follow it; the engine's move waits, then is
// played, unless the game moved on meanwhile.
func TestWatchPace(t *testing.T) {
	f := &enginetest.Engine{}
	m := New(testRenderer(termenv.Ascii), f, Options{Mode: Watch, WatchPace: time.Second, Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	nm, cmd := m.Update(startMsg{})
	m = nm.(Model)
	// The first move has nothing to wait for; the second comes within the
	// same second (the fake clock stands still), so it is held.
	var paced tea.Cmd
	dones := 0
	for cmd != nil && paced == nil {
		msg := runCmd(cmd)
		if msg == nil {
			t.Fatal("the engine's search gave nothing")
		}
		b, ok := msg.(livecmd.Msg)
		isDone := ok && b.Done
		nm, cmd = m.Update(msg)
		m = nm.(Model)
		if isDone {
			if dones++; dones == 2 {
				paced = cmd
			}
		}
	}
	if m.cur.Ply() != 1 || paced == nil {
		t.Fatalf("the engine's second move was played at once (ply %d) or not held", m.cur.Ply())
	}
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	gen := m.search.held
	m = send(m, pacedMoveMsg{gen: gen, node: m.cur, move: ml.Moves[0]})
	if m.cur.Ply() != 2 {
		t.Fatalf("the held move was not played: ply %d", m.cur.Ply())
	}
	// A held move for a position the board has left is dropped.
	m = send(m, pacedMoveMsg{gen: gen, node: m.cur.Parent, move: ml.Moves[0]})
	if m.cur.Ply() != 2 {
		t.Errorf("a stale held move was played")
	}
}

// TestSmallTrustFixes: the stats line goes blank when analysis is turned
// off (its counters read as if the search still ran), an error clears at
// the next key, and "FEN copied" says which FEN.
func TestSmallTrustFixes(t *testing.T) {
	m := newTestModel(t, Options{Mode: Analysis})
	m.panel.add(m.pos, engine.Info{Depth: 12, SelDepth: 20, Nodes: 123456, NPS: 1000, Time: time.Second})
	if p := panelText(m); strings.Contains(p, "depth 12") {
		t.Errorf("analysis off, yet the stats line shows:\n%s", p)
	}
	m.setError(errors.New("no such thing"))
	m = send(m, press("esc"), press("f"))
	if m.message != "" {
		t.Errorf("the error %q stayed after a key", m.message)
	}
	var got string
	m2 := newTestModel(t, Options{Mode: Analysis, Clipboard: func(s string) error { got = s; return nil }})
	m2 = send(m2, press("esc"), press("c"))
	if !strings.Contains(m2.message, got) || got == "" {
		t.Errorf("copy: message %q, clipboard %q", m2.message, got)
	}
}

// TestLevelMidGame: L opens the level dialog during a game; the level
// chosen there is the engine's from its next move.
func TestLevelMidGame(t *testing.T) {
	e := &enginetest.Engine{Opts: []engine.Option{{Name: "UCI_LimitStrength", Type: "check"}, {Name: "UCI_Elo", Type: "spin", Min: 500, Max: 3000}}}
	m := New(testRenderer(termenv.Ascii), e, Options{Level: 1, Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = send(m, press("esc"), press("L"), press("down"), press("enter"))
	if m.level != 1 || !strings.Contains(m.message, Levels[1].Name) {
		t.Fatalf("L: level %d, message %q", m.level, m.message)
	}
}

// TestClockMidGame: C changes the time control of the game in progress:
// both sides get the new base from now on with its increment, the clock of
// the side to move keeps running, the PGN tag follows; "none" removes the
// clocks.
func TestClockMidGame(t *testing.T) {
	now := fixedNow
	m := New(testRenderer(termenv.Ascii), nil, Options{Mode: TwoHumans, Clock: time.Minute,
		Now: func() time.Time { return now }})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24}, startMsg{})
	m = playAll(t, m, "e4", "e5")
	now = now.Add(20 * time.Second)
	m = send(m, press("esc"), press("C"))
	d, ok := m.dialog.(*clockDialog)
	if !ok {
		t.Fatalf("C opened %T", m.dialog)
	}
	for timeControls[d.sel].name != "3+2" {
		m = send(m, press("down"))
	}
	m = send(m, press("enter"))
	if w, b := m.clock.Remaining(chess.White, now), m.clock.Remaining(chess.Black, now); w != 3*time.Minute || b != 3*time.Minute {
		t.Fatalf("after 3+2: white %v, black %v", w, b)
	}
	if side, run := m.clock.Running(); !run || side != chess.White || m.tree.Tag("TimeControl") != "180+2" {
		t.Fatalf("clock running %v for %v, tag %q", run, side, m.tree.Tag("TimeControl"))
	}
	now = now.Add(10 * time.Second)
	m = playAll(t, send(m, press("tab")), "Nf3")
	if got := m.clock.Remaining(chess.White, now); got != 3*time.Minute-8*time.Second {
		t.Errorf("white after 10 s with +2: %v", got)
	}
	m = send(m, press("esc"), press("C"))
	for timeControls[m.dialog.(*clockDialog).sel].name != "none" {
		m = send(m, press("down"))
	}
	m = send(m, press("enter"))
	if m.clock.Enabled() || m.tree.Tag("TimeControl") != "" {
		t.Errorf("none: clock enabled %v, tag %q", m.clock.Enabled(), m.tree.Tag("TimeControl"))
	}
}

// clockGame is a game between two people from fen with a minute each on
// the clock, which reads *now.
func clockGame(t *testing.T, fen string, now *time.Time) Model {
	t.Helper()
	start, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	m := New(testRenderer(termenv.Ascii), nil, Options{Mode: TwoHumans, Clock: time.Minute, Start: start,
		Now: func() time.Time { return *now }})
	return send(m, tea.WindowSizeMsg{Width: 80, Height: 24}, startMsg{})
}

// TestLoneKnightIsDrawn (issue 34, R1): a king and a knight against a bare
// king cannot mate by any series of legal moves, so the game is drawn the
// moment the position arises (dead position), before any flag can fall —
// on the board as on the server and in engine matches.
func TestLoneKnightIsDrawn(t *testing.T) {
	now := fixedNow
	m := clockGame(t, "4k3/8/8/8/8/8/3p4/4K1N1 w - - 0 1", &now)
	m = playAll(t, m, "Kxd2")
	over, banner := m.Over()
	if !over || banner != "Insufficient material · draw" || m.tree.Result != "1/2-1/2" || m.tree.Tag("Termination") != "normal" {
		t.Fatalf("king and knight against a king: over=%v %q %s %q", over, banner, m.tree.Result, m.tree.Tag("Termination"))
	}
}

// TestFlagJudgedOnGamePosition (issue 34, R1): a flag is judged on the
// game's position, not the one shown. White's knight was taken, Black's
// flag falls while the user looks at a position where White still had it:
// White's bare king cannot mate, so it is a draw (FIDE 6.9). The board
// judged the shown position and gave White the game.
func TestFlagJudgedOnGamePosition(t *testing.T) {
	now := fixedNow
	m := clockGame(t, "4k3/8/8/8/8/5r2/8/4K1N1 w - - 0 1", &now)
	m = playAll(t, m, "Nh3", "Rxh3", "Kd2")
	m = send(m, press("home"), press("right")) // after 1. Nh3: White has its knight
	now = now.Add(61 * time.Second)
	m = send(m, tickMsg(now))
	over, banner := m.Over()
	if !over || banner != "Black's time is up · draw" || m.tree.Result != "1/2-1/2" || m.tree.Tag("Termination") != "time forfeit" {
		t.Fatalf("flag with the knight shown: over=%v %q %s %q", over, banner, m.tree.Result, m.tree.Tag("Termination"))
	}
}

// TestResignJudgedOnGame (issue 34, R1): resigning is judged on the game,
// not the position shown: with the start shown after three plies, R asks
// Black (to move in the game) to resign — not White to abort, which the
// board offered because the shown position had no move yet.
func TestResignJudgedOnGame(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4", "e5", "Nf3")
	m = send(m, press("home"), press("R"))
	d, ok := m.dialog.(*choiceDialog)
	if !ok || d.title != "Resign?" || !strings.Contains(d.question, "as Black? White wins.") {
		t.Fatalf("R with the start shown: %#v", m.dialog)
	}
	m = send(m, press("y"))
	if over, banner := m.Over(); !over || banner != "Black resigns · White wins" || m.tree.Result != "1-0" {
		t.Fatalf("resigned: over=%v %q %s", over, banner, m.tree.Result)
	}
}
