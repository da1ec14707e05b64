package tui

import (
	"os"
	"path/filepath"
	"regexp"
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
	"github.com/squall-chess/squall/themes"
)

// TestGoldenReview reviews 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# with
// scripted scores: 3... Nf6 is the blunder, the move list shows the
// symbols, n jumps to it, and the eval graph and totals are drawn.
func TestGoldenReview(t *testing.T) {
	tree := NewTree(chess.NewPosition())
	n, p := tree.Root, chess.NewPosition()
	var u chess.Undo
	for _, s := range []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"} {
		m, err := p.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		n = tree.Play(n, p, m)
		p.MakeMove(m, &u)
	}
	tree.SetTag("White", "Scholar")
	tree.SetTag("Black", "Victim")
	tree.SetTag("Result", "1-0")
	// Each position's score (side to move's view, by the moves played)
	// and the first legal move.
	eng := &enginetest.Engine{Score: enginetest.ScoresByPly(map[int]engine.Score{
		0: {CP: 30}, 1: {CP: -30}, 2: {CP: 40}, // e4 e5: level
		3: {CP: 20},  // Qh5: +0.40 → -0.20 for White (inaccuracy)
		4: {CP: -10}, // Nc6
		5: {CP: 0},   // Bc4
		6: {Mate: 1}, // Nf6??: White mates in 1
	})}
	env := testEnv(eng)
	env.Tree = tree
	save := filepath.Join(t.TempDir(), "reviewed.pgn")
	v := NewReviewView(env, ReviewOptions{Limits: engine.Limits{Depth: 10}, SavePath: save}).(*reviewView)
	defer v.Close()
	// Deliver the background analysis' messages in order.
	for cmd := v.Init(); cmd != nil; {
		_, cmd = v.Update(cmd())
	}
	if v.err != nil || v.report == nil {
		t.Fatalf("review: %v", v.err)
	}
	v.Update(press("n"))
	v.Update(press("n"))
	if v.sel != 6 {
		t.Fatalf("n, n selected ply %d, want 6 (3... Nf6)", v.sel)
	}
	v.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	out := v.View(100, 30)
	golden(t, "review-blunder", out)
	if n := strings.Count(out, "\n") + 1; n != 30 {
		t.Errorf("review view is %d lines in a 30-line terminal", n)
	}
	plain := ansi.Strip(out)
	for _, want := range []string{"Qh5?!", "Nf6??", "Qxf7#", "Checkmate is now", "was 3... Ke7 4. Kd1", "White: 1?! 0? 0??",
		"Black: 0?! 0? 1??", "▲", "█", "eval #1"} {
		if !strings.Contains(plain, want) {
			t.Errorf("review view lacks %q:\n%s", want, plain)
		}
	}
	v.Update(press("s"))
	if !strings.Contains(v.msg, "saved") {
		t.Fatalf("save: %s", v.msg)
	}
	data, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	for g, err := range pgn.Games(strings.NewReader(string(data))) {
		if err != nil {
			t.Fatal(err)
		}
		line := g.Mainline()
		if len(line) != 7 || len(line[5].NAGs) != 1 || line[5].NAGs[0] != 4 || line[5].Commands == nil ||
			line[5].Commands.Eval.Kind != pgn.Mate || g.Tag("White") != "Scholar" || g.Result != "1-0" {
			t.Errorf("saved game:\n%s", data)
		}
	}
	if _, cmd := v.Update(press("esc")); cmd == nil || cmd() != CloseView() {
		t.Error("esc did not close the review")
	}
}

// TestReviewFromBoard opens the review with "r" from the board (its
// ViewEntry); closing the program's model stops the analysis.
func TestReviewFromBoard(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Hour} // never finishes: Close must stop it
	m := newTestModel(t, Options{Mode: TwoHumans, Views: []ViewEntry{ReviewViewEntry(ReviewOptions{Limits: engine.Limits{Depth: 3}})}})
	m.eng, m.search.runner = eng, live.New(eng)
	m = playAll(t, m, "e4", "e5")
	m = send(m, press("esc"), press("r"))
	if len(m.views) != 1 || !strings.Contains(ansi.Strip(m.View()), "analysing 0/3 positions") {
		t.Fatalf("r did not open the review:\n%s", ansi.Strip(m.View()))
	}
	m.Close()
	if eng.Active() != 0 {
		t.Error("the review's search still runs after Close")
	}
}

