// Package play runs the server's games between people: a Hub owns every
// game in progress, takes the players' actions, keeps each game in the
// store before it answers, ticks the clocks, and at a game's end archives
// it and rates both players. It is the server's play without SSH: the
// lobby and the screens call it, and its tests play whole games.
package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// Errors of refused actions.
var (
	ErrNoGame    = errors.New("no such game")
	ErrNotPlayer = errors.New("you are not playing this game")
)

// Hub owns the games in progress. Its methods are safe for concurrent use.
type Hub struct {
	st  *store.Store
	now func() time.Time
	// Site names the server in the archive's PGN.
	site string
	// onEnd, if set, hears of every finished game (the server's log).
	onEnd func(Ended, Players)

	mu     sync.Mutex
	tables map[string]*table
	seq    int

	ratings sync.Mutex // one rating update at a time: a player may end two games at once
}

// table is one game with its players. Its mutex orders the game's events
// and their writes to the store.
type table struct {
	mu           sync.Mutex
	id           string
	white, black string
	rated        bool
	g            *game.Game
	watchers     map[*watcher]struct{}
	saved        time.Time // the last write of the game's state
}

// SaveEvery bounds the thinking time a crash can forgive: a game's clocks
// are written at least this often (each action writes them too), and a
// restarted server charges nobody for the time since the last write.
const SaveEvery = 10 * time.Second

// watcher is one Watch of a game: a channel holding the newest update.
type watcher struct{ ch chan Update }

// Update is a game as a watcher sees it after an event: its state, and its
// result once over (the last update a watcher gets).
type Update struct {
	ID      string
	Players Players
	State   game.State
	Over    bool
	Result  game.Result
	// Ended is the finished game's record, with the rating changes of a
	// rated one; nil before the end.
	Ended *Ended
	// DrawOffer and Takeback are the standing offers, by colour.
	DrawOffer, Takeback [2]bool
}

// Ended is a finished game: its result and, for a rated game, both
// players' ratings before and after.
type Ended struct {
	ID            string
	Result        game.Result
	Before, After [2]rating.Rating // by colour; zero for a casual game
	// PGN is the game as archived (nil for an aborted game): read it, do
	// not change it.
	PGN *pgn.Game
}

// NewHub is a hub keeping its games in st; now is its clock (nil:
// time.Now) and site names the server in the archive.
func NewHub(st *store.Store, now func() time.Time, site string) *Hub {
	if now == nil {
		now = time.Now
	}
	return &Hub{st: st, now: now, site: site, tables: map[string]*table{}}
}

// OnEnd makes f hear of every game's end (for the server's log: results,
// never chat); set it before the hub is used.
func (h *Hub) OnEnd(f func(Ended, Players)) { h.onEnd = f }

// Restore takes back the games the store holds in progress (after a
// restart), resumed as game.Resume says: the downtime is charged to
// nobody. A stored game that cannot be resumed is reported and left in the
// store; one already over by its moves is finished.
func (h *Hub) Restore(ctx context.Context) (resumed int, err error) {
	states, err := h.st.Games(ctx)
	if err != nil {
		return 0, err
	}
	var errs []error
	for _, s := range states {
		g, err := game.Resume(s.Game, h.now())
		if err != nil {
			errs = append(errs, fmt.Errorf("game %s: %w", s.ID, err))
			continue
		}
		t := &table{id: s.ID, white: s.White, black: s.Black, rated: s.Rated, g: g, saved: h.now()}
		h.mu.Lock()
		h.tables[s.ID] = t
		h.mu.Unlock()
		if _, over := g.Result(); over {
			t.mu.Lock()
			_, err := h.finish(ctx, t)
			t.mu.Unlock()
			errs = append(errs, err)
			continue
		}
		resumed++
	}
	return resumed, errors.Join(errs...)
}

// ErrBusy refuses a game to a player who is in one already: one game at a
// time for each person (Squall, whose names begin with account.Reserved,
// plays any number).
var ErrBusy = errors.New("already playing a game")

// Start begins a game between two handles, stored before it is returned.
func (h *Hub) Start(ctx context.Context, white, black string, tc game.TimeControl, rated bool) (string, error) {
	now := h.now()
	h.mu.Lock()
	for _, t := range h.tables {
		for _, p := range []string{white, black} {
			if (t.white == p || t.black == p) && !strings.HasPrefix(p, account.Reserved) {
				h.mu.Unlock()
				return "", fmt.Errorf("%s is %w", p, ErrBusy)
			}
		}
	}
	h.seq++
	id := fmt.Sprintf("%s-%d", now.UTC().Format("20060102T150405"), h.seq)
	t := &table{id: id, white: white, black: black, rated: rated, g: game.New(tc, now)}
	h.tables[id] = t
	h.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := h.save(ctx, t, now); err != nil {
		h.mu.Lock()
		delete(h.tables, id)
		h.mu.Unlock()
		return "", err
	}
	return id, nil
}

