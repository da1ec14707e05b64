package tui

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
)

// publishLog is a fake Options.Publish: it records each call as
// "FEN-of-start|uci moves|ply" and fails once failAt calls have been made.
type publishLog struct {
	mu     sync.Mutex
	calls  []string
	failAt int // 0: never fail
}

func (l *publishLog) publish(g engine.Game, ply int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var mv []string
	for _, m := range g.Moves {
		mv = append(mv, m.UCI(false))
	}
	l.calls = append(l.calls, fmt.Sprintf("%s|%s|%d", g.Start.FEN(), strings.Join(mv, " "), ply))
	if l.failAt > 0 && len(l.calls) >= l.failAt {
		return errors.New("room demo is closed")
	}
	return nil
}

func (l *publishLog) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}

// since returns the calls after the first n, for one step's expectations.
func (l *publishLog) since(n int) []string { return l.snapshot()[n:] }

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// TestPublish: the board publishes its game when the game or the shown
// position changes — moves, navigation, a variation, a new game, a pasted
// FEN, an opened PGN — with the whole line through the shown position and
// the shown ply, and not for anything else (resizes, key presses that
// change nothing).
func TestPublish(t *testing.T) {
	log := &publishLog{}
	m := newTestModel(t, Options{Mode: Analysis, Publish: log.publish})
	if got := log.snapshot(); len(got) != 1 || got[0] != startFEN+"||0" {
		t.Fatalf("first update published %q, want the start position", got)
	}
	step := func(what string, want []string, msgs ...tea.Msg) {
		t.Helper()
		n := len(log.snapshot())
		m = send(m, msgs...)
		if got := log.since(n); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s published\n%q\nwant\n%q", what, got, want)
		}
	}
	n := len(log.snapshot())
	m = playAll(t, m, "e4", "e5")
	if got := log.since(n); strings.Join(got, ",") != startFEN+"|e2e4|1,"+startFEN+"|e2e4 e7e5|2" {
		t.Errorf("moves published %q", got)
	}
	step("a resize and board focus", nil, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("f"))
	// Looking back publishes the whole line, at the ply shown.
	step("back", []string{startFEN + "|e2e4 e7e5|1"}, press("left"))
	step("back at the start", []string{startFEN + "|e2e4 e7e5|0"}, press("up"))
	step("back again at the start", nil, press("up"))
	// A variation: 1... c5 instead of 1... e5.
	m = send(m, press("right"), press("tab"))
	n = len(log.snapshot())
	m = playAll(t, m, "c5")
	if got := log.since(n); len(got) != 1 || got[0] != startFEN+"|e2e4 c7c5|2" {
		t.Errorf("variation published %q", got)
	}
	step("switching variations", []string{startFEN + "|e2e4 e7e5|2"}, press("]"))
	step("takeback (deletes the move in analysis)", []string{startFEN + "|e2e4 c7c5|1"}, press("esc"), press("u"))

	fen := "8/8/8/8/8/1k6/8/K1q5 w - - 0 1"
	m = send(m, press("p"), press("d")) // d: discard the analysis
	var keys []tea.Msg
	for _, r := range fen {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	step("typing in the FEN prompt", nil, keys...)
	step("a pasted FEN", []string{fen + "||0"}, press("enter"))

	trees, err := ReadPGN(strings.NewReader("[White \"A\"]\n\n1. d4 d5 2. c4 *\n"), "t.pgn")
	if err != nil {
		t.Fatal(err)
	}
	step("an opened PGN", []string{startFEN + "|d2d4 d7d5 c2c4|0"}, loadedMsg{path: "t.pgn", games: trees})

	// New game (n, then enter in the dialog): the start position.
	m = send(m, press("end"))
	step("new game", []string{startFEN + "||0"}, press("n"), press("enter"), press("d"))
}

// TestPublishErrorOnce: a failing Publish is reported once on the message
// line and then no longer called.
func TestPublishErrorOnce(t *testing.T) {
	log := &publishLog{failAt: 2}
	m := newTestModel(t, Options{Mode: TwoHumans, Publish: log.publish})
	m, _ = typeMove(m, "e4")
	if !m.msgIsErr || m.message != "broadcast stopped: room demo is closed" {
		t.Fatalf("after the failure: message %q", m.message)
	}
	m = send(m, press("esc"))
	m = playAll(t, send(m, press("tab")), "e5", "Nf3")
	if got := log.snapshot(); len(got) != 2 {
		t.Errorf("%d calls after the failure, want none: %q", len(got)-2, got[2:])
	}
	if m.msgIsErr {
		t.Errorf("the error came back: %q", m.message)
	}
}

// TestTeatestPublishEngineGame: in a running program the engine's reply is
// published like the user's move, and live analysis (a stream of engine
// reports) publishes nothing.
func TestTeatestPublishEngineGame(t *testing.T) {
	log := &publishLog{}
	eng := &enginetest.Engine{Tick: time.Millisecond, MaxDepth: 8}
	m := New(testRenderer(termenv.TrueColor), eng, Options{Now: func() time.Time { return fixedNow }, Publish: log.publish})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitScreen(t, tm, regexp.MustCompile(`move>`))
	tm.Type("e4")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	// The fake engine's move is Black's first legal move, a6.
	waitScreen(t, tm, regexp.MustCompile(`1\. e4 +a6`))
	before := len(log.snapshot())
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'a'}})
	waitScreen(t, tm, regexp.MustCompile(`depth 8/11`))
	quitProgram(tm)
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	fm.Close()
	got := log.snapshot()
	if last := got[before-1]; last != startFEN+"|e2e4 a7a6|2" {
		t.Errorf("last publish before analysis %q, want the engine's reply", last)
	}
	if len(got) != before {
		t.Errorf("analysis published %d times: %q", len(got)-before, got[before:])
	}
	waitGoroutines(t)
}