// TestReviewBestMoveOnBoard: the board of the review shows the engine's
// best move in the shown position (after 3... Nf6??, White's Qxf7#: h5 and
// f7, marked * on a board without colour), not the better choice of the
// position before (3... g6, whose squares belong to that position).
func TestReviewBestMoveOnBoard(t *testing.T) {
	tree := NewTree(chess.NewPosition())
	p := chess.NewPosition()
	n := tree.Root
	var u chess.Undo
	for _, s := range []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"} {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		n = tree.Play(n, p, m)
		p.MakeMove(m, &u)
	}
	eng := &enginetest.Engine{
		Best: func(g engine.Game, p *chess.Position) (chess.Move, error) {
			switch len(g.Moves) {
			case 5:
				return p.ParseMove("g6")
			case 6:
				return p.ParseMove("Qxf7#")
			}
			return chess.NullMove, nil
		},
		Score: enginetest.ScoresByPly(map[int]engine.Score{5: {CP: 0}, 6: {Mate: 1}}),
	}
	env := Env{Renderer: testRenderer(termenv.Ascii), Theme: themes.Monochrome(), Runner: live.New(eng), Tree: tree}
	v := NewReviewView(env, ReviewOptions{Limits: engine.Limits{Depth: 2}}).(*reviewView)
	defer v.Close()
	for cmd := v.Init(); cmd != nil; {
		_, cmd = v.Update(cmd())
	}
	v.sel = 6
	// The board's rank rows: "5 …" at the start of a line holding squares.
	rank := func(r string) string {
		re := regexp.MustCompile(`\s` + r + ` [. ]{2}.*$`)
		for _, l := range strings.Split(ansi.Strip(v.View(140, 40)), "\n") {
			if m := re.FindString(l); m != "" {
				return m
			}
		}
		return ""
	}
	if !strings.Contains(rank("5"), "*") || !strings.Contains(rank("7"), "*") {
		t.Errorf("Qxf7# is not marked on ranks 5 and 7:\n%s", ansi.Strip(v.View(140, 40)))
	}
	if strings.Contains(rank("6"), "*") {
		t.Errorf("the previous position's g6 is marked:\n%s", ansi.Strip(v.View(140, 40)))
	}
}

// TestViewWaitsForBoardSearch: a view's search starts only once the
// board's has returned, however slowly the engine stops: the board and its
// views share one Runner, since an engine runs one search at a time.
func TestViewWaitsForBoardSearch(t *testing.T) {
	eng := &enginetest.Engine{Tick: time.Millisecond, WaitForStop: true, Lag: 100 * time.Millisecond}
	m := New(testRenderer(termenv.Ascii), eng, Options{Mode: Analysis, Now: func() time.Time { return fixedNow },
		Views: []ViewEntry{ReviewViewEntry(ReviewOptions{Limits: engine.Limits{Depth: 2}})}})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = playAll(t, m, "e4", "e5")
	if !m.search.running {
		m = send(m, press("esc"), press("a"))
	}
	if !m.search.running || m.search.run.kind != searchAnalysis {
		t.Fatal("no analysis runs")
	}
	for deadline := time.Now().Add(patience); eng.Active() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the board's analysis never started")
		}
	}
	m = send(m, press("esc"), press("r"))
	if len(m.views) != 1 {
		t.Fatal("r did not open the review")
	}
	for deadline := time.Now().Add(patience); eng.Searches() < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the review's first search never started")
		}
	}
	m.Close()
	if err := eng.Misuse(); err != nil {
		t.Error(err)
	}
}
