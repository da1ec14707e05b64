package analysis

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/newest"
)

// Relay is the spectators' analysis on a server of a cluster: a game is
// analysed once, by the pool of the server that hosts it, and the results
// fan out to every server's spectators over NATS. A spectator's screen
// asks for the position it shows (Analyse) wherever it is; the host takes
// the request into its pool while requests keep coming (ProxyIdle), and
// publishes each result; every server hands them to its watchers. A
// server that hosts nothing searches nothing. Its methods are safe for
// concurrent use; Run answers the requests.
type Relay struct {
	pool   *Pool // nil: this server analyses nothing
	nc     *nats.Conn
	hosted func(id string) bool

	mu      sync.Mutex
	watched map[string]*feed  // games watched here: their results from NATS
	proxies map[string]*proxy // games hosted here and analysed for anyone
}

// feed is one game's results for this server's watchers.
type feed struct {
	sub  *nats.Subscription
	subs *newest.Readers[Result]
	last Result // the last result delivered, a new watcher's first
}

// proxy keeps a hosted game in the pool while requests come, forwarding
// its results to NATS.
type proxy struct {
	stop func()
	last time.Time // the last request
}

// ProxyIdle is how long a hosted game stays in the pool after the last
// request for it: spectators' screens ask at every move they show.
const ProxyIdle = 30 * time.Second

// The subjects: squall.analysis.ID (results) and squall.analysis.ID.want
// (requests), ID in hex.
const (
	subjectPrefix = "squall.analysis."
	wantSuffix    = ".want"
)

func resultSubject(id string) string { return subjectPrefix + hex.EncodeToString([]byte(id)) }

// NewRelay is the relay of a server whose pool (nil: none) analyses the
// games it hosts (hosted says which).
func NewRelay(pool *Pool, nc *nats.Conn, hosted func(id string) bool) *Relay {
	return &Relay{pool: pool, nc: nc, hosted: hosted, watched: map[string]*feed{}, proxies: map[string]*proxy{}}
}

// Watch subscribes to game id's analysis, from whichever server hosts it:
// the channel gets the newest result after each report (a slow reader gets
// the latest), first the last one delivered here if there is one. What a
// watcher gets of one position's analysis never goes back. stop ends the
// subscription.
func (r *Relay) Watch(id string) (<-chan Result, func()) {
	r.mu.Lock()
	f := r.watched[id]
	if f == nil {
		f = &feed{subs: newest.New(older)}
		var err error
		f.sub, err = r.nc.Subscribe(resultSubject(id), func(m *nats.Msg) { r.deliver(id, m.Data) })
		if err != nil {
			r.mu.Unlock()
			ch := make(chan Result)
			close(ch) // no analysis: the screen shows none
			return ch, func() {}
		}
		r.watched[id] = f
	}
	wid, ch := f.subs.Add()
	if len(f.last.Lines) > 0 || f.last.Done {
		f.subs.Offer(wid, f.last)
	}
	r.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			f.subs.Remove(wid)
			if f.subs.Len() == 0 {
				f.sub.Unsubscribe()
				delete(r.watched, id)
			}
		})
	}
}

// deliver hands a published result to this server's watchers of id.
func (r *Relay) deliver(id string, data []byte) {
	res, err := decodeResult(data)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.watched[id]
	if f == nil {
		return
	}
	f.last = res
	f.subs.Send(res)
}

// Analyse asks the host of game id for the analysis of g (the position a
// screen shows); its pool searches a position once, and answers a request
// for one it has analysed with that analysis (Pool.Analyse).
func (r *Relay) Analyse(id string, g engine.Game) {
	data, err := json.Marshal(encodeGame(g))
	if err == nil {
		r.nc.Publish(resultSubject(id)+wantSuffix, data)
	}
}

// Run answers the requests for the games hosted here until ctx ends, and
// lets go of the games no longer asked for.
func (r *Relay) Run(ctx context.Context) error {
	sub, err := r.nc.Subscribe(subjectPrefix+"*"+wantSuffix, r.want)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	tk := time.NewTicker(time.Second) // a game over or gone elsewhere leaves the pool within a second
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			r.mu.Lock()
			for id, p := range r.proxies {
				p.stop()
				delete(r.proxies, id)
			}
			r.mu.Unlock()
			return nil
		case <-tk.C:
			r.mu.Lock()
			for id, p := range r.proxies {
				if time.Since(p.last) >= ProxyIdle || !r.hosted(id) {
					p.stop()
					delete(r.proxies, id)
				}
			}
			r.mu.Unlock()
		}
	}
}

