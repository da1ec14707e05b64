package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// Issue 32's "one key must not end a game" and "no lost work": each test
// here failed on the board as it was (quoted in the note).

// TestResignAsks is K1: R, typed into the empty move box where no move
// begins with it, resigned the game at once.
func TestResignAsks(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4", "e5", "Nf3")
	m = send(m, press("R")) // from the move box: no black move begins with R here
	if over, banner := m.Over(); over {
		t.Fatalf("R ended the game at once: %q", banner)
	}
	if m.dialog == nil || !strings.Contains(ansi.Strip(m.View()), "Resign this game as Black?") {
		t.Fatalf("R asked nothing:\n%s", ansi.Strip(m.View()))
	}
	m = send(m, press("n"))
	if over, _ := m.Over(); over || m.dialog != nil {
		t.Fatal("n to the question resigned or left it open")
	}
	m = send(m, press("R"), press("y"))
	if over, banner := m.Over(); !over || banner != "Black resigns · White wins" || m.tree.Result != "1-0" {
		t.Fatalf("R, y: over %v, %q, %s", over, banner, m.tree.Result)
	}
}

// TestQuitAsksMidGame is K1's q: quitting a game in progress asks; ctrl+c
// on the question quits all the same (the game is in the autosave).
func TestQuitAsksMidGame(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4")
	m = send(m, press("esc"), press("q"))
	if m.quitting || m.dialog == nil {
		t.Fatalf("q mid-game: quitting %v, dialog %T", m.quitting, m.dialog)
	}
	m = send(m, press("n"))
	if m.quitting || m.dialog != nil {
		t.Fatal("n: quit, or the question stayed")
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlC})
	if m.quitting || m.dialog == nil {
		t.Fatal("ctrl+c mid-game quit without asking")
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlC})
	if !m.quitting {
		t.Fatal("ctrl+c twice did not quit")
	}
	// Nothing at stake: q quits at once.
	m2 := newTestModel(t, Options{Mode: TwoHumans})
	m2 = send(m2, press("q"))
	if !m2.quitting {
		t.Fatal("q with no game begun asked")
	}
}

// TestHelpLineNamesQuit: the help line of the move box names how to quit.
func TestHelpLineNamesQuit(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	if h := ansi.Strip(m.helpLine()); !strings.Contains(h, "quit") {
		t.Errorf("help line %q does not say how to quit", h)
	}
}

// analysisWithVariation opens a three-move game and adds the variation
// 2... Nc6 where the game had 2... d6: the D2 steps.
func analysisWithVariation(t *testing.T, opt Options) Model {
	t.Helper()
	trees, err := ReadPGN(strings.NewReader("[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 d6 *\n"), "g.pgn")
	if err != nil {
		t.Fatal(err)
	}
	opt.Games = trees
	m := newTestModel(t, opt)
	m = send(m, press("end"), press("left"))
	m = playAll(t, m, "Nc6")
	if onMainLine(m.cur) {
		t.Fatal("Nc6 did not make a variation")
	}
	return m
}

// TestQuitAsksWithUnsavedAnalysis is D2: a variation added to an opened
// game vanished on q. Now q asks: save, discard or cancel; saving writes
// the file and then quits.
func TestQuitAsksWithUnsavedAnalysis(t *testing.T) {
	m := analysisWithVariation(t, Options{})
	m = send(m, press("esc"), press("q"))
	if m.quitting || m.dialog == nil {
		t.Fatalf("q with an unsaved variation: quitting %v, dialog %T", m.quitting, m.dialog)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "s save") || !strings.Contains(v, "d discard") {
		t.Fatalf("the question does not offer save and discard:\n%s", v)
	}
	m = send(m, press("c"))
	if m.quitting || m.dialog != nil {
		t.Fatal("cancel quit, or left the question open")
	}
	// Save, then quit: the file has the variation.
	path := filepath.Join(t.TempDir(), "saved.pgn")
	m = send(m, press("q"), press("s"))
	m, cmd := typeIn(m, path)
	m = runSave(t, m, cmd)
	if !m.quitting {
		t.Fatalf("saved, but did not quit: %q", m.message)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "(2... Nc6)") {
		t.Fatalf("the saved file lacks the variation:\n%s", b)
	}
	// Discard quits at once.
	m = analysisWithVariation(t, Options{})
	m = send(m, press("esc"), press("q"), press("d"))
	if !m.quitting {
		t.Fatal("discard did not quit")
	}
}

