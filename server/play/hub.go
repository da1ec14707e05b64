// Package play runs the server's games between people: a Hub owns the
// games it hosts, takes the players' actions, keeps each game in the store
// before it answers, ticks the clocks, and at a game's end archives it and
// rates both players. It is the server's play without SSH: the lobby and
// the screens call it, and its tests play whole games.
//
// Several servers on one NATS cluster form one service (cluster.go): each
// game is hosted by one of them, which holds the game's lease; the others
// send their players' actions to the host and follow the game in the
// store, and take it over when its host dies.
package play

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/newest"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// Errors of refused actions.
var (
	ErrNoGame    = errors.New("no such game")
	ErrNotPlayer = errors.New("you are not playing this game")
	// ErrNoHost: the game's host died and no server has taken it over
	// yet (a few seconds); the action was not played.
	ErrNoHost = errors.New("the game's server is away; try again in a moment")
)

// Config configures a hub.
type Config struct {
	// Node names this server among the cluster's (the holder of its
	// games' leases); "" is "squall". Two servers running at once must
	// have different names; a server restarted under its name takes its
	// games back at once.
	Node string
	// Site names the server in the archive's PGN.
	Site string
	// Now is the hub's clock; nil is time.Now.
	Now func() time.Time
	// Lease is how long a game's lease lasts unrenewed, and so about how
	// long a game waits for a new host after its host dies; 0 is
	// DefaultLease.
	Lease time.Duration
}

// DefaultLease is a hosted game's lease: renewed three times a lease, it
// survives a missed renewal; a dead host's games move within about this.
const DefaultLease = 3 * time.Second

// Hub owns the games this server hosts and reaches the others'. Its
// methods are safe for concurrent use.
type Hub struct {
	st     *store.Store
	nc     *nats.Conn
	leases *store.Leases
	now    func() time.Time
	site   string
	node   string
	lease  time.Duration
	tag    string // this hub's part of its game ids: unique across servers and restarts
	// onEnd, if set, hears of every finished game this server hosted (the
	// server's log); onHost of every game it takes over (Squall's seats).
	onEnd  func(Ended, Players)
	onHost func(id string, p Players)

	mu       sync.Mutex
	tables   map[string]*table // the games hosted here
	mirror   map[string]*mirrored
	watchers map[string]*newest.Readers[Update]
	seq      int

	ratingsMu sync.Mutex // one rating update at a time: a player may end two games at once

	// arenas, once NewArenas has made them on this hub, pause the players
	// of a game outside them, and a seeker, in the arenas they wait in
	// (Arenas.Elsewhere). Under mu.
	arenas *Arenas
}

// table is one game hosted here, with its players. Its mutex orders the
// game's events and their writes to the store.
type table struct {
	mu sync.Mutex
	id string
	Players
	g     *game.Game
	saved time.Time // the last write of the game's state
	rev   uint64    // the store's revision of that write
	lease uint64    // the lease's revision, to renew it at
	sub   *nats.Subscription
	gone  bool // over, or lost to another host: no more writes
	// ended is the game's end once archived and rated: a finish whose
	// last write failed is tried again from there, not rated again.
	ended *Ended
	// rating is both players' ratings before and after the game, once
	// computed (see rate).
	rating *store.Ratings
}

// SaveEvery bounds the thinking time a crash can forgive: a game's clocks
// are written at least this often (each action writes them too), and the
// server that resumes the game (this one restarted, or another) charges
// nobody for the time since the last write. Each write is also a clock
// update for the screens of the other servers.
const SaveEvery = 2 * time.Second

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

// Players are a game's two handles and its kind: the record's
// (store.Players), named here for the screens and services that speak of
// play's games.
type Players = store.Players

// leaseBucket holds the games' leases.
const leaseBucket = "squall_game_leases"

