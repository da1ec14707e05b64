package tui

import (
	"regexp"
	"strconv"
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
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/livecmd"
)

func mustFEN(t *testing.T, fen string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func playAll(t *testing.T, m Model, moves ...string) Model {
	t.Helper()
	for _, mv := range moves {
		m, _ = typeMove(m, mv)
		if m.msgIsErr {
			t.Fatalf("move %s: %s", mv, m.message)
		}
	}
	return m
}

func TestGoldenStart(t *testing.T) {
	m := New(testRenderer(termenv.TrueColor), &enginetest.Engine{}, Options{Now: func() time.Time { return fixedNow }})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	v := m.View()
	golden(t, "start-80x24", v)
	plain := ansi.Strip(v)
	for _, want := range []string{"♚", "♛", "●", "a    b", "move>", "White to move", "Fake 1.0"} {
		if !strings.Contains(plain, want) {
			t.Errorf("start view lacks %q", want)
		}
	}
	if strings.ContainsRune(plain, '♟') {
		t.Error("view uses U+265F")
	}
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	golden(t, "start-120x40", m.View())
	if g, _ := m.geometry(); g.w != 7 || g.h != 3 {
		t.Errorf("120x40 squares %dx%d, want 7x3", g.w, g.h)
	}
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if g, _ := m.geometry(); g.w != 5 || g.h != 2 {
		t.Errorf("80x24 squares %dx%d, want 5x2", g.w, g.h)
	}
	for _, v := range []string{m.View()} {
		for i, line := range strings.Split(v, "\n") {
			if w := ansi.StringWidth(line); w > 80 {
				t.Errorf("line %d is %d wide", i, w)
			}
		}
		if n := strings.Count(v, "\n") + 1; n != 24 {
			t.Errorf("view has %d lines, want 24", n)
		}
	}
}

func TestGoldenAfterE4E5(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4", "e5")
	golden(t, "e4-e5", m.View())
	plain := ansi.Strip(m.View())
	if !strings.Contains(plain, "1. e4") || !strings.Contains(plain, "e5") {
		t.Fatalf("move list lacks 1. e4 e5:\n%s", plain)
	}
	if m.pos.FEN() != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" {
		t.Fatalf("position %s", m.pos.FEN())
	}
}

func TestGoldenAnalysis3PV(t *testing.T) {
	f := &enginetest.Engine{Tick: time.Hour}
	m := New(testRenderer(termenv.TrueColor), f, Options{Mode: Analysis, MultiPV: 3, Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40}, startMsg{}) // --mode analysis analyses from the start
	// Each position gets the fake engine's depth 12 before the next move,
	// as the teatest scene waits for it: the eval graph has every ply's
	// score, the same in both paths whatever the machine's speed.
	depth12 := func(m Model) Model {
		t.Helper()
		if !m.search.running() || m.search.kind() != searchAnalysis || m.search.run.multi != 3 {
			t.Fatalf("no 3-line analysis of %s", m.pos.FEN())
		}
		var infos []engine.Info
		var ml chess.MoveList
		m.pos.GenerateLegal(&ml)
		for k := 0; k < 3; k++ {
			infos = append(infos, enginetest.Line(m.pos, ml.Moves[k], 12, k))
		}
		return send(m, livecmd.Msg{Batch: live.Batch{Gen: m.search.gen(), Infos: infos}})
	}
	m = depth12(m)
	for _, mv := range []string{"e4", "e5"} {
		m = depth12(playAll(t, m, mv))
	}
	m = playAll(t, m, "Nf3")
	m = depth12(send(m, press("esc")))
	v := m.View()
	golden(t, "analysis-3pv", v)
	plain := ansi.Strip(v)
	// Black to move: engine scores (+1.20, +1.00, +0.80 for Black) are shown
	// from White's view.
	for _, want := range []string{"depth 12/15", "148k nodes", "-1.20", "-1.00", "-0.80", "2… "} {
		if !strings.Contains(plain, want) {
			t.Errorf("analysis view lacks %q:\n%s", want, plain)
		}
	}
	m = send(m, press("v"))
	if !strings.Contains(ansi.Strip(m.View()), "+1.20") {
		t.Error("score view toggle (v) did not show side-to-move scores")
	}
}

