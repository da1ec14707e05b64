package reviewview

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/internal/tuitest"
	"github.com/squall-chess/squall/tui/view"
)

// TestGoldenReview reviews 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# with
// scripted scores: 3... Nf6 is the blunder, the move list shows the
// symbols, n jumps to it, and the eval graph and totals are drawn.
func TestGoldenReview(t *testing.T) {
	tree := gameOf(t, "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
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
	env.PGN = tree
	save := filepath.Join(t.TempDir(), "reviewed.pgn")
	v := New(env, Options{Limits: engine.Limits{Depth: 10}, SavePath: save}).(*reviewView)
	defer v.Close()
	// Deliver the background analysis' messages in order.
	for cmd := v.Init(); cmd != nil; {
		_, cmd = v.Update(cmd())
	}
	if v.err != nil || v.report == nil {
		t.Fatalf("review: %v", v.err)
	}
	v.Update(tuitest.Press("n"))
	v.Update(tuitest.Press("n"))
	if v.sel != 6 {
		t.Fatalf("n, n selected ply %d, want 6 (3... Nf6)", v.sel)
	}
	v.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	out := v.View(100, 30)
	tuitest.Golden(t, goldenDir, "review-blunder", out)
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
	v.Update(tuitest.Press("s"))
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
	if _, cmd := v.Update(tuitest.Press("esc")); cmd == nil || cmd() != view.Close() {
		t.Error("esc did not close the review")
	}
}

// TestReviewBestMoveOnBoard: the board of the review shows the engine's
// best move in the shown position (after 3... Nf6??, White's Qxf7#: h5 and
// f7, marked * on a board without colour), not the better choice of the
// position before (3... g6, whose squares belong to that position).
func TestReviewBestMoveOnBoard(t *testing.T) {
	tree := gameOf(t, "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6")
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
	env := view.Env{Renderer: tuitest.Renderer(termenv.Ascii), Theme: themes.Monochrome(), Runner: live.New(eng), PGN: tree}
	v := New(env, Options{Limits: engine.Limits{Depth: 2}}).(*reviewView)
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

// gameOf is the game of the moves sans from the start position.
func gameOf(t *testing.T, sans ...string) *pgn.Game {
	t.Helper()
	g := pgn.NewGame()
	n, p := g.Root, chess.NewPosition()
	var u chess.Undo
	for _, s := range sans {
		m, err := p.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		n = n.AddChild(m, p.SAN(m))
		p.MakeMove(m, &u)
	}
	return g
}

// testEnv is the view's environment with a true-colour renderer and eng.
func testEnv(eng engine.Analyzer) view.Env {
	th, _ := themes.ByName(themes.Default)
	return view.Env{Renderer: tuitest.Renderer(termenv.TrueColor), Theme: th, Runner: live.New(eng)}
}

// goldenDir is taken at start: a test may change its working directory.
var goldenDir = tuitest.GoldenDir()

// analyse delivers the review's background analysis until it ends.
func analyse(t *testing.T, v *reviewView) {
	t.Helper()
	for cmd := v.Init(); cmd != nil; {
		_, cmd = v.Update(cmd())
	}
	if v.err != nil || v.report == nil {
		t.Fatalf("review: %v", v.err)
	}
}

// TestReviewListFollowsShownPly: the move list keeps the shown ply's move
// in view from the start. A game of 43 plies ends on White's move, and its
// last row's empty Black cell was taken for ply 0, so the start showed
// moves 13–22.
func TestReviewListFollowsShownPly(t *testing.T) {
	var sans []string
	for len(sans) < 43 {
		sans = append(sans, "Nf3", "Nf6", "Ng1", "Ng8")
	}
	env := testEnv(&enginetest.Engine{})
	env.PGN = gameOf(t, sans[:43]...)
	v := New(env, Options{Limits: engine.Limits{Depth: 1}}).(*reviewView)
	defer v.Close()
	analyse(t, v)
	v.Update(tuitest.Press("home"))
	out := v.View(100, 30)
	if plain := ansi.Strip(out); !strings.Contains(plain, "   1. Nf3") || strings.Contains(plain, "  22. Nf3") {
		t.Errorf("at the start the list does not show move 1:\n%s", plain)
	}
	for sel := 0; sel <= 43; sel++ {
		v.sel = sel
		row := max(1, (sel+1)/2) // the move number of ply sel's row
		if plain := ansi.Strip(v.View(100, 30)); !strings.Contains(plain, fmt.Sprintf("%4d. ", row)) {
			t.Fatalf("ply %d: the list does not show move %d:\n%s", sel, row, plain)
		}
	}
	tuitest.Golden(t, goldenDir, "review-start", out)
}

// TestReviewTotalsNoMoves: a side that made no move has no ACPL and no
// accuracy (—), not a perfect 0 and a hopeless 0%.
func TestReviewTotalsNoMoves(t *testing.T) {
	env := testEnv(&enginetest.Engine{})
	env.PGN = gameOf(t, "e4")
	v := New(env, Options{Limits: engine.Limits{Depth: 1}}).(*reviewView)
	defer v.Close()
	analyse(t, v)
	plain := ansi.Strip(v.View(100, 30))
	if !strings.Contains(plain, "Black: 0?! 0? 0?? · ACPL — · accuracy —") || !regexp.MustCompile(`White: 0\?! 0\? 0\?\? · ACPL \d+ · accuracy \d+%`).MatchString(plain) {
		t.Errorf("totals of 1. e4:\n%s", plain)
	}
}

// TestReviewFitsEightyColumns: at 80×24 the totals ran off the screen
// ("ACPL 12 · accu…"); every line of the view fits the width.
func TestReviewFitsEightyColumns(t *testing.T) {
	tree := gameOf(t, "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
	env := testEnv(&enginetest.Engine{})
	env.PGN = tree
	v := New(env, Options{Limits: engine.Limits{Depth: 2}}).(*reviewView)
	defer v.Close()
	for cmd := v.Init(); cmd != nil; {
		_, cmd = v.Update(cmd())
	}
	if v.report == nil {
		t.Fatalf("review: %v", v.err)
	}
	out := ansi.Strip(v.View(80, 24))
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "…") || ansi.StringWidth(l) > 80 {
			t.Errorf("cut or too wide at 80 columns: %q", l)
		}
	}
	if !strings.Contains(out, "White ") || !strings.Contains(out, "Black ") {
		t.Errorf("no totals:\n%s", out)
	}
}