// NewHub is a hub keeping its games in st.
func NewHub(ctx context.Context, st *store.Store, c Config) (*Hub, error) {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Node == "" {
		c.Node = "squall"
	}
	if c.Lease == 0 {
		c.Lease = DefaultLease
	}
	leases, err := st.Leases(ctx, leaseBucket, c.Lease)
	if err != nil {
		return nil, err
	}
	if err := indexArchive(ctx, st); err != nil {
		return nil, err
	}
	var tag [2]byte
	rand.Read(tag[:])
	return &Hub{
		st: st, nc: st.Conn(), leases: leases, now: c.Now, site: c.Site, node: c.Node, lease: c.Lease, tag: hex.EncodeToString(tag[:]),
		tables: map[string]*table{}, mirror: map[string]*mirrored{}, watchers: map[string]*newest.Readers[Update]{},
	}, nil
}

// Node is the hub's name among the cluster's servers.
func (h *Hub) Node() string { return h.node }

// OnEnd makes f hear of every game's end on this server (for its log:
// results, never chat); set it before the hub is used.
func (h *Hub) OnEnd(f func(Ended, Players)) { h.onEnd = f }

// OnHost makes f hear of every game this server takes over from the store
// (after a restart, or from a server that died): Squall's seats follow
// their games. Set it before Restore.
func (h *Hub) OnHost(f func(id string, p Players)) { h.onHost = f }

// ErrBusy refuses a game to a player who is in one already: one game at a
// time for each person (Squall, whose names begin with account.Reserved,
// plays any number).
var ErrBusy = errors.New("already playing a game")

// Start begins a game between two handles, hosted here, stored before it
// is returned. A rated game needs a control CheckRated allows (the lobby
// refuses a rated seek below it as it is made). It is a game outside the
// arenas: its players are paused in the arenas they wait in before it
// begins, or it is refused if one was paired in one a moment ago
// (Arenas.Elsewhere); a game that then fails to begin takes the pauses
// back.
func (h *Hub) Start(ctx context.Context, white, black string, tc game.TimeControl, rated bool) (string, error) {
	p := Players{White: white, Black: black, Rated: rated}
	if err := h.busy(p); err != nil {
		return "", err
	}
	takeBack, err := h.elsewhere(ctx, white, black)
	if err != nil {
		return "", err
	}
	id := h.newID()
	if err := h.start(ctx, id, p, tc); err != nil {
		return "", errors.Join(err, takeBack(ctx))
	}
	return id, nil
}

// Seeking is told that handle is about to seek a game outside the arenas
// (the lobby: a seek or challenge opened, one accepted): they are paused
// in the arenas they wait in, or refused if one paired them a moment ago
// (Arenas.Elsewhere). If the seek then fails, the lobby runs takeBack.
func (h *Hub) Seeking(ctx context.Context, handle string) (takeBack func(context.Context) error, err error) {
	return h.elsewhere(ctx, handle)
}

// elsewhere pauses the handles in the arenas they wait in, if the hub
// has arenas (Arenas.Elsewhere).
func (h *Hub) elsewhere(ctx context.Context, handles ...string) (takeBack func(context.Context) error, err error) {
	h.mu.Lock()
	a := h.arenas
	h.mu.Unlock()
	if a == nil {
		return noPauses, nil
	}
	return a.Elsewhere(ctx, handles...)
}

// busy refuses a game to a player in one already (ErrBusy); Squall's
// seats play any number.
func (h *Hub) busy(p Players) error {
	for _, who := range p.Handles() {
		if _, busy := h.GameOf(who); busy && !strings.HasPrefix(who, account.Reserved) {
			return fmt.Errorf("%s is %w", who, ErrBusy)
		}
	}
	return nil
}

// newID is a new game's id: unique across servers and restarts.
func (h *Hub) newID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	return fmt.Sprintf("%s-%s%d", h.now().UTC().Format("20060102T150405"), h.tag, h.seq)
}

