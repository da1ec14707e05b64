package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
)

// targetFEN is issue 36's acceptance 2: built from an empty board.
const targetFEN = "8/8/8/4k3/8/8/4K3/4R3 w - - 0 1"

// keys counts the key presses of a sequence typed into the board.
type keys struct {
	m Model
	n int
}

func (k *keys) typ(s string) {
	for _, r := range s {
		k.press(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func (k *keys) press(msg tea.KeyMsg) {
	k.m = send(k.m, msg)
	k.n++
}

// TestSetupFewestKeys: from an empty board the editor builds the target
// in ten keys (Ke2 ke5 Re1, each taking effect as its square is typed,
// and Enter to analyse it), refusing an illegal one on the way with its
// reason; E opens it from the move box, clear empties the board.
func TestSetupFewestKeys(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	k := &keys{m: send(m, tea.WindowSizeMsg{Width: 100, Height: 30})}
	k.typ("E") // from the empty move box: no move begins with E
	if _, ok := k.m.dialog.(*setupDialog); !ok {
		t.Fatalf("E opened %T, want the editor", k.m.dialog)
	}
	k.typ("c")
	k.press(press("enter"))
	d := k.m.dialog.(*setupDialog)
	if d.s != chess.EmptySetup() {
		t.Fatalf("clear left %s", d.s.FEN())
	}

	k.n = 0 // from the empty board
	k.typ("Ke2ke3")
	if says := editorSays(k.m); !strings.Contains(says, "✗ the kings stand side by side (e2 and e3)") {
		t.Errorf("kings side by side not refused:\n%s", says)
	}
	k.press(press("enter"))
	if _, ok := k.m.dialog.(*setupDialog); !ok {
		t.Fatal("enter on an illegal position closed the editor")
	}
	if says := editorSays(k.m); !strings.Contains(says, "cannot start from it: the kings stand side by side") {
		t.Errorf("enter on an illegal position says nothing:\n%s", says)
	}
	// Shown on the board as it is set up: the two kings, side by side.
	if n := strings.Count(ansi.Strip(k.m.View()), "♚"); n != 2 {
		t.Errorf("%d kings drawn, want 2:\n%s", n, ansi.Strip(k.m.View()))
	}
	k.typ("e3")

	k.n = 0
	k.typ("Ke2ke5Re1")
	k.press(press("enter"))
	if k.n != 10 {
		t.Errorf("%d keys, want 10", k.n)
	}
	if k.m.dialog != nil {
		t.Fatalf("editor still open: %s", ansi.Strip(k.m.View()))
	}
	if got := k.m.pos.FEN(); got != targetFEN {
		t.Errorf("set up %s, want %s", got, targetFEN)
	}
	if k.m.mode != Analysis || !k.m.analysisOn {
		t.Errorf("mode %v, analysis %v: want analysing", k.m.mode, k.m.analysisOn)
	}
}

// editorSays is the open editor's text, on lines wide enough not to wrap.
func editorSays(m Model) string {
	d, ok := m.dialog.(*setupDialog)
	if !ok {
		return fmt.Sprintf("(no editor: %T)", m.dialog)
	}
	return ansi.Strip(d.view(m.st, 300))
}

// TestSetupCommands: every word of the editor's grammar, and the rules
// named when the position breaks them.
func TestSetupCommands(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, press("esc"), press("E"))
	d := m.dialog.(*setupDialog)
	if d.s.FEN() != chess.StartFEN {
		t.Fatalf("the editor opens on %s, want the shown position", d.s.FEN())
	}
	steps := []struct {
		typed, fen, says string
	}{
		{"xe2", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "✓ legal"},
		{"Pe4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "✓ legal"},
		{"b\n", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "✓ legal"},
		{"ep e3\n", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "✓ legal"},
		{"ep f3\n", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq f3 0 1", "not behind a white pawn"},
		{"ep -\n-h1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1 b KQkq - 0 1", "no white rook to castle with"},
		{"Qkq\n", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1 b Qkq - 0 1", "✓ legal"},
		{"xe4Ba1", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/BNBQKBN1 b Qkq - 0 1", "no white rook to castle with"},
		{"-\n", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/BNBQKBN1 b - - 0 1", "✓ legal"},
		{"Pa1", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/PNBQKBN1 b - - 0 1", "pawn on the first or last rank"},
		{"start\nxe8", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "black has 0 kings"},
		{"clear\nKe1ke8Qe7", "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "the side not to move (black) is in check"},
		{"\t", "4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1", "✓ legal"},
		{"w\n518\n", chess.StartFEN, "✓ legal"},
		{"0\n", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", "✓ legal"},
		{"8/8/8/4k3/8/8/4K3/4R3 w - - 0 1\n", targetFEN, "✓ legal"},
	}
	for _, s := range steps {
		for _, r := range s.typed {
			switch r {
			case '\n':
				m = send(m, press("enter"))
			case '\t':
				m = send(m, press("tab"))
			default:
				m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		}
		d, ok := m.dialog.(*setupDialog)
		if !ok {
			t.Fatalf("after %q the editor closed", s.typed)
		}
		if got := d.s.FEN(); got != s.fen {
			t.Errorf("after %q: %s, want %s", s.typed, got, s.fen)
		}
		if says := editorSays(m); !strings.Contains(says, s.says) {
			t.Errorf("after %q the editor does not say %q:\n%s", s.typed, s.says, says)
		}
	}
	m = typeText(m, "zz")
	m = send(m, press("enter"))
	if says := editorSays(m); !strings.Contains(says, `"zz": not a command`) {
		t.Errorf("zz taken silently:\n%s", says)
	}
	m = send(m, press("esc"))
	if m.dialog != nil || m.pos.FEN() != chess.StartFEN {
		t.Errorf("esc: dialog %T, position %s", m.dialog, m.pos.FEN())
	}
}

// TestSetupTypedFast: keys that arrive together (typed fast, as tmux
// send-keys delivers them, or pasted) are each taken as if typed alone —
// a burst of Ke2ke5Re1 was one word the editor did not know.
func TestSetupTypedFast(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, press("esc"), press("E"))
	m, _ = typeMove(m, "clear")
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Ke2 ke5Re1")})
	if got := m.dialog.(*setupDialog).s.FEN(); got != targetFEN {
		t.Errorf("burst set up %s, want %s", got, targetFEN)
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Paste: true}, press("enter"))
	if got := m.dialog.(*setupDialog).s.Side; got != chess.Black {
		t.Errorf("pasted b: %v to move", got)
	}
	// A FEN pasted is set up at once.
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" " + chess.StartFEN + "\n"), Paste: true})
	if got := m.dialog.(*setupDialog).s.FEN(); got != chess.StartFEN {
		t.Errorf("pasted the start FEN: %s", got)
	}
}

// TestSetupClicks: a click on a square types its name: K and a click puts
// a king there, a click alone empties the square.
func TestSetupClicks(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("E"))
	g, _ := m.geometry()
	at := func(s chess.Square) tea.MouseMsg { // the middle of s, White at the bottom
		return tea.MouseMsg{X: g.x0 + s.File()*g.w + g.w/2, Y: g.y0 + (7-s.Rank())*g.h + g.h/2,
			Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
	}
	m = send(m, at(chess.E1)) // empties e1
	m = typeText(m, "k")
	m = send(m, at(chess.MakeSquare(3, 3))) // kd4
	if got := m.dialog.(*setupDialog).s.FEN(); got != "rnbqkbnr/pppppppp/8/8/3k4/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1" {
		t.Errorf("after the clicks: %s", got)
	}
}

// TestSetupPlay: play opens the new-game dialog on the position set up,
// and the game starts from it.
func TestSetupPlay(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, press("esc"), press("E"))
	m, _ = typeMove(m, "clear")
	m = typeText(m, "Ke2ke5Re1")
	m, _ = typeMove(m, "play")
	if _, ok := m.dialog.(*newGameDialog); !ok {
		t.Fatalf("play opened %T, want the new-game dialog", m.dialog)
	}
	if plain := ansi.Strip(m.View()); !strings.Contains(plain, "set up (E)") {
		t.Errorf("the new-game dialog does not start from the position set up:\n%s", plain)
	}
	m = send(m, press("enter"))
	if got := m.tree.Start.FEN(); got != targetFEN {
		t.Errorf("game from %s, want %s", got, targetFEN)
	}
}

// TestTeatestSetupAndAnalyse is acceptance 2 as a user does it: E, clear,
// a position refused with its reason, the target in ten keys, analysed.
func TestTeatestSetupAndAnalyse(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Millisecond, MaxDepth: 8}
	m := New(testRenderer(termenv.TrueColor), eng, Options{Mode: TwoHumans, MultiPV: 1, Now: func() time.Time { return fixedNow }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitScreen(t, tm, regexp.MustCompile(`move>`))
	tm.Type("E")
	waitScreen(t, tm, regexp.MustCompile(`Set up a position`))
	tm.Type("c")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Type("Ke2ke3")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitScreen(t, tm, regexp.MustCompile(`cannot start from it: the kings`))
	tm.Type("e3ke5Re1")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitScreen(t, tm, regexp.MustCompile(`depth 8/`))
	quitProgram(tm)
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(patience)).(Model)
	fm.Close()
	if got := fm.pos.FEN(); got != targetFEN {
		t.Errorf("analysing %s, want %s", got, targetFEN)
	}
	waitGoroutines(t)
}

// TestNewGameChess960: the new-game dialog's Start row takes a Chess960
// number typed digit by digit; the game starts from that position, is
// saved as a Chess960 game, and the engine is given it as one (its
// Chess960() is what the UCI client sets UCI_Chess960 by).
func TestNewGameChess960(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = send(m, press("esc"), press("n"), press("down"), press("right"))
	m = typeText(m, "959")
	d, ok := m.dialog.(*newGameDialog)
	if !ok {
		t.Fatalf("n opened %T", m.dialog)
	}
	if says := ansi.Strip(d.view(m.st, 100)); !strings.Contains(says, "Chess960 #959") || !strings.Contains(says, "type 0-959") {
		t.Errorf("Start row:\n%s", says)
	}
	m = send(m, press("enter"))
	if got := m.tree.Start.FEN(); !strings.HasPrefix(got, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w ") {
		t.Errorf("game from %s, want Chess960 #959", got)
	}
	if g := m.tree.EngineGame(m.cur); !g.Start.Chess960() {
		t.Error("the engine is not given a Chess960 game")
	}
	if pgnText := m.tree.Export().String(); !strings.Contains(pgnText, `[Variant "Chess960"]`) {
		t.Errorf("saved without the variant:\n%s", pgnText)
	}
	// Digits typed fast arrive together.
	m = send(m, press("esc"), press("n"), press("down"))
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("518")})
	if says := ansi.Strip(m.dialog.view(m.st, 100)); !strings.Contains(says, "Chess960 #518") {
		t.Errorf("518 typed at once:\n%s", says)
	}
	m = send(m, press("esc"))
	// The next game starts where this one did, as the clock is kept.
	m = send(m, press("esc"), press("n"))
	if says := ansi.Strip(m.dialog.view(m.st, 100)); !strings.Contains(says, "Chess960 #959") {
		t.Errorf("the dialog forgot the start:\n%s", says)
	}
}