// TestSessionResumedAfterCrash is D2's crash: the variation is in the
// session file as soon as it is played (no quit needed: a kill -9 loses
// nothing), and the next start offers it back.
func TestSessionResumedAfterCrash(t *testing.T) {
	session := filepath.Join(t.TempDir(), "session.json")
	m := analysisWithVariation(t, Options{Session: session})
	m.Close() // flushes the writer, as the process would have by now
	b, err := os.ReadFile(session)
	if err != nil || !strings.Contains(string(b), "Nc6") {
		t.Fatalf("session file after the variation: %v\n%s", err, b)
	}
	// The next start, as `squall` alone.
	m2 := newTestModel(t, Options{Mode: TwoHumans, Session: session})
	defer m2.Close()
	if v := ansi.Strip(m2.View()); !strings.Contains(v, "Resume?") || !strings.Contains(v, "g.pgn, 2 moves") {
		t.Fatalf("no offer to resume:\n%s", v)
	}
	m2 = send(m2, press("r"))
	if m2.cur.SAN != "Nc6" || onMainLine(m2.cur) || m2.mode != Analysis || !m2.unsaved() {
		t.Fatalf("resumed at %q (main line %v), mode %v, unsaved %v", m2.cur.SAN, onMainLine(m2.cur), m2.mode, m2.unsaved())
	}
	// Started on the file again, the question comes before its picker,
	// and resuming leaves the picker out.
	games, _ := ReadPGN(strings.NewReader("[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n"), "g.pgn")
	m3 := newTestModel(t, Options{Games: games, Session: session})
	defer m3.Close()
	if _, ok := m3.dialog.(*choiceDialog); !ok {
		t.Fatalf("the first dialog is %T, want the offer to resume", m3.dialog)
	}
	m3 = send(m3, press("r"))
	if m3.dialog != nil || m3.cur.SAN != "Nc6" {
		t.Fatalf("after resuming: dialog %T, at %q", m3.dialog, m3.cur.SAN)
	}
	// Discarding it from the quit question removes the file. m3 is closed
	// first: its writer could otherwise write the resumed session after
	// the removal (under -race on a loaded machine it did).
	m3.Close()
	m2 = send(m2, press("esc"), press("q"), press("d"))
	m2.Close()
	if _, err := os.Stat(session); !os.IsNotExist(err) {
		t.Errorf("the session file outlived discard: %v", err)
	}
}

// TestAutosaveNoEmptyGames is D2's last line: a session where nothing was
// played wrote `[Result "*"] *` into the autosave.
func TestAutosaveNoEmptyGames(t *testing.T) {
	autosave := filepath.Join(t.TempDir(), "games.pgn")
	m := New(testRenderer(termenv.Ascii), &enginetest.Engine{}, Options{Autosave: autosave, Now: func() time.Time { return fixedNow }})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24}, press("esc"), press("q"))
	m.Close()
	if b, err := os.ReadFile(autosave); err == nil {
		t.Fatalf("a session with no move wrote the autosave:\n%s", b)
	}
}

// TestTakebackAfterResultAsks is W6: u after a draw agreement revived the
// game silently. Now it asks, and yes opens the finished game as analysis
// with its result kept.
func TestTakebackAfterResultAsks(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4", "e5", "Nf3")
	m = send(m, press("esc"), press("D"))
	if over, _ := m.Over(); !over {
		t.Fatal("no draw agreed")
	}
	m = send(m, press("u"))
	if over, _ := m.Over(); !over || m.dialog == nil || m.tree.Result != "1/2-1/2" {
		t.Fatalf("u after the result: over %v, dialog %T, result %s", over, m.dialog, m.tree.Result)
	}
	m = send(m, press("y"))
	if m.mode != Analysis || m.tree.Result != "1/2-1/2" || m.cur.SAN != "e5" || len(m.cur.Children) != 1 {
		t.Fatalf("reopened: mode %v, result %s, at %q", m.mode, m.tree.Result, m.cur.SAN)
	}
}

