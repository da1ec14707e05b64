// Package analysis analyses the games spectators watch with a budget, not
// a search per game: a fixed pool of engines (by default one fewer than
// the cores) takes the watched games' newest positions in turn, searches
// each to a node or depth budget, and leaves it alone after, its finished
// analysis kept for whoever asks for the position next. A game nobody
// watches costs nothing; fifty watched games share the pool.
package analysis

import (
	"context"
	"slices"
	"sync"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/internal/newest"
)

// Result is a position's analysis as it stands: the lines reported so far
// (final when Done), by MultiPV. Game is the position it is of: a screen
// shows a result only beside the position it shows (Key).
type Result struct {
	Game  engine.Game
	Lines []engine.Info // best first
	Done  bool
	Err   error
	key   string // Key(Game), where the pool or the relay knows it
}

// Key names the position g reaches, for telling the analyses of two
// positions apart (its FEN: two games reaching one position share it);
// "" for a game whose moves do not replay, which no position's key equals.
func Key(g engine.Game) string {
	p, err := g.Position()
	if err != nil {
		return ""
	}
	return p.FEN()
}

// Key is the key of the position r is of.
func (r Result) Key() string {
	if r.key != "" {
		return r.key
	}
	return Key(r.Game)
}

// older tells a result v that a reader whose last result was last does
// not get: one of the same position that counts less (fewer nodes, less
// time, or not done after done) — a search of the position started again
// after it was stopped. What a reader sees of one position's analysis
// never goes back.
func older(last, v Result) bool {
	if len(last.Lines) == 0 || v.Done || v.Key() != last.Key() {
		return false
	}
	if last.Done || len(v.Lines) == 0 {
		return true
	}
	a, b := last.Lines[0], v.Lines[0]
	return b.Nodes < a.Nodes || b.Time < a.Time
}

// Pool is a set of engines shared by the watched games, each searching
// through its own engine/live Runner. Its methods are safe for concurrent
// use; Run does the work.
type Pool struct {
	engines []engine.Analyzer
	budget  engine.Limits

	mu      sync.Mutex
	wake    chan struct{}       // a pending request or a stop
	pending []string            // games waiting for an engine, oldest first
	games   map[string]*watched // the watched games
}

// watched is a watched game's analysis.
type watched struct {
	subs *newest.Readers[Result]
	want *req // the newest request (nil: none yet)
	// search is the running search of want, if any: only its reports
	// reach the game's watchers. A request for another position stops it
	// and leaves it behind, so the reports it still makes are dropped.
	search *live.Search
	// now is the analysis of want's position so far (no lines: none yet),
	// sent again to a spectator who asks for the position later.
	now Result
	// finished are the game's last positions analysed to the budget,
	// newest last: a position asked for again (a takeback) is not
	// searched again.
	finished []Result
}

// keepFinished is how many of a game's finished analyses it keeps.
const keepFinished = 8

type req struct {
	g   engine.Game
	key string // Key(g)
}

// New is a pool of engines, each position searched within budget (a node
// or depth limit; it must end by itself).
func New(engines []engine.Analyzer, budget engine.Limits) *Pool {
	return &Pool{engines: engines, budget: budget, wake: make(chan struct{}, 1), games: map[string]*watched{}}
}

// Watch subscribes to game id's analysis: the channel gets the newest
// result after each report (a slow reader gets the latest), first the
// analysis so far if there is one. stop ends the subscription; the
// game's analysis stops when its last watcher stops.
func (p *Pool) Watch(id string) (<-chan Result, func()) {
	p.mu.Lock()
	w := p.games[id]
	if w == nil {
		w = &watched{subs: newest.New(older)}
		p.games[id] = w
	}
	wid, ch := w.subs.Add()
	if len(w.now.Lines) > 0 || w.now.Done {
		w.subs.Offer(wid, w.now)
	}
	p.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			w.subs.Remove(wid)
			if w.subs.Len() == 0 && p.games[id] == w {
				if w.search != nil {
					w.search.Stop()
				}
				delete(p.games, id)
			}
		})
	}
}

