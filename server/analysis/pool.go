// Package analysis analyses the games spectators watch with a budget, not
// a search per game: a fixed pool of engines (by default one fewer than
// the cores) takes the watched games' newest positions in turn, searches
// each to a node or depth budget, and leaves it alone after. A game nobody
// watches costs nothing; fifty watched games share the pool.
package analysis

import (
	"context"
	"sync"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/internal/newest"
)

// Result is a position's analysis as it stands: the lines reported so far
// (final when Done), by MultiPV.
type Result struct {
	Game  engine.Game
	Lines []engine.Info // best first
	Done  bool
	Err   error
}

// Pool is a set of engines shared by the watched games. Its methods are
// safe for concurrent use; Run does the work.
type Pool struct {
	engines []engine.Analyzer
	budget  engine.Limits

	mu      sync.Mutex
	wake    chan struct{}  // a pending request or a stop
	pending []string       // games waiting for an engine, oldest first
	want    map[string]req // each watched game's newest request
	subs    map[string]*newest.Readers[Result]
}

type req struct {
	g   engine.Game
	gen uint64 // counts the game's requests: a result of an older one is dropped
}

// New is a pool of engines, each position searched within budget (a node
// or depth limit; it must end by itself).
func New(engines []engine.Analyzer, budget engine.Limits) *Pool {
	return &Pool{engines: engines, budget: budget, wake: make(chan struct{}, 1),
		want: map[string]req{}, subs: map[string]*newest.Readers[Result]{}}
}

// Watch subscribes to game id's analysis: the channel gets the newest
// result after each report (a slow reader gets the latest). stop ends the
// subscription; the game's analysis stops when its last watcher stops.
func (p *Pool) Watch(id string) (<-chan Result, func()) {
	p.mu.Lock()
	rs := p.subs[id]
	if rs == nil {
		rs = newest.New[Result](nil)
		p.subs[id] = rs
	}
	wid, ch := rs.Add()
	p.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			rs.Remove(wid)
			if rs.Len() == 0 && p.subs[id] == rs {
				delete(p.subs, id)
				delete(p.want, id)
			}
		})
	}
}

// Analyse asks for the analysis of game id at g (its newest position),
// replacing any request of the game not yet searched. A game without
// watchers is not analysed.
func (p *Pool) Analyse(id string, g engine.Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.subs[id] == nil { // deleted with its last watcher
		return
	}
	r, queued := p.want[id]
	p.want[id] = req{g: g, gen: r.gen + 1}
	if !queued || !contains(p.pending, id) {
		p.pending = append(p.pending, id)
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Run runs one worker per engine until ctx ends, and returns when they
// have.
func (p *Pool) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, a := range p.engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(ctx, a)
		}()
	}
	wg.Wait()
}

// work analyses the pending games one after the other with a.
func (p *Pool) work(ctx context.Context, a engine.Analyzer) {
	for {
		id, r, ok := p.next()
		if !ok {
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
		res := Result{Game: r.g}
		lines := map[int]engine.Info{}
		_, err := a.Search(ctx, r.g, p.budget, func(in engine.Info) {
			if in.Kind() != engine.Line {
				return
			}
			lines[max(in.MultiPV, 1)] = in
			res.Lines = ordered(lines)
			p.publish(id, r.gen, res)
		})
		res.Done, res.Err = true, err
		p.publish(id, r.gen, res)
		if ctx.Err() != nil {
			return
		}
	}
}

// next takes the oldest pending game's request.
func (p *Pool) next() (string, req, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.pending) > 0 {
		id := p.pending[0]
		p.pending = p.pending[1:]
		if r, ok := p.want[id]; ok {
			return id, r, true
		}
	}
	return "", req{}, false
}

// publish sends a result to the game's watchers, unless a newer request
// of the game has come since.
func (p *Pool) publish(id string, gen uint64, res Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.want[id]; !ok || r.gen != gen {
		return
	}
	if rs := p.subs[id]; rs != nil {
		rs.Send(res)
	}
}

func ordered(lines map[int]engine.Info) []engine.Info {
	out := make([]engine.Info, 0, len(lines))
	for k := 1; len(out) < len(lines); k++ {
		if in, ok := lines[k]; ok {
			out = append(out, in)
		}
	}
	return out
}