// start begins game id between p's players, hosted here, stored before it
// returns (Start, and the arenas' pairings, whose ids are in the arena's
// log before their games begin).
func (h *Hub) start(ctx context.Context, id string, p Players, tc game.TimeControl) error {
	if p.Rated {
		if err := tc.CheckRated(); err != nil {
			return err
		}
	}
	now := h.now()
	if err := h.busy(p); err != nil {
		return err
	}
	t := &table{id: id, Players: p, g: game.New(tc, now)}
	for side, p := range t.Handles() {
		if strings.HasPrefix(p, account.Reserved) {
			continue // Squall's seat has no rating
		}
		r, err := h.st.Rating(ctx, p, tc.Speed().String())
		if err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		t.AtStart[side] = r
	}
	var err error
	if t.lease, err = h.leases.Acquire(ctx, id, h.node); err != nil {
		return fmt.Errorf("game %s: lease: %w", id, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := h.save(ctx, t, now); err != nil {
		h.leases.Release(ctx, id, t.lease)
		return err
	}
	return h.host(t)
}

// Move plays handle's move in game id; the game is stored before Move
// returns. ended is not nil when the move ended the game.
func (h *Hub) Move(ctx context.Context, id, handle, move string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actMove, Move: move})
}

// Premove queues handle's move in game id while the opponent is to move:
// the host plays it the instant the opponent's move comes, in the same
// write (game.Game.Play), charged game.PremoveCharge; a premove not legal
// then is dropped and said in the record (game.Premoves.Dropped). On
// handle's own turn it is a move, played now. The premove is stored
// before Premove returns.
func (h *Hub) Premove(ctx context.Context, id, handle, move string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actPremove, Move: move})
}

// CancelPremove takes handle's queued premove back; stored before it
// returns, so a premove cancelled is never played.
func (h *Hub) CancelPremove(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actCancelPremove})
}

// Resign ends game id, handle losing.
func (h *Hub) Resign(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actResign})
}

// OfferDraw offers a draw, or accepts the opponent's.
func (h *Hub) OfferDraw(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actDraw})
}

// Decline turns down the opponent's draw offer and takeback request,
// whichever stand; the opponent may not make them again before the next
// move.
func (h *Hub) Decline(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actDecline})
}

// Takeback asks the opponent to take back handle's last move, or grants
// the opponent's request.
func (h *Hub) Takeback(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actTakeback})
}

// Claim ends the game for handle, whose opponent has been gone since gone
// for longer than the grace period: won, or drawn if draw.
func (h *Hub) Claim(ctx context.Context, id, handle string, gone time.Time, draw bool) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actClaim, Gone: gone, Draw: draw})
}

// Berserk is handle's berserk in game id, an arena's game: half their
// time and no increment (arena.BerserkControl), for an extra point on a
// win (the arena reads it from the game's record), before their first
// move, at a control that allows it (arena.Berserkable).
func (h *Hub) Berserk(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actBerserk})
}

// ErrNotArena refuses a berserk in a game of no arena.
var ErrNotArena = errors.New("berserk is for arena games")

// ErrArenaAbort refuses an abort in an arena's game: there a game ends
// without a result only when a side does not make its first move in
// time (or leaves before it), and that side is paused in the arena.
var ErrArenaAbort = errors.New("an arena's game cannot be aborted: resign, or the side that does not move in time is paused")

// Abort ends a game of fewer than two plies without a result.
func (h *Hub) Abort(ctx context.Context, id, handle string) (*Ended, error) {
	return h.act(ctx, id, handle, action{Kind: actAbort})
}

// action is a player's action, as sent to a game's host.
type action struct {
	Kind string    `json:"kind"`
	Move string    `json:"move,omitempty"`
	Gone time.Time `json:"gone,omitzero"`
	Draw bool      `json:"draw,omitempty"`
}

// The kinds of action.
const (
	actMove          = "move"
	actPremove       = "premove"
	actCancelPremove = "cancel-premove"
	actResign        = "resign"
	actDraw          = "draw"
	actDecline       = "decline"
	actTakeback      = "takeback"
	actClaim         = "claim"
	actAbort         = "abort"
	actBerserk       = "berserk"
)