// Analyse asks for the analysis of game id at g (the position a screen
// shows). A new position replaces the game's request, stopping the search
// of the old one; the position already asked for (another spectator's
// screen, another update of the same position) is not searched again: its
// analysis so far, or the finished one, is sent again instead. A game
// without watchers is not analysed.
func (p *Pool) Analyse(id string, g engine.Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.games[id]
	if w == nil { // deleted with its last watcher
		return
	}
	k := Key(g)
	if w.want != nil && w.want.key == k && w.now.Err == nil { // a failed search is tried again
		if len(w.now.Lines) > 0 || w.now.Done {
			w.subs.Send(w.now)
		}
		return
	}
	w.want = &req{g: g, key: k}
	w.now = Result{}
	if w.search != nil {
		w.search.Stop()
		w.search = nil
	}
	for _, r := range w.finished {
		if r.key == k {
			w.now = r
			w.subs.Send(r)
			return
		}
	}
	if !slices.Contains(p.pending, id) {
		p.pending = append(p.pending, id)
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run runs one worker per engine until ctx ends, and returns when they
// have, their searches stopped and returned.
func (p *Pool) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, a := range p.engines {
		wg.Go(func() {
			run := live.New(a)
			defer run.Close()
			p.work(ctx, run)
		})
	}
	wg.Wait()
}

// work analyses the pending games one after the other with run.
func (p *Pool) work(ctx context.Context, run *live.Runner) {
	for ctx.Err() == nil {
		id, r, s := p.next(run)
		if s == nil {
			select {
			case <-ctx.Done():
				return
			case <-p.wake:
				// Another worker may need waking too.
				p.mu.Lock()
				more := len(p.pending) > 0
				p.mu.Unlock()
				if more {
					select {
					case p.wake <- struct{}{}:
					default:
					}
				}
			}
			continue
		}
		p.follow(ctx, id, r, s)
	}
}

// next starts the search of the oldest pending game's request on run.
func (p *Pool) next(run *live.Runner) (string, req, *live.Search) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.pending) > 0 {
		id := p.pending[0]
		p.pending = p.pending[1:]
		if w, ok := p.games[id]; ok && w.want != nil {
			w.search = run.Start(live.Job{Game: w.want.g, Limits: p.budget})
			return id, *w.want, w.search
		}
	}
	return "", req{}, nil
}

// follow takes search s of game id's request r to its end, sending its
// lines as they come.
func (p *Pool) follow(ctx context.Context, id string, r req, s *live.Search) {
	defer context.AfterFunc(ctx, s.Stop)() // the pool's end stops it
	res := Result{Game: r.g, key: r.key}
	lines := live.Lines{} // as many as the budget's MultiPV
	for {
		b := s.Next(0)
		added := false
		for _, in := range b.Infos {
			_, ok := lines.Add(in)
			added = added || ok
		}
		res.Lines = lines.All()
		if b.Done {
			res.Done, res.Err = true, b.Err
			p.finish(id, s, res, ctx.Err() != nil)
			return
		}
		if added {
			p.publish(id, s, res)
		}
	}
}

// publish sends a result of search s to the game's watchers, unless the
// game's request has moved on from it.
func (p *Pool) publish(id string, s *live.Search, res Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.games[id]; ok && w.search == s {
		w.now = res
		w.subs.Send(res)
	}
}

// finish ends search s of game id: its result is the position's finished
// analysis, kept and sent, unless it was stopped part way — left behind
// by a request for another position, or by the pool's end (closing).
func (p *Pool) finish(id string, s *live.Search, res Result, closing bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.games[id]
	if !ok || w.search != s {
		return
	}
	w.search = nil
	if closing {
		return
	}
	if res.Err == nil {
		w.finished = append(slices.DeleteFunc(w.finished, func(r Result) bool { return r.key == res.key }), res)
		w.finished = w.finished[max(len(w.finished)-keepFinished, 0):]
	}
	w.now = res
	w.subs.Send(res)
}