// TestAnalysisModeStartsAnalysing is W7: --mode analysis opened with the
// analysis off.
func TestAnalysisModeStartsAnalysing(t *testing.T) {
	m := New(testRenderer(termenv.Ascii), &enginetest.Engine{}, Options{Mode: Analysis, Now: func() time.Time { return fixedNow }})
	defer m.Close()
	if !m.analysisOn {
		t.Fatal("--mode analysis opened with the analysis off")
	}
}

// TestIllegalMoveKeepsGame is D3: a file whose game 1 has an illegal
// 5. Qxd8+ opened game 3 only, with the message cut. Now every game opens,
// game 1 up to its bad move with the place marked, the whole message is in
// a dialog, and game 1 is not saved back over the whole game in its file.
func TestIllegalMoveKeepsGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.pgn")
	data := "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Qxd8+ Kxd8 *\n\n" +
		"[White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 *\n\n[White \"E\"]\n[Black \"F\"]\n\n1. c4 c5 *\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	games, err := openFile(path)
	if len(games) != 3 || err == nil {
		t.Fatalf("%d games opened (%v), want all 3", len(games), err)
	}
	m := newTestModel(t, Options{Games: games, GamesErr: err})
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "Problems reading") || !strings.Contains(v, "Qxd8+:") {
		t.Fatalf("the whole message is not shown:\n%s", v)
	}
	m = send(m, press("enter"), press("enter")) // the notice, then game 1 in the picker
	if countPlies(m.tree) != 8 || m.tree.Tag("White") != "A" {
		t.Fatalf("game 1: %d moves, White %q", countPlies(m.tree), m.tree.Tag("White"))
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "⚠ the file's game stops") {
		t.Errorf("the move list does not mark where game 1 stops:\n%s", v)
	}
	m = send(m, press("esc"), press("s"))
	m, cmd := typeIn(m, path)
	if cmd != nil || !m.msgIsErr || !strings.Contains(m.message, "save it under another name") {
		t.Fatalf("saving the part back into its file: message %q", m.message)
	}
	if b, _ := os.ReadFile(path); string(b) != data {
		t.Error("the file was changed")
	}
}

// TestMoveListRough is issue 32's move-list roughness: the comment before
// the first move was shown twice (list and panel), comments inside
// variations kept their braces, and a Black move was numbered "3..." in the
// alternatives line but "3…" in the list.
func TestMoveListRough(t *testing.T) {
	trees, err := ReadPGN(strings.NewReader("[White \"A\"]\n\n{Before it all.} 1. e4 e5 2. Nf3 (2. f4 {The gambit.} exf4) 2... Nc6 (2... d6) *\n"), "r.pgn")
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Games: trees})
	if v := ansi.Strip(m.View()); strings.Count(v, "Before it all.") != 1 {
		t.Errorf("the pre-game comment is shown %d times:\n%s", strings.Count(v, "Before it all."), v)
	}
	m = send(m, press("right"), press("right"), press("right"), press("right"), press("]"))
	v := ansi.Strip(m.View())
	if strings.Contains(v, "{The gambit.}") || !strings.Contains(v, "The gambit.") {
		t.Errorf("the variation's comment is not shown as text:\n%s", v)
	}
	if strings.Contains(v, "2...") || !strings.Contains(v, "here: 2… Nc6 d6") {
		t.Errorf("Black's move numbers differ between the list and the alternatives line:\n%s", v)
	}
}