// apply plays the action on g for side.
func (a action) apply(g *game.Game, side chess.Color, now time.Time) error {
	var err error
	switch a.Kind {
	case actMove:
		err = g.Play(side, a.Move, now)
	case actPremove:
		_, err = g.Premove(side, a.Move, now)
	case actCancelPremove:
		err = g.CancelPremove(side)
	case actResign:
		err = g.Resign(side, now)
	case actDraw:
		_, err = g.OfferDraw(side, now)
	case actDecline:
		err = decline(g, side)
	case actTakeback:
		_, err = g.RequestTakeback(side, now)
	case actClaim:
		err = g.ClaimVictory(side, a.Gone, now, a.Draw)
	case actAbort:
		err = g.Abort(now)
	case actBerserk: // an arena's game: actHere checked it
		err = g.Berserk(side, arena.BerserkControl(g.TimeControl()).Base, now)
	default:
		err = fmt.Errorf("unknown action %q", a.Kind)
	}
	return err
}

// decline turns down the opponent's draw offer and takeback request,
// whichever stand: the one word "decline" answers both.
func decline(g *game.Game, side chess.Color) error {
	draw, takeback := g.DeclineDraw(side), g.DeclineTakeback(side)
	if draw != nil && takeback != nil {
		return draw // nothing to decline
	}
	return nil
}

// act runs one player's action on game id: here if this server hosts it,
// else at its host.
func (h *Hub) act(ctx context.Context, id, handle string, a action) (*Ended, error) {
	if t, ok := h.local(id); ok {
		return h.actHere(ctx, t, handle, a)
	}
	return h.actThere(ctx, id, handle, a)
}