// want takes a request into the pool if this server hosts its game.
func (r *Relay) want(m *nats.Msg) {
	hexID := strings.TrimSuffix(strings.TrimPrefix(m.Subject, subjectPrefix), wantSuffix)
	raw, err := hex.DecodeString(hexID)
	if err != nil || r.pool == nil {
		return
	}
	id := string(raw)
	if !r.hosted(id) {
		return
	}
	var wg wireGame
	if json.Unmarshal(m.Data, &wg) != nil {
		return
	}
	g, err := wg.game()
	if err != nil {
		return
	}
	r.mu.Lock()
	p := r.proxies[id]
	if p == nil {
		results, stop := r.pool.Watch(id)
		done := make(chan struct{})
		p = &proxy{stop: func() { stop(); <-done }}
		r.proxies[id] = p
		go func() { // forwards the pool's results; ends when stop closes them
			defer close(done)
			for res := range results {
				if data, err := json.Marshal(encodeResult(res)); err == nil {
					r.nc.Publish(resultSubject(id), data)
				}
			}
		}()
	}
	p.last = time.Now()
	r.mu.Unlock()
	r.pool.Analyse(id, g)
}

// wireGame is a game between servers: its start and moves in UCI.
type wireGame struct {
	FEN   string   `json:"fen"`
	Moves []string `json:"moves"`
}

func encodeGame(g engine.Game) wireGame {
	start := g.Start
	if start == nil {
		start = chess.NewPosition()
	}
	w := wireGame{FEN: start.FEN()}
	for _, m := range g.Moves {
		w.Moves = append(w.Moves, m.UCI(false))
	}
	return w
}

// game replays the wire game: its moves must be legal.
func (w wireGame) game() (engine.Game, error) {
	start, err := chess.ParseFEN(w.FEN)
	if err != nil {
		return engine.Game{}, err
	}
	g := engine.Game{Start: start}
	p := start.Clone()
	var u chess.Undo
	for _, s := range w.Moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			return engine.Game{}, err
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &u)
	}
	return g, nil
}

// wireResult is a result between servers: its lines' moves in UCI, read
// again against the position on arrival (what reaches a screen is legal).
type wireResult struct {
	Game  wireGame   `json:"game"`
	Lines []wireLine `json:"lines"`
	Done  bool       `json:"done"`
	Err   string     `json:"err,omitempty"`
}

type wireLine struct {
	Info engine.Info `json:"info"` // PV and CurrMove cleared
	PV   []string    `json:"pv"`
}

func encodeResult(res Result) wireResult {
	w := wireResult{Game: encodeGame(res.Game), Done: res.Done}
	if res.Err != nil {
		w.Err = res.Err.Error()
	}
	for _, in := range res.Lines {
		l := wireLine{Info: in}
		l.Info.PV, l.Info.CurrMove = nil, 0
		for _, m := range in.PV {
			l.PV = append(l.PV, m.UCI(false))
		}
		w.Lines = append(w.Lines, l)
	}
	return w
}

func decodeResult(data []byte) (Result, error) {
	var w wireResult
	if err := json.Unmarshal(data, &w); err != nil {
		return Result{}, err
	}
	g, err := w.Game.game()
	if err != nil {
		return Result{}, err
	}
	pos, err := g.Position()
	if err != nil {
		return Result{}, err
	}
	res := Result{Game: g, Done: w.Done, key: pos.FEN()}
	if w.Err != "" {
		res.Err = errors.New(w.Err)
	}
	for _, l := range w.Lines {
		in := l.Info
		p := pos.Clone()
		var u chess.Undo
		for _, s := range l.PV {
			m, err := p.ParseUCI(s)
			if err != nil {
				break // the line as far as it is legal
			}
			in.PV = append(in.PV, m)
			p.MakeMove(m, &u)
		}
		res.Lines = append(res.Lines, in)
	}
	return res, nil
}