// TestBadFENKeepsDialog is D4: a bad FEN in the p dialog closed it and lost
// the typed text. Now the dialog stays open, the text as typed, the error
// under it.
func TestBadFENKeepsDialog(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, press("esc"), press("p"))
	bad := "8/8/8/8/8/8/8/8 w - - 0 1 junk"
	for _, r := range bad {
		m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m = send(m, press("enter"))
	d, ok := m.dialog.(*promptDialog)
	if !ok || d.in.Value() != bad {
		t.Fatalf("after a bad FEN: dialog %T", m.dialog)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "fen:") {
		t.Errorf("no error under the field:\n%s", v)
	}
	// Mended, it is taken.
	d.in.SetValue("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	m = send(m, press("enter"))
	if m.dialog != nil || m.pos.FEN() != "4k3/8/8/8/8/8/8/4K2R w K - 0 1" {
		t.Fatalf("a good FEN: dialog %T, position %s", m.dialog, m.pos.FEN())
	}
}

// TestPathCompletion: tab completes a path in the open and save dialogs.
func TestPathCompletion(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"masters.pgn", "mine-1.pgn", "mine-2.pgn"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	m := newTestModel(t, Options{Mode: TwoHumans, Open: openFile})
	m = send(m, press("esc"), press("o"))
	d := m.dialog.(*promptDialog)
	tab := func(typed string) string {
		d.in.SetValue(typed)
		nm, cmd := m.Update(press("tab"))
		m = send(nm.(Model), cmd())
		return d.in.Value()
	}
	if got := tab(filepath.Join(dir, "ma")); got != filepath.Join(dir, "masters.pgn") {
		t.Errorf("ma<tab> → %q", got)
	}
	if got := tab(filepath.Join(dir, "mi")); got != filepath.Join(dir, "mine-") || len(d.choices) != 2 {
		t.Errorf("mi<tab> → %q, choices %q", got, d.choices)
	}
}

// TestScoreViewSaid is W4: v changed whose view the scores are from with
// no word, and saved it for the next start. Now the panel's title always
// says whose view it is while scores show, and v says it changed and where
// it is kept.
func TestScoreViewSaid(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.toml")
	m := New(testRenderer(termenv.Ascii), &enginetest.Engine{Tick: time.Hour}, Options{Mode: Analysis, ConfigPath: cfg, Now: func() time.Time { return fixedNow }})
	defer m.Close()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, startMsg{})
	if p := panelText(m); !strings.Contains(p, "White's view") {
		t.Errorf("the panel does not say whose view its scores are from:\n%s", p)
	}
	m = send(m, press("esc"), press("v"))
	if p := panelText(m); !strings.Contains(p, "mover's view") {
		t.Errorf("after v the panel still says:\n%s", p)
	}
	if !strings.Contains(m.message, "side to move's view") || !strings.Contains(m.message, "saved in "+cfg) {
		t.Errorf("v said %q", m.message)
	}
}

// TestPanelDoesNotJump: the stats took one row or two as the numbers grew,
// moving the lines under them; after mate the panel still said
// "analysing".
func TestPanelDoesNotJump(t *testing.T) {
	for w := 80; w <= 200; w += 4 {
		m := New(testRenderer(termenv.Ascii), &enginetest.Engine{Tick: time.Hour}, Options{Mode: Analysis, Now: func() time.Time { return fixedNow }})
		m = send(m, tea.WindowSizeMsg{Width: w, Height: 40}, startMsg{})
		m.analysisOn = true
		rowOf := func(i engine.Info) int {
			m.panel.add(m.pos, i)
			for k, l := range strings.Split(panelText(m), "\n") {
				if strings.Contains(l, "e4 e5") {
					return k
				}
			}
			return -1
		}
		pv := []chess.Move{mustMove(t, m.pos, "e4"), mustMove(t, afterE4(t), "e5")}
		small := rowOf(engine.Info{Depth: 1, SelDepth: 1, Nodes: 20, NPS: 20, Time: time.Millisecond, MultiPV: 1, PV: pv, Score: engine.Score{CP: 30}})
		big := rowOf(engine.Info{Depth: 45, SelDepth: 99, Nodes: 987654321098, NPS: 98765432, HashFull: 1000, Time: 59 * time.Minute, MultiPV: 1, PV: pv, Score: engine.Score{CP: 30}})
		m.Close()
		if small < 0 || small != big {
			t.Errorf("%d columns: the line moved from row %d to row %d as the numbers grew", w, small, big)
		}
	}
	mate := newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")})
	mate.analysisOn = true
	if p := panelText(mate); strings.Contains(p, "analysing") {
		t.Errorf("after mate the panel says:\n%s", p)
	}
}

func mustMove(t *testing.T, p *chess.Position, s string) chess.Move {
	t.Helper()
	mv, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return mv
}

func afterE4(t *testing.T) *chess.Position {
	p := chess.NewPosition()
	var u chess.Undo
	p.MakeMove(mustMove(t, p, "e4"), &u)
	return p
}

