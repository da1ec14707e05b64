package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
)

// frame is the shortest time between two analysis updates: progress is
// batched so that a fast engine causes at most 15 renders a second.
const frame = time.Second / 15

// searchKind says why a search runs.
type searchKind int

const (
	searchAnalysis searchKind = iota + 1 // infinite analysis of the shown position
	searchMove                           // the engine's move in a game
	searchHint                           // a short search for a hint
)

// infoMsg carries the progress reports of search id gathered over one frame.
type infoMsg struct {
	id    int
	infos []engine.Info
}

// doneMsg reports that search id ended, with any reports not yet delivered.
type doneMsg struct {
	id    int
	infos []engine.Info
	res   engine.Result
	err   error
}

// searchRun is the root model's handle on one running search. The searching
// goroutine owns everything else; the model only cancels it and reads its
// channels through wait commands.
type searchRun struct {
	id     int
	kind   searchKind
	node   *Node
	multi  int
	cancel context.CancelFunc
	events chan engine.Info
	done   chan doneMsg
	// finished is closed when the goroutine has returned from Search, so
	// the next search on the same engine starts only after it.
	finished chan struct{}
}

// startSearch runs a search in a goroutine once the previous one (prev may
// be nil) has returned: an Analyzer searches one position at a time.
func startSearch(a engine.Analyzer, prev *searchRun, id int, kind searchKind, node *Node, g engine.Game, lim engine.Limits, newGame bool, setup [][2]string) *searchRun {
	ctx, cancel := context.WithCancel(context.Background())
	r := &searchRun{
		id: id, kind: kind, node: node, multi: lim.MultiPV, cancel: cancel,
		events:   make(chan engine.Info, 256),
		done:     make(chan doneMsg, 1),
		finished: make(chan struct{}),
	}
	var wait <-chan struct{}
	if prev != nil {
		wait = prev.finished
	}
	go func() {
		defer close(r.finished)
		if wait != nil {
			<-wait
		}
		if newGame {
			_ = a.NewGame()
		}
		for _, kv := range setup {
			_ = a.SetOption(kv[0], kv[1]) // an engine that refuses plays at full strength
		}
		res, err := a.Search(ctx, g, lim, func(i engine.Info) {
			i.PV = append(i.PV[:0:0], i.PV...) // the engine may reuse its slice
			select {
			case r.events <- i:
			default: // the panel is behind; a later report supersedes this one
			}
		})
		r.done <- doneMsg{id: id, res: res, err: err}
	}()
	return r
}

// stop cancels the search; its goroutine returns soon after.
func (r *searchRun) stop() {
	if r != nil {
		r.cancel()
	}
}

// wait is the command that delivers the search's next batch of reports (at
// most one batch per frame) or its end.
func (r *searchRun) wait() tea.Cmd {
	return func() tea.Msg {
		var infos []engine.Info
		select {
		case i := <-r.events:
			infos = append(infos, i)
		case d := <-r.done:
			d.infos = r.drain(nil)
			return d
		}
		t := time.NewTimer(frame)
		defer t.Stop()
		for {
			select {
			case i := <-r.events:
				infos = append(infos, i)
			case <-t.C:
				return infoMsg{id: r.id, infos: infos}
			case d := <-r.done:
				d.infos = r.drain(infos)
				return d
			}
		}
	}
}

func (r *searchRun) drain(infos []engine.Info) []engine.Info {
	for {
		select {
		case i := <-r.events:
			infos = append(infos, i)
		default:
			return infos
		}
	}
}