func TestGoldenPromotionPicker(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans, Start: mustFEN(t, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")})
	m, _ = typeMove(m, "e8")
	if _, ok := m.dialog.(*promotionDialog); !ok {
		t.Fatalf("typing e8 opened no promotion picker (message %q)", m.message)
	}
	golden(t, "promotion", m.View())
	m = send(m, press("n"))
	if m.cur.SAN != "e8=N+" {
		t.Fatalf("picked knight, played %q", m.cur.SAN)
	}
	// By selection: pick the pawn and drop it on e8 also asks.
	m = newTestModel(t, Options{Mode: TwoHumans, Start: mustFEN(t, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")})
	m.clickSquare(chess.MakeSquare(4, 6))
	m.clickSquare(chess.MakeSquare(4, 7))
	if _, ok := m.dialog.(*promotionDialog); !ok || m.cur.Parent != nil {
		t.Fatal("drop on the last rank did not open the picker")
	}
	m = send(m, press("esc"))
	if m.dialog != nil || m.cur.Parent != nil {
		t.Fatal("esc did not cancel the promotion")
	}
}

func TestGoldenMate(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "f3", "e5", "g4", "Qh4#")
	if over, banner := m.Over(); !over || banner != "Checkmate · Black wins" || m.tree.Result != "0-1" {
		t.Fatalf("over=%v banner=%q result=%s", over, banner, m.tree.Result)
	}
	golden(t, "mate", m.View())
	m, _ = typeMove(m, "a3")
	if !m.msgIsErr {
		t.Fatal("a move after mate was accepted")
	}
}

func TestGoldenTooSmall(t *testing.T) {
	m := newTestModel(t, Options{})
	m = send(m, tea.WindowSizeMsg{Width: 50, Height: 30})
	v := m.View()
	golden(t, "too-small", v)
	if !strings.Contains(v, "Too small: the board needs 55×12") || strings.Contains(v, "♚") {
		t.Fatalf("small view: %q", v)
	}
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 11})
	if !strings.Contains(m.View(), "Too small") {
		t.Fatal("11 rows not reported as too small")
	}
	// q quits from the too-small screen (it was typed into the hidden
	// move box).
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if cmd == nil || cmd() != tea.Quit() {
		t.Error("q on the too-small screen does not quit")
	}
}

// TestGoldenCompact is issue 18's small terminals: a terminal narrower
// than 80 columns (a 60-column tmux split) got only "terminal too small";
// it gets the board in its smallest squares with a narrow panel, every line
// within the width.
func TestGoldenCompact(t *testing.T) {
	for _, board := range []string{"auto", "small"} {
		m := newTestModel(t, Options{Mode: TwoHumans, Board: board})
		m = send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
		m = playAll(t, m, "e4", "e5")
		v := m.View()
		if board == "auto" {
			golden(t, "compact-60x20", v)
		}
		plain := ansi.Strip(v)
		if strings.Contains(plain, "too small") || !strings.Contains(plain, "♚") || !strings.Contains(plain, "move>") {
			t.Fatalf("--board %s at 60×20:\n%s", board, plain)
		}
		lines := strings.Split(plain, "\n")
		if len(lines) != 20 {
			t.Errorf("%d lines at 60×20", len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 60 {
				t.Errorf("a line of %d columns at 60: %q", w, l)
			}
		}
	}
}

func TestGoldenLetters(t *testing.T) {
	m := newTestModel(t, Options{Letters: true, Mode: TwoHumans})
	m = playAll(t, m, "e4")
	v := ansi.Strip(m.View())
	golden(t, "letters", m.View())
	if strings.ContainsAny(v, "♚♛♜♝♞●") || !strings.Contains(v, "K") || !strings.Contains(v, "N") {
		t.Fatalf("letters view:\n%s", v)
	}
}

func TestGoldenThemes(t *testing.T) {
	for _, th := range themes.Builtin() {
		t.Run(th.Name, func(t *testing.T) {
			m := newTestModel(t, Options{Theme: th, Mode: TwoHumans})
			m = playAll(t, m, "e4", "e5")
			m = send(m, press("esc"))
			m.clickSquare(chess.MakeSquare(6, 0)) // select Ng1: shows its targets
			v := m.View()
			golden(t, "theme-"+th.Name, v)
			if th.Monochrome {
				if strings.Contains(v, "\x1b[") && strings.Contains(v, ";2;") {
					t.Error("monochrome theme emits true-colour codes")
				}
				if !strings.Contains(ansi.Strip(v), "n") {
					t.Error("monochrome does not use letters")
				}
			} else if !drawsBackground(v, string(th.Dark)) || !drawsBackground(v, string(th.Light)) {
				t.Errorf("theme %s: square colours %s/%s not drawn", th.Name, th.Light, th.Dark)
			}
		})
	}
}

// drawsBackground reports whether v sets the true-colour background h
// ("#rrggbb"), allowing the off-by-one rounding of the colour conversion.
func drawsBackground(v, h string) bool {
	want, _ := strconv.ParseUint(h[1:], 16, 32)
	for _, m := range bgSeq.FindAllStringSubmatch(v, -1) {
		ok := true
		for i, shift := range []int{16, 8, 0} {
			got, _ := strconv.Atoi(m[i+1])
			if d := got - int(want>>shift&0xff); d < -1 || d > 1 {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

var bgSeq = regexp.MustCompile(`48;2;(\d+);(\d+);(\d+)`)

// TestBestMoveOnBoard: with analysis on, the best line's first move is
// shown on the board (its squares in the hint colour, and marked with * on
// a board without colours), as lichess draws its arrow.
func TestBestMoveOnBoard(t *testing.T) {
	m := newTestModel(t, Options{Mode: Analysis, Theme: themes.Monochrome(), NoColor: true})
	m.analysisOn = true
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	best := ml.Moves[0]
	for _, mv := range ml.Slice() {
		if mv.UCI(false) == "g1f3" {
			best = mv
		}
	}
	m.panel.add(m.pos, engine.Info{Depth: 5, MultiPV: 1, Nodes: 10, PV: []chess.Move{best}})
	v := ansi.Strip(m.View())
	if strings.Count(v, "*") < 4 {
		t.Errorf("the best move g1f3 is not marked on the monochrome board:\n%s", v)
	}
	m.analysisOn = false
	if v := ansi.Strip(m.View()); strings.Count(v, "*") != 0 {
		t.Errorf("the best move is still marked with analysis off:\n%s", v)
	}
}