// TestLevelNeedsChoosing is K2: one stray L cycled the level with a
// passing message, and with a clock the status line dropped the level.
func TestLevelNeedsChoosing(t *testing.T) {
	m := New(testRenderer(termenv.Ascii), &enginetest.Engine{}, Options{Level: 3, Clock: 3 * time.Minute, Increment: 2 * time.Second, Now: func() time.Time { return fixedNow }})
	defer m.Close()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if s := ansi.Strip(m.statusLine()); !strings.Contains(s, "level "+Levels[2].Name) || !strings.Contains(s, "3+2") {
		t.Errorf("status line with a clock: %q", s)
	}
	m = send(m, press("esc"), press("L"))
	if m.level != 2 {
		t.Fatalf("one L changed the level to %s", Levels[m.level].Name)
	}
	m = send(m, press("esc"))
	if m.level != 2 || m.dialog != nil {
		t.Fatalf("esc: level %d, dialog %T", m.level, m.dialog)
	}
}

// TestNewGameDialogRemembers is K3: after a 3+2 game the dialog offered no
// clock, and it showed Play as and Level for modes without an engine.
func TestNewGameDialogRemembers(t *testing.T) {
	m := New(testRenderer(termenv.Ascii), &enginetest.Engine{}, Options{Level: 5, Human: chess.Black, Clock: 3 * time.Minute, Increment: 2 * time.Second, Now: func() time.Time { return fixedNow }})
	defer m.Close()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("n"))
	v := ansi.Strip(m.View())
	for _, want := range []string{"‹ 3+2 ›", "‹ Black ›", "‹ " + Levels[4].Name + " ›"} {
		if !strings.Contains(v, want) {
			t.Errorf("the new-game dialog after a 3+2 game as Black at level 5 lacks %q:\n%s", want, v)
		}
	}
	// Human vs human: no colour, no level.
	m = send(m, press("right"), press("right"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "human vs human") || strings.Contains(v, "Play as") || strings.Contains(v, "Level ") {
		t.Errorf("human vs human shows fields it does not use:\n%s", v)
	}
}

// TestOpeningNamesAgree is W8: the panel said "C69 Ruy Lopez" while the
// PGN Squall wrote said "Ruy Lopez: Exchange Variation, Normal Variation",
// and saving a master game added an Opening tag nobody asked for.
func TestOpeningNamesAgree(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "f6")
	path := filepath.Join(t.TempDir(), "g.pgn")
	saveThroughModel(t, m, path)
	back, _ := openFile(path)
	name := back[0].Tag("ECO") + " " + back[0].Tag("Opening")
	panel := strings.Join(strings.Fields(panelText(m)), " ")
	if back[0].Tag("Opening") == "" || !strings.Contains(panel, name) {
		t.Errorf("saved as %q; the panel says:\n%s", name, panelText(m))
	}
	// Given a game, Squall adds no tag of its own.
	given := filepath.Join(t.TempDir(), "master.pgn")
	os.WriteFile(given, []byte("[White \"Lasker\"]\n[Black \"Capablanca\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 *\n"), 0o644)
	games, _ := openFile(given)
	m = newTestModel(t, Options{Games: games})
	m = send(m, press("right"), tea.KeyMsg{Type: tea.KeyCtrlS})
	m, cmd := typeIn(m, given)
	if m = runSave(t, m, cmd); !strings.Contains(m.message, "saved game 1 back into") {
		t.Fatalf("saving back: %q", m.message)
	}
	if b, _ := os.ReadFile(given); strings.Contains(string(b), "[Opening") || strings.Contains(string(b), "[ECO") {
		t.Errorf("saving a given game added tags:\n%s", b)
	}
}

// TestLowercasePieceLetters: "nf3" was refused as an illegal move.
func TestLowercasePieceLetters(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m, _ = typeMove(m, "nf3")
	if m.msgIsErr || m.cur.SAN != "Nf3" {
		t.Fatalf("nf3: %q, %q", m.cur.SAN, m.message)
	}
}

// TestTabCycles: tab completed to the first candidate and never cycled.
func TestTabCycles(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, press("N"))
	var seen []string
	for range 5 {
		m = send(m, press("tab"))
		seen = append(seen, m.input.Value())
	}
	if got := strings.Join(seen, " "); got != "Na3 Nc3 Nf3 Nh3 Na3" {
		t.Errorf("N, tab ×5: %q; want the four knight moves, round and round", got)
	}
	if !strings.Contains(m.message, "Na3") || !strings.Contains(m.message, "Nh3") {
		t.Errorf("the candidates are not listed: %q", m.message)
	}
}