// Move plays handle's move in game id; the game is stored before Move
// returns. ended is not nil when the move ended the game.
func (h *Hub) Move(ctx context.Context, id, handle, move string) (*Ended, error) {
	return h.act(ctx, id, handle, func(g *game.Game, side chess.Color, now time.Time) error {
		return g.Play(side, move, now)
	})
}

// Resign ends game id, handle losing.
func (h *Hub) Resign(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, func(g *game.Game, side chess.Color, now time.Time) error { return g.Resign(side, now) })
}

// OfferDraw offers a draw, or accepts the opponent's.
func (h *Hub) OfferDraw(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, func(g *game.Game, side chess.Color, now time.Time) error {
		_, err := g.OfferDraw(side, now)
		return err
	})
}

// DeclineDraw turns down the opponent's draw offer.
func (h *Hub) DeclineDraw(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, func(g *game.Game, side chess.Color, _ time.Time) error { return g.DeclineDraw(side) })
}

// Takeback asks the opponent to take back handle's last move, or grants
// the opponent's request.
func (h *Hub) Takeback(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, func(g *game.Game, side chess.Color, now time.Time) error {
		_, err := g.RequestTakeback(side, now)
		return err
	})
}

// Claim ends the game for handle, whose opponent has been gone since gone
// for longer than the grace period: won, or drawn if draw.
func (h *Hub) Claim(ctx context.Context, id, handle string, gone time.Time, draw bool) (*Ended, error) {
	return h.act(ctx, id, handle, func(g *game.Game, side chess.Color, now time.Time) error {
		return g.ClaimVictory(side, gone, now, draw)
	})
}

// Abort ends a game of fewer than two plies without a result.
func (h *Hub) Abort(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, func(g *game.Game, _ chess.Color, now time.Time) error { return g.Abort(now) })
}

// act runs one player's action on a game: the player must be in it, the
// game is stored after the action, and a game the action ended is
// finished.
func (h *Hub) act(ctx context.Context, id, handle string, do func(*game.Game, chess.Color, time.Time) error) (*Ended, error) {
	t, err := h.table(id)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	side, ok := t.side(handle)
	if !ok {
		return nil, ErrNotPlayer
	}
	now := h.now()
	if err := do(t.g, side, now); err != nil {
		if _, over := t.g.Result(); over && errors.Is(err, game.ErrOver) {
			// The action found the game lost on time: finish it.
			if e, ferr := h.finish(ctx, t); ferr == nil && e != nil {
				return e, err
			}
		}
		return nil, err
	}
	if _, over := t.g.Result(); over {
		return h.finish(ctx, t)
	}
	return nil, h.save(ctx, t, now)
}

// Tick ends the games that time has decided (a flag, a first move not
// made in time) and returns them.
func (h *Hub) Tick(ctx context.Context) ([]Ended, error) {
	h.mu.Lock()
	tables := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		tables = append(tables, t)
	}
	h.mu.Unlock()
	var ended []Ended
	var errs []error
	for _, t := range tables {
		t.mu.Lock()
		now := h.now()
		switch {
		case t.g.Tick(now):
			if e, err := h.finish(ctx, t); err != nil {
				errs = append(errs, err)
			} else if e != nil {
				ended = append(ended, *e)
			}
		case now.Sub(t.saved) >= SaveEvery:
			errs = append(errs, h.save(ctx, t, now))
		}
		t.mu.Unlock()
	}
	return ended, errors.Join(errs...)
}

// Run ticks the hub every interval until ctx ends; report, if not nil,
// gets each game time ended and each error (from its goroutine).
func (h *Hub) Run(ctx context.Context, interval time.Duration, report func(*Ended, error)) {
	if report == nil {
		report = func(*Ended, error) {}
	}
	tk := time.NewTicker(interval)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		ended, err := h.Tick(ctx)
		for i := range ended {
			report(&ended[i], nil)
		}
		if err != nil {
			report(nil, err)
		}
	}
}

