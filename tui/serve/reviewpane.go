package serve

import (
	"errors"
	"reflect"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/tui/reviewview"
	"github.com/squall-chess/squall/tui/view"
)

// The review over a screen: a finished game in review (?!, ?, ?? and the
// eval graph, as the board's review view draws it), opened over the game
// screen (r at the end), the spectator's (r) and a profile's history
// (enter). Each screen holds one reviewPane, which opens the review,
// routes the screen's messages to it, draws it and ends it.

// reviewLimits are a reviewed position's search: short, as the board's
// review view has it, since a reviewer waits for the whole game.
var reviewLimits = engine.Limits{MoveTime: 200 * time.Millisecond}

// reviewPane is the review open over a screen (none while v is nil). Its
// search and engine are the session's lifetime's (life): they end as the
// review closes, or with the session.
type reviewPane struct {
	v    view.View
	life *lifetime
}

// open opens finished game e in review with an engine of its own, which
// life ends with the review or the session; at most len(p.Reviews) run at
// once. player is the side the user played (nil for someone else's game):
// "learn from your mistakes" steps to that side's; from is the side the
// board is drawn from (the player's, or the side of the one whose game it
// is to the screen: a profile's player). pgnCmd is the command that
// prints the game (its s says it).
func (r *reviewPane) open(p *server.Games, st styles, e *play.Ended, player *chess.Color, from chess.Color, life *lifetime, pgnCmd string, w, h int) (tea.Cmd, error) {
	if e == nil || e.PGN == nil || p.NewEngine == nil || p.Reviews == nil {
		return nil, errors.New("no review of this game here")
	}
	select {
	case p.Reviews <- struct{}{}:
	default:
		return nil, errors.New("every review engine is busy: try again in a minute")
	}
	a, err := p.NewEngine()
	if err != nil {
		<-p.Reviews
		return nil, err
	}
	slots := p.Reviews
	runner := live.New(a)
	r.v = reviewview.New(view.Env{Renderer: st.r, Theme: st.Theme, Runner: runner, PGN: e.PGN, Player: player, Flipped: from == chess.Black},
		reviewview.Options{Limits: reviewLimits, SaveNote: pgnNote(pgnCmd)})
	r.life = life
	life.setReview(func() {
		runner.Close() // the review's search returns
		a.Close()
		<-slots
	})
	return tea.Batch(r.v.Init(), func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} }), nil
}

// screenMsgs are the messages a screen handles itself while a review is
// open over it, by type: its ticks, its reads' answers, the server's
// closing. The rest (the review's keys, sizes and searches' batches) are
// the review's.
type screenMsgs map[reflect.Type]bool

// screenMsgsOf is the set of the types of msgs (zero values).
func screenMsgsOf(msgs ...tea.Msg) screenMsgs {
	s := screenMsgs{}
	for _, m := range msgs {
		s[reflect.TypeOf(m)] = true
	}
	return s
}

// own reports whether msg is the screen's.
func (s screenMsgs) own(msg tea.Msg) bool { return s[reflect.TypeOf(msg)] }

// isOpen reports whether a review is open.
func (r *reviewPane) isOpen() bool { return r.v != nil }

// update gives msg to the open review unless it is the screen's own
// (mine). view.CloseMsg closes the review and ctrl+c quits, each ending
// it. taken is false when the screen handles msg itself (no review open,
// or its own).
func (r *reviewPane) update(msg tea.Msg, mine screenMsgs) (cmd tea.Cmd, taken bool) {
	if r.v == nil {
		return nil, false
	}
	switch msg := msg.(type) {
	case view.CloseMsg:
		r.close()
		return nil, true
	case tea.KeyMsg:
		if msg.String() == "ctrl+c" {
			r.close()
			return tea.Quit, true
		}
	}
	if mine.own(msg) {
		return nil, false
	}
	r.v, cmd = r.v.Update(msg)
	return cmd, true
}

// view draws the open review in w×h; ok is false when none is open.
func (r *reviewPane) view(w, h int) (s string, ok bool) {
	if r.v == nil {
		return "", false
	}
	return r.v.View(w, h), true
}

// close ends the open review, if any: its search and engine.
func (r *reviewPane) close() {
	if r.v == nil {
		return
	}
	r.v = nil
	r.life.endReview()
}