// TestPasteIntoMoveBox: a FEN pasted into the move box was cut at 12
// characters and read as a move. Now it is recognised and offered; so is a
// game.
func TestPasteIntoMoveBox(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	fen := "8/8/8/8/8/1k6/8/K1q5 w - - 0 1"
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(fen), Paste: true})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Load position?") {
		t.Fatalf("a pasted FEN is not offered:\n%s", v)
	}
	m = send(m, press("y"))
	if m.pos.FEN() != fen || m.mode != Analysis {
		t.Fatalf("after yes: %s, mode %v", m.pos.FEN(), m.mode)
	}
	// Keys typed fast arrive together: they are typed where the cursor is,
	// never taken for a paste that replaces the line.
	m3 := newTestModel(t, Options{Mode: TwoHumans})
	m3 = send(m3, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("N")}, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f3")})
	if m3.input.Value() != "Nf3" || m3.dialog != nil {
		t.Errorf("N then f3 together: the move box holds %q, dialog %T", m3.input.Value(), m3.dialog)
	}
	// A game typed (not pasted) and entered is offered too.
	m2 := newTestModel(t, Options{Mode: TwoHumans})
	m2, _ = typeMove(m2, "1. e4 e5 2. Nf3 Nc6 *")
	if v := ansi.Strip(m2.View()); !strings.Contains(v, "Open game?") {
		t.Fatalf("a typed game is not offered:\n%s", v)
	}
	m2 = send(m2, press("y"))
	if countPlies(m2.tree) != 4 || m2.mode != Analysis {
		t.Fatalf("after yes: %d moves, mode %v", countPlies(m2.tree), m2.mode)
	}
}

// TestWatchSaysWhyNoMove: a move typed while watching did nothing, with no
// word (the engines' next move wiped the error at once).
func TestWatchSaysWhyNoMove(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m.mode = Watch
	m, _ = typeMove(m, "e4")
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	m.play(ml.Moves[0], false) // the engines move on
	if !m.msgIsErr || !strings.Contains(m.message, "the engines are playing") {
		t.Errorf("after the engines' move the message is %q", m.message)
	}
}

// TestPickerFits: the game picker was clipped at 80–110 columns (no right
// border), its width jumped while a search was typed, and ctrl+u did not
// clear the search.
func TestPickerFits(t *testing.T) {
	var text strings.Builder
	for i := range 30 {
		fmt.Fprintf(&text, "[White \"Player Number %d, Someone\"]\n[Black \"Another Long Name %d\"]\n[Event \"A Rather Long Tournament Name\"]\n[Date \"2024.01.%02d\"]\n\n1. e4 e5 *\n\n", i, i, i%28+1)
	}
	games, err := ReadPGN(strings.NewReader(text.String()), "many.pgn")
	if err != nil || len(games) != 30 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	for _, w := range []int{80, 100, 110, 140} {
		m := newTestModel(t, Options{Games: games})
		m = send(m, tea.WindowSizeMsg{Width: w, Height: 30})
		box := func() (int, bool) {
			lines := strings.Split(ansi.Strip(m.View()), "\n")
			for _, l := range lines {
				if n := ansi.StringWidth(l); n > w {
					return -1, false
				}
				if i := strings.Index(l, "╭"); i >= 0 {
					return ansi.StringWidth(l[i:]), strings.HasSuffix(strings.TrimRight(l, " "), "╮")
				}
			}
			return -1, false
		}
		before, ok := box()
		if !ok {
			t.Errorf("%d columns: the picker's box is clipped:\n%s", w, ansi.Strip(m.View()))
			continue
		}
		m = send(m, press("/"))
		for _, r := range "someone 1" {
			m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
		if after, _ := box(); after != before {
			t.Errorf("%d columns: the box went from %d to %d columns wide while typing", w, before, after)
		}
		m = send(m, tea.KeyMsg{Type: tea.KeyCtrlU})
		if d := m.dialog.(*pickerDialog); d.query != "" || len(d.shown) != 30 {
			t.Errorf("ctrl+u left the query %q", d.query)
		}
	}
}

// TestSmallScreens: at 40 columns the "too small" line was cut ("need
// 55×12, have 40×12 · q q…"), and the help at 60×20 was cut with no way to
// read the rest.
func TestSmallScreens(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, tea.WindowSizeMsg{Width: 40, Height: 12})
	v := ansi.Strip(m.View())
	if strings.Contains(v, "…") || !strings.Contains(strings.Join(strings.Fields(v), " "), "Enlarge the window, or q quits.") {
		t.Errorf("too small at 40×12:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("a line of %d columns at 40: %q", ansi.StringWidth(l), l)
		}
	}
	m = send(m, tea.WindowSizeMsg{Width: 60, Height: 20}, press("esc"), press("?"))
	seen := ansi.Strip(m.View())
	for range 40 {
		m = send(m, press("pgdown"))
		seen += ansi.Strip(m.View())
	}
	if !strings.Contains(seen, "analysis offered back at the next start") {
		t.Errorf("the end of the help cannot be reached at 60×20:\n%s", ansi.Strip(m.View()))
	}
	if _, open := m.dialog.(*helpDialog); !open {
		t.Error("scrolling closed the help")
	}
}