// Game is a copy of game id's state for drawing: position, moves, clocks.
func (h *Hub) Game(id string) (game.State, Players, error) {
	t, err := h.table(id)
	if err != nil {
		return game.State{}, Players{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.g.State(h.now()), Players{White: t.white, Black: t.black, Rated: t.rated}, nil
}

// Summary is a game in progress as the list of games shows it.
type Summary struct {
	ID      string
	Players Players
	TC      game.TimeControl
	Plies   int
}

// Games lists the games in progress, oldest first.
func (h *Hub) Games() []Summary {
	h.mu.Lock()
	tables := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		tables = append(tables, t)
	}
	h.mu.Unlock()
	out := make([]Summary, 0, len(tables))
	for _, t := range tables {
		t.mu.Lock()
		out = append(out, Summary{ID: t.id, Players: Players{White: t.white, Black: t.black, Rated: t.rated}, TC: t.g.TimeControl(), Plies: len(t.g.Moves())})
		t.mu.Unlock()
	}
	slices.SortFunc(out, func(a, b Summary) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// GameOf is the game in progress handle plays in, if any (the newest).
func (h *Hub) GameOf(handle string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	best := ""
	for id, t := range h.tables {
		if (t.white == handle || t.black == handle) && id > best {
			best = id
		}
	}
	return best, best != ""
}

// Players are a game's two handles.
type Players struct {
	White, Black string
	Rated        bool
}

func (h *Hub) table(id string) (*table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.tables[id]
	if !ok {
		return nil, ErrNoGame
	}
	return t, nil
}

// side is handle's colour in the game.
func (t *table) side(handle string) (chess.Color, bool) {
	switch handle {
	case t.white:
		return chess.White, true
	case t.black:
		return chess.Black, true
	}
	return 0, false
}

// save stores the table's game as of now and tells its watchers; called
// with t.mu held.
func (h *Hub) save(ctx context.Context, t *table, now time.Time) error {
	err := h.st.SaveGame(ctx, store.GameState{ID: t.id, White: t.white, Black: t.black, Rated: t.rated, Game: t.g.State(now)})
	if err == nil {
		t.saved = now
		t.notify(now, nil)
	}
	return err
}

// Watch follows game id: the channel gets the game's newest state after
// each event (a slow reader gets the latest, never a backlog), and is
// closed after the update that says the game is over, or by stop.
func (h *Hub) Watch(id string) (<-chan Update, func(), error) {
	t, err := h.table(id)
	if err != nil {
		return nil, nil, err
	}
	w := &watcher{ch: make(chan Update, 1)}
	t.mu.Lock()
	if t.watchers == nil {
		t.watchers = map[*watcher]struct{}{}
	}
	t.watchers[w] = struct{}{}
	w.send(t.update(h.now()))
	t.mu.Unlock()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if _, ok := t.watchers[w]; ok {
				delete(t.watchers, w)
				close(w.ch)
			}
		})
	}
	return w.ch, stop, nil
}

// update is the table's game for its watchers; called with t.mu held.
func (t *table) update(now time.Time) Update {
	r, over := t.g.Result()
	u := Update{ID: t.id, Players: Players{White: t.white, Black: t.black, Rated: t.rated}, State: t.g.State(now), Over: over, Result: r}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		u.DrawOffer[c], u.Takeback[c] = t.g.DrawOffered(c), t.g.TakebackRequested(c)
	}
	return u
}

// notify sends the game to its watchers, and closes them when it is over
// (e is then its record); called with t.mu held.
func (t *table) notify(now time.Time, e *Ended) {
	u := t.update(now)
	u.Ended = e
	for w := range t.watchers {
		w.send(u)
		if u.Over {
			close(w.ch)
			delete(t.watchers, w)
		}
	}
}

// send replaces the update waiting in the channel, if any, with u.
func (w *watcher) send(u Update) {
	select {
	case <-w.ch:
	default:
	}
	w.ch <- u
}

// finish archives the table's ended game, rates a decided rated game, and
// drops the table; called with t.mu held.
func (h *Hub) finish(ctx context.Context, t *table) (*Ended, error) {
	r, _ := t.g.Result()
	e := &Ended{ID: t.id, Result: r}
	if r.Decided() {
		event := "Casual " + t.g.TimeControl().Speed().String() + " game"
		if t.rated {
			event = "Rated " + t.g.TimeControl().Speed().String() + " game"
		}
		e.PGN = t.g.PGN(event, h.site, t.white, t.black)
		if err := h.st.FinishGame(ctx, t.id, e.PGN.String()); err != nil {
			return nil, err
		}
		if t.rated {
			if err := h.rate(ctx, t, r, e); err != nil {
				return nil, err
			}
		}
		kind := "casual"
		if t.rated {
			kind = "rated"
		}
		line := fmt.Sprintf("%s  %s vs %s  %s (%s)  %s %s", t.g.State(h.now()).Started.UTC().Format("2006-01-02"),
			t.white, t.black, r.PGN(), r.Termination, t.g.TimeControl(), kind)
		for _, p := range []string{t.white, t.black} {
			if err := h.st.AddRecent(ctx, p, line); err != nil {
				return nil, err
			}
		}
	} else if err := h.st.DropGame(ctx, t.id); err != nil { // an aborted game is not archived
		return nil, err
	}
	h.mu.Lock()
	delete(h.tables, t.id)
	h.mu.Unlock()
	t.notify(h.now(), e)
	if h.onEnd != nil {
		h.onEnd(*e, Players{White: t.white, Black: t.black, Rated: t.rated})
	}
	return e, nil
}

// rate updates both players' Glicko-2 ratings at the game's speed, each
// against the other's rating before the game.
func (h *Hub) rate(ctx context.Context, t *table, r game.Result, e *Ended) error {
	h.ratings.Lock()
	defer h.ratings.Unlock()
	speed := t.g.TimeControl().Speed().String()
	names := [2]string{t.white, t.black}
	for side := range names {
		var err error
		if e.Before[side], err = h.st.Rating(ctx, names[side], speed); err != nil {
			return err
		}
	}
	for side := range names {
		c := chess.Color(side)
		e.After[side] = e.Before[side].Update([]rating.Result{{Opponent: e.Before[1-side], Score: r.Score(c)}}, rating.Tau)
		if err := h.st.PutRating(ctx, names[side], speed, e.After[side]); err != nil {
			return err
		}
	}
	return nil
}
