package reviewview

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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
	analyse(t, v)
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
	analyse(t, v)
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

// analyse delivers the review's background analysis until it ends, and
// returns what it told the board.
func analyse(t *testing.T, v *reviewView) []view.ScoredMsg {
	t.Helper()
	scored := deliver(t, v, v.Init())
	if v.err != nil || v.report == nil {
		t.Fatalf("review: %v", v.err)
	}
	return scored
}

// deliver runs cmd and the commands its messages lead to (tuitest.Run),
// and returns the messages meant for the board.
func deliver(t *testing.T, v *reviewView, cmd tea.Cmd) []view.ScoredMsg {
	t.Helper()
	var scored []view.ScoredMsg
	tuitest.Run(t, cmd, func(msg tea.Msg) tea.Cmd {
		if s, ok := msg.(view.ScoredMsg); ok {
			scored = append(scored, s)
			return nil
		}
		_, next := v.Update(msg)
		return next
	})
	return scored
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
	analyse(t, v)
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

// trapScores are the Blackburne Shilling trap's evaluations, White's
// view, by ply: level, then 4... Qg5 is met by 5. Nxf7?? and Black wins.
var trapScores = []int{20, 30, 25, 20, 30, 20, 90, -10, 250, -350, -400, -620, -700, -900}

// trapReview is the review of the trap, analysed with trapScores.
func trapReview(t *testing.T, env view.Env) *reviewView {
	t.Helper()
	sans := strings.Fields("e4 e5 Nf3 Nc6 Bc4 Nd4 Nxe5 Qg5 Nxf7 Qxg2 Rf1 Qxe4+ Be2 Nf3#")
	scores := map[int]engine.Score{}
	for ply, cp := range trapScores {
		if ply%2 == 1 {
			cp = -cp // the side to move's view
		}
		scores[ply] = engine.Score{CP: cp}
	}
	env.Runner = live.New(&enginetest.Engine{Score: enginetest.ScoresByPly(scores)})
	env.PGN = gameOf(t, sans...)
	v := New(env, Options{Limits: engine.Limits{Depth: 8}}).(*reviewView)
	t.Cleanup(v.Close)
	analyse(t, v)
	return v
}

// TestGoldenReviewEvalGraph is issue 36's acceptance 5 on the review: the
// eval graph (tui/evalgraph, the board's too) at 100×30 and 160×50, J
// having stepped to the biggest swing, 5. Nxf7 (+2.50 → −3.50), which is
// marked.
func TestGoldenReviewEvalGraph(t *testing.T) {
	v := trapReview(t, testEnv(nil))
	v.Update(tuitest.Press("J"))
	if v.sel != 9 {
		t.Fatalf("J showed ply %d, want 9 (5. Nxf7)", v.sel)
	}
	for _, size := range [][2]int{{100, 30}, {160, 50}} {
		out := v.View(size[0], size[1])
		tuitest.Golden(t, goldenDir, fmt.Sprintf("evalgraph-%dx%d", size[0], size[1]), out)
		plain := ansi.Strip(out)
		if n := strings.Count(out, "\n") + 1; n != size[1] {
			t.Errorf("%v: %d lines", size, n)
		}
		if !strings.Contains(plain, "Eval per ply") || !strings.Contains(plain, "▲") {
			t.Errorf("%v: no graph:\n%s", size, plain)
		}
	}
}

// TestReviewSwings: J steps through the swings of the eval, biggest
// first, round again after the last.
func TestReviewSwings(t *testing.T) {
	v := trapReview(t, testEnv(nil))
	var seen []int
	for range 4 {
		v.Update(tuitest.Press("J"))
		seen = append(seen, v.sel)
	}
	// Nxf7 (+2.50 → −3.50), Qg5 (−0.10 → +2.50), Qxg2, Nd4 …
	if seen[0] != 9 || seen[1] != 8 || seen[0] == seen[2] || seen[2] == seen[3] {
		t.Errorf("J showed plies %v", seen)
	}
}

// TestReviewTellsBoard: each position's evaluation goes to the board
// (view.ScoredMsg) for the node of its tree, the start's for the root; the
// mate, a finished game, has none to tell.
func TestReviewTellsBoard(t *testing.T) {
	env := testEnv(&enginetest.Engine{Score: enginetest.ScoresByPly(map[int]engine.Score{1: {CP: -40}})})
	env.PGN = gameOf(t, "f3", "e5", "g4", "Qh4#")
	v := New(env, Options{Limits: engine.Limits{Depth: 2}}).(*reviewView)
	defer v.Close()
	scored := analyse(t, v)
	nodes := append([]*pgn.Node{env.PGN.Root}, env.PGN.Mainline()...)
	if len(scored) != 4 {
		t.Fatalf("%d evaluations told, want 4 (the mate has none)", len(scored))
	}
	for i, s := range scored {
		if s.Node != nodes[i] {
			t.Errorf("evaluation %d is of another node", i)
		}
	}
	if e := scored[1].Eval; e.Kind != pgn.Centipawns || e.Value != 40 || e.Depth != 2 {
		t.Errorf("after 1. f3: %+v, want +0.40 (White's view) at depth 2", e)
	}
}

// TestParseLimits: the review's prompt takes a depth, nodes or a time,
// and refuses the rest with the reason.
func TestParseLimits(t *testing.T) {
	for in, want := range map[string]engine.Limits{
		"depth 12": {Depth: 12}, "d7": {Depth: 7}, " D 3 ": {Depth: 3},
		"nodes 100000": {Nodes: 100000}, "n500": {Nodes: 500},
		"0.5s": {MoveTime: 500 * time.Millisecond}, "200ms": {MoveTime: 200 * time.Millisecond},
		"2": {MoveTime: 2 * time.Second}, "movetime 1s": {MoveTime: time.Second},
	} {
		got, err := parseLimits(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseLimits(%q) = %v, %v; want %v", in, got, err, want)
		}
		if back, err := parseLimits(limitsText(want)); err != nil || !reflect.DeepEqual(back, want) {
			t.Errorf("%v does not read back: %v %v", want, back, err)
		}
	}
	for _, in := range []string{"", "depth", "depth 0", "depth 500", "d-1", "nodes x", "0s", "2h", "fast"} {
		if got, err := parseLimits(in); err == nil {
			t.Errorf("parseLimits(%q) = %v, want an error", in, got)
		}
	}
}

// TestReviewAsks: with Ask the review waits for enter, offering the last
// limits chosen; esc goes back without a search.
func TestReviewAsks(t *testing.T) {
	eng := &enginetest.Engine{}
	env := testEnv(eng)
	env.PGN = gameOf(t, "e4")
	last := engine.Limits{Depth: 5}
	v := New(env, Options{Limits: engine.Limits{Depth: 1}, Ask: &last}).(*reviewView)
	defer v.Close()
	if cmd := v.Init(); cmd != nil || eng.Searches() != 0 {
		t.Fatal("the review searched before it was asked to")
	}
	if plain := ansi.Strip(v.View(100, 30)); !strings.Contains(plain, "each position: depth 5") {
		t.Fatalf("no prompt offering depth 5:\n%s", plain)
	}
	if _, cmd := v.Update(tuitest.Press("esc")); cmd == nil || cmd() != view.Close() || eng.Searches() != 0 {
		t.Error("esc did not go back, or searched")
	}
}

// learnEngine reviews 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#, whose
// 3... g6 is the engine's best: after 3... Qe7 Black is fine, after 3...
// a6 mated as after Nf6.
func learnEngine() *enginetest.Engine {
	return &enginetest.Engine{
		Best: enginetest.MovesByPly(map[int]string{5: "g6"}),
		Score: func(g engine.Game, _, _ int) engine.Score {
			if len(g.Moves) != 6 {
				return engine.Score{}
			}
			switch g.Moves[5].UCI(false) {
			case "g8f6", "a7a6":
				return engine.Score{Mate: 1}
			}
			return engine.Score{CP: 10}
		},
	}
}

// TestLearnFromMistakes: F shows the player's blunder (the position
// before it, the engine's move not drawn) and asks for a better move; the
// move played, an illegal one, a worse one (searched at the review's
// depth, then judged), another as good as the best and the best itself
// each get their verdict, and after a try the engine's line is shown; esc
// stops.
func TestLearnFromMistakes(t *testing.T) {
	eng := learnEngine()
	env := testEnv(eng)
	env.PGN = gameOf(t, "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
	v := New(env, Options{Limits: engine.Limits{Depth: 6}}).(*reviewView)
	defer v.Close()
	analyse(t, v)
	v.Update(tuitest.Press("F"))
	if v.learn == nil || v.sel != 5 || v.learn.showsBest() {
		t.Fatalf("F: learning %v at ply %d", v.learn != nil, v.sel)
	}
	plain := ansi.Strip(v.View(120, 40))
	if !strings.Contains(plain, "3… Nf6?? was a blunder (1 of 1): find a") || !strings.Contains(plain, "for Black") ||
		strings.Contains(plain, "Best was") {
		t.Fatalf("F does not ask, or gives the answer away:\n%s", plain)
	}
	try := func(move string) string {
		t.Helper()
		for _, r := range move {
			v.Update(tuitest.Press(string(r)))
		}
		_, cmd := v.Update(tuitest.Press("enter"))
		deliver(t, v, cmd)
		return v.learn.verdict
	}
	searches := eng.Searches()
	if got := try("Nf6"); !strings.Contains(got, "Nf6 is the move played") || v.learn.tried {
		t.Errorf("the move played: %q", got)
	}
	if got := try("Ke3"); !strings.Contains(got, "not a legal move") {
		t.Errorf("an illegal move: %q", got)
	}
	if eng.Searches() != searches {
		t.Error("searched a move it needs not search")
	}
	if got := try("a6"); !strings.Contains(got, "✗ a6: #1, a blunder too") || !v.learn.tried {
		t.Errorf("a worse move: %q", got)
	}
	if lim := eng.Limits(); eng.Searches() != searches+1 || lim[len(lim)-1].Depth != 6 {
		t.Errorf("the try was not searched at the review's depth: %v", lim[len(lim)-1])
	}
	for _, size := range [][2]int{{120, 40}, {100, 30}} {
		// At 100×30 the verdict and the line go on the message line.
		plain := ansi.Strip(v.View(size[0], size[1]))
		if !strings.Contains(plain, "✗ a6") || !strings.Contains(plain, "Best was 3... g6") {
			t.Errorf("%v: no verdict or engine line after a try:\n%s", size, plain)
		}
	}
	if got := try("Qe7"); !strings.Contains(got, "✓ Qe7 is as good as the best") || !v.learn.good {
		t.Errorf("a move as good as the best: %q", got)
	}
	if got := try("g6"); !strings.Contains(got, "✓ g6 is the engine's best move") {
		t.Errorf("the best move: %q", got)
	}
	v.Update(tuitest.Press("F")) // the only mistake: round to itself, asked anew
	if v.learn == nil || v.learn.tried || v.learn.verdict != "" || v.sel != 5 {
		t.Errorf("F again: %+v", v.learn)
	}
	if _, cmd := v.Update(tuitest.Press("esc")); v.learn != nil || cmd != nil {
		t.Error("esc did not stop learning, or left the review")
	}
	white := chess.White
	env.Player = &white
	w := New(env, Options{Limits: engine.Limits{Depth: 6}}).(*reviewView)
	defer w.Close()
	analyse(t, w)
	w.Update(tuitest.Press("F"))
	if w.learn != nil || w.msg != "no mistakes or blunders of White to learn from" {
		t.Errorf("White has none: learning %v, %q", w.learn != nil, w.msg)
	}
}