// actHere runs an action on a game hosted here: the player must be in it,
// the game is stored after the action, and a game the action ended is
// finished.
func (h *Hub) actHere(ctx context.Context, t *table, handle string, a action) (*Ended, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gone {
		return nil, ErrNoGame
	}
	side, ok := t.side(handle)
	if !ok {
		return nil, ErrNotPlayer
	}
	if a.Kind == actBerserk && (t.Arena == "" || !arena.Berserkable(t.g.TimeControl())) {
		return nil, ErrNotArena
	}
	if a.Kind == actAbort && t.Arena != "" {
		return nil, ErrArenaAbort
	}
	now := h.now()
	before := t.g.Clone()
	if err := a.apply(t.g, side, now); err != nil {
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
	if err := h.save(ctx, t, now); err != nil {
		// Not stored, so not made: the player is told so and may try
		// again, and the game must not hold it either (the next write of
		// the clocks would store it unannounced).
		t.g = before
		return nil, err
	}
	return nil, nil
}

// Tick ends the games hosted here that time has decided (a flag, a first
// move not made in time) and returns them; it writes each game's clocks
// at least every SaveEvery.
func (h *Hub) Tick(ctx context.Context) ([]Ended, error) {
	var ended []Ended
	var errs []error
	for _, t := range h.hosted() {
		t.mu.Lock()
		now := h.now()
		switch {
		case t.gone:
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

// hosted are the tables of the games hosted here.
func (h *Hub) hosted() []*table {
	h.mu.Lock()
	defer h.mu.Unlock()
	tables := make([]*table, 0, len(h.tables))
	for _, t := range h.tables {
		tables = append(tables, t)
	}
	return tables
}

// Game is game id's record in progress as this server last had it
// (written here, or read from the store), decoded; its clocks are read by
// Clocks at this server's time.
func (h *Hub) Game(id string) (Update, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if m, ok := h.mirror[id]; ok && !m.u.Over() {
		return m.u, nil
	}
	return Update{}, ErrNoGame
}

// Games lists the records of the games in progress on every server,
// oldest first.
func (h *Hub) Games() []store.GameRecord {
	byID := map[string]store.GameRecord{}
	h.mu.Lock()
	for id, m := range h.mirror {
		if !m.u.Over() {
			byID[id] = m.u.GameRecord
		}
	}
	h.mu.Unlock()
	for _, t := range h.hosted() {
		t.mu.Lock()
		if _, over := t.g.Result(); over {
			// Its end may be published a moment before the game is let
			// go: its players may start another at once.
			delete(byID, t.id)
		}
		t.mu.Unlock()
	}
	out := make([]store.GameRecord, 0, len(byID))
	for _, g := range byID {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b store.GameRecord) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// GameOf is the game in progress handle plays in, if any (the newest), on
// any server.
func (h *Hub) GameOf(handle string) (string, bool) {
	best := ""
	for _, s := range h.Games() {
		if s.Players.White == handle || s.Players.Black == handle {
			best = s.ID
		}
	}
	return best, best != ""
}

// Hosts reports whether this server hosts game id (analysis runs on a
// game's host).
func (h *Hub) Hosts(id string) bool {
	_, ok := h.local(id)
	return ok
}

// local is the table of game id if this server hosts it.
func (h *Hub) local(id string) (*table, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.tables[id]
	return t, ok
}

// side is handle's colour in the game.
func (t *table) side(handle string) (chess.Color, bool) {
	switch handle {
	case t.White:
		return chess.White, true
	case t.Black:
		return chess.Black, true
	}
	return 0, false
}

// record is the table's game as stored; called with t.mu held.
func (h *Hub) record(t *table, now time.Time) store.GameRecord {
	return store.GameRecord{ID: t.id, Players: t.Players, Game: t.g.State(now), Host: h.node, Ratings: t.rating}
}

// save stores the table's game as of now and tells its watchers; called
// with t.mu held. A write refused because another server has written the
// game since (it took the game over) ends this server's hosting of it.
func (h *Hub) save(ctx context.Context, t *table, now time.Time) error {
	return h.write(ctx, t, h.record(t, now), now)
}

// write stores rec as the table's game and tells the watchers; called
// with t.mu held. The record is decoded from the game itself, not
// replayed.
func (h *Hub) write(ctx context.Context, t *table, rec store.GameRecord, now time.Time) error {
	rev, err := h.st.SaveGame(ctx, rec, t.rev)
	if errors.Is(err, store.ErrStale) {
		h.unhost(t)
		return fmt.Errorf("%w (another server hosts it now)", ErrNoHost)
	}
	if err != nil {
		return err
	}
	t.saved, t.rev = now, rev
	// The mirror has it at once, not when the store's echo comes: the
	// lobby asks it who is playing as soon as a game's end is shown.
	var ended *Ended
	if rec.End != nil {
		ended = t.ended
	}
	h.take(Update{GameRecord: rec, Rev: rev, Replayed: t.g.Replayed(), Ended: ended}, true)
	return nil
}

// conclude archives a game over, rates it and adds it to both players'
// index of games (store.Played): everything its end needs before the
// final record. A rated
// game's ratings are computed and stored with the game first (see
// ratings), so that the archive has both players' ratings before the game
// and the rating changes, and the ratings are written after it.
func (h *Hub) conclude(ctx context.Context, t *table) (*Ended, error) {
	r, _ := t.g.Result()
	e := &Ended{ID: t.id, Result: r}
	if r.Decided() {
		speed := t.g.TimeControl().Speed().String()
		event := "Casual " + speed + " game"
		if t.Rated {
			// One rating update at a time, from the read of the ratings
			// to their write: a player may end two games at once.
			h.ratingsMu.Lock()
			defer h.ratingsMu.Unlock()
			event = "Rated " + speed + " game"
			if err := h.ratings(ctx, t, r); err != nil {
				return nil, err
			}
			e.Before, e.After = t.rating.Before, t.rating.After
		}
		if t.ArenaName != "" {
			event = arena.Title(t.ArenaName)
		}
		e.PGN = t.g.PGN(event, h.site, t.White, t.Black)
		if err := h.tagRatings(ctx, t, e); err != nil {
			return nil, err
		}
		if err := h.st.ArchiveGame(ctx, t.id, e.PGN.String()); err != nil {
			return nil, err
		}
		if t.Rated {
			for side, name := range t.Handles() {
				if err := h.st.PutRating(ctx, name, speed, e.After[side]); err != nil {
					return nil, err
				}
			}
		}
		if err := h.index(ctx, t, r, e); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// index adds the decided game e to both players' index of games.
func (h *Hub) index(ctx context.Context, t *table, r game.Result, e *Ended) error {
	st := t.g.State(h.now())
	for side, name := range t.Handles() {
		p := store.Played{
			ID: t.id, Handle: name, Opponent: t.Handles()[1-side], White: side == int(chess.White),
			Score: r.Score(chess.Color(side)), Result: r.PGN(), Termination: string(r.Termination),
			TimeControl: st.TimeControl.String(), Speed: st.TimeControl.Speed().String(), Rated: t.Rated,
			Started: st.Started.UTC(), Ended: h.now().UTC(),
		}
		if t.Rated {
			p.Before, p.After = e.Before[side], e.After[side]
		}
		if err := h.st.AddPlayed(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// tagRatings adds the players' ratings before the game to its PGN, as
// lichess exports them: WhiteElo and BlackElo (rounded), and for a rated
// game WhiteRatingDiff and BlackRatingDiff ("+12", "-12"). A casual game
// has each person's rating at its speed as the game ends (a casual game
// changes none); Squall's seat, which has no rating, gets no tag.
func (h *Hub) tagRatings(ctx context.Context, t *table, e *Ended) error {
	speed := t.g.TimeControl().Speed().String()
	for side, name := range t.Handles() {
		colour := chess.Color(side).Name()
		if t.Rated {
			before, after := math.Round(e.Before[side].Rating), math.Round(e.After[side].Rating)
			e.PGN.SetTag(colour+"Elo", strconv.FormatFloat(before, 'f', 0, 64))
			e.PGN.SetTag(colour+"RatingDiff", fmt.Sprintf("%+d", int(after-before)))
			continue
		}
		if strings.HasPrefix(name, account.Reserved) {
			continue
		}
		r, err := h.st.Rating(ctx, name, speed)
		if err != nil {
			return err
		}
		e.PGN.SetTag(colour+"Elo", strconv.FormatFloat(math.Round(r.Rating), 'f', 0, 64))
	}
	return nil
}

// finish archives the table's ended game, rates a decided rated game,
// writes its last record and lets the game go; called with t.mu held.
func (h *Hub) finish(ctx context.Context, t *table) (*Ended, error) {
	if t.ended == nil {
		e, err := h.conclude(ctx, t)
		if err != nil {
			return nil, err
		}
		t.ended = e
	}
	e := t.ended
	rec := h.record(t, h.now())
	rec.End = e.stored()
	if err := h.write(ctx, t, rec, h.now()); err != nil {
		return nil, err
	}
	h.unhost(t)
	h.leases.Release(ctx, t.id, t.lease) // the record stays a while for the other servers' screens: see sweep
	if h.onEnd != nil {
		h.onEnd(*e, t.Players)
	}
	return e, nil
}

// ratings computes both players' Glicko-2 ratings after the game at its
// speed, each against the other's rating before the game, into t.rating;
// the caller, holding h.ratingsMu, writes them.
func (h *Hub) ratings(ctx context.Context, t *table, r game.Result) error {
	if t.rating != nil {
		return nil
	}
	// Read and computed once, and stored with the game before either
	// player's rating is: if a write after fails, the next try — this
	// server's, or another's after this one died — writes the same
	// ratings, not one player's rating moved twice.
	speed := t.g.TimeControl().Speed().String()
	names := t.Handles()
	var rt store.Ratings
	for side := range names {
		var err error
		if rt.Before[side], err = h.st.Rating(ctx, names[side], speed); err != nil {
			return err
		}
	}
	for side := range names {
		rt.After[side] = rt.Before[side].Update([]rating.Result{{Opponent: rt.Before[1-side], Score: r.Score(chess.Color(side))}}, rating.Tau)
	}
	t.rating = &rt
	if err := h.save(ctx, t, h.now()); err != nil {
		t.rating = nil
		return err
	}
	return nil
}