// TestCountMoves: moves are moves, not plies (W3's rule, for the board's
// own words: "91 moves" was said of a 46-move game).
func TestCountMoves(t *testing.T) {
	for _, c := range []struct {
		fen   string
		moves []string
		want  int
	}{
		{chess.StartFEN, nil, 0},
		{chess.StartFEN, []string{"e4"}, 1},
		{chess.StartFEN, []string{"e4", "e5"}, 1},
		{chess.StartFEN, []string{"e4", "e5", "Nf3"}, 2},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", []string{"e5", "Nf3"}, 2},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", []string{"e5"}, 1},
	} {
		m := newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, c.fen)})
		m = playAll(t, m, c.moves...)
		if got := countMoves(m.tree); got != c.want {
			t.Errorf("%s %v: %d moves, want %d", c.fen, c.moves, got, c.want)
		}
	}
}

// TestMateDepth: after a mate was found the panel said "depth 124/124", the
// depth the search raced to, not where the mate was found.
func TestMateDepth(t *testing.T) {
	m := newTestModel(t, Options{Mode: Analysis, Start: mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")})
	m.analysisOn = true
	ra8 := mustMove(t, m.pos, "Ra8#")
	m.panel.add(m.pos, engine.Info{Depth: 3, SelDepth: 4, Nodes: 900, MultiPV: 1, PV: []chess.Move{ra8}, Score: engine.Score{Mate: 1}})
	for d := 4; d <= 124; d++ {
		m.panel.add(m.pos, engine.Info{Depth: d, SelDepth: d, Nodes: uint64(900 + d), MultiPV: 1, PV: []chess.Move{ra8}, Score: engine.Score{Mate: 1}})
	}
	p := panelText(m)
	if strings.Contains(p, "124") || !strings.Contains(p, "depth 3/4") || !strings.Contains(p, "mate found") {
		t.Errorf("the panel after a mate in 1 found at depth 3:\n%s", p)
	}
}

// TestPromptFits: the one-line prompts (save, open, arrow or square) keep
// their box inside the panel — the save prompt ran past it at 100 columns
// (found in tmux: its key line was not wrapped, and a long file name it
// opened with was drawn whole, not scrolled to its end).
func TestPromptFits(t *testing.T) {
	const long = "/home/someone/chess/games/kasparov-deepblue-1997-annotated-again.pgn"
	trees, err := ReadPGN(strings.NewReader(annotateGame), long)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{80, 100, 110, 140} {
		for _, k := range []string{"s", "o", "A"} {
			m := newTestModel(t, Options{Games: trees})
			m = send(m, tea.WindowSizeMsg{Width: w, Height: 30}, press("esc"), press(k))
			if _, ok := m.dialog.(*promptDialog); !ok {
				t.Fatalf("%s opened %T", k, m.dialog)
			}
			lines := strings.Split(ansi.Strip(m.View()), "\n")
			clipped := true
			for _, l := range lines {
				if i := strings.Index(l, "╭"); i >= 0 {
					clipped = !strings.HasSuffix(strings.TrimRight(l, " "), "╮")
				}
			}
			if clipped {
				t.Errorf("%d columns, %s: the prompt's box is clipped:\n%s", w, k, strings.Join(lines, "\n"))
			}
			if v := strings.Join(lines, "\n"); k == "s" && !strings.Contains(v, "again.pgn") {
				t.Errorf("%d columns: the file name's end is not shown:\n%s", w, v)
			}
		}
	}
}
