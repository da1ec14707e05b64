package play

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/store"
)

// Arenas runs the cluster's arena tournaments (server/arena) on the hub.
// An arena is its log in the store (store.AppendArenaEvent): every server
// follows every arena's log and replays it to the same standings; any
// server writes its players' joins and pauses; and one server pairs each
// arena, holding the arena's lease as a game's host holds the game's
// (store.Leases; a server that dies loses it within a lease and another
// takes the arena on). The pairing server writes each game's end into the
// log as the game's record or the archive shows it, writes each pairing
// wave (arena.Arena.Pair at that moment) with its games' ids, and then
// starts those games on the hub as rated games of the arena
// (store.Players.Arena). Every write is made at the log's last sequence,
// so every event is decided from all the events before it, whichever
// server wrote them. Its methods are safe for concurrent use.
type Arenas struct {
	hub    *Hub
	st     *store.Store
	leases *store.Leases
	now    func() time.Time

	mu   sync.Mutex
	runs map[string]*arenaRun
}

// arenaRun is one arena as this server has it: its log replayed so far.
type arenaRun struct {
	mu   sync.Mutex
	a    *arena.Arena
	last uint64 // the sequence of the last event applied
	// lease is this server's lease on pairing the arena (its revision; 0
	// while another server pairs it, or nobody), renewed at renewed.
	lease   uint64
	renewed time.Time
	done    bool // over, every game finished: nothing more to do
}

// arenaLeaseBucket holds the arenas' pairing leases, each lasting as a
// game's does.
const arenaLeaseBucket = "squall_arena_leases"

// MissingGame is how long after its pairing a game that is neither in
// the store nor in the archive is taken as aborted: the pairing server
// died between writing the wave and starting the game (or could not start
// it), and its players are waiting for nothing.
const MissingGame = 30 * time.Second

// NewArenas is the arenas of the hub's cluster, read from the store; from
// then on the hub's games outside them, and the lobby's seeks, pause their
// players in them (Elsewhere).
func NewArenas(ctx context.Context, h *Hub) (*Arenas, error) {
	leases, err := h.st.Leases(ctx, arenaLeaseBucket, h.lease)
	if err != nil {
		return nil, err
	}
	s := &Arenas{hub: h, st: h.st, leases: leases, now: h.now, runs: map[string]*arenaRun{}}
	h.mu.Lock()
	h.arenas = s
	h.mu.Unlock()
	return s, s.Load(ctx)
}

// Load reads every arena's definition from the store (the other servers'
// new arenas) and each new one's log.
func (s *Arenas) Load(ctx context.Context) error {
	defs, err := s.st.Arenas(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range defs {
		r := s.add(d)
		r.mu.Lock()
		errs = append(errs, s.catchUp(ctx, r))
		r.mu.Unlock()
	}
	return errors.Join(errs...)
}

// add is the run of def, made if new.
func (s *Arenas) add(def arena.Definition) *arenaRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[def.ID]
	if !ok {
		r = &arenaRun{a: arena.New(def)}
		s.runs[def.ID] = r
	}
	return r
}

// Create stores a new arena; the id must be new.
func (s *Arenas) Create(ctx context.Context, def arena.Definition) error {
	if err := s.st.CreateArena(ctx, def); err != nil {
		return err
	}
	s.add(def)
	return nil
}

// ErrNoArena: no arena of that id or name.
var ErrNoArena = errors.New("no such arena")

// List is every arena's definition, the latest start first.
func (s *Arenas) List() []arena.Definition {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]arena.Definition, 0, len(s.runs))
	for _, r := range s.runs {
		out = append(out, r.a.Def)
	}
	slices.SortFunc(out, func(a, b arena.Definition) int {
		if c := b.Start.Compare(a.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// Find is the arena named by id, or else by name (the latest of that
// name, in any case).
func (s *Arenas) Find(idOrName string) (arena.Definition, error) {
	list := s.List()
	for _, d := range list {
		if d.ID == idOrName {
			return d, nil
		}
	}
	for _, d := range list {
		if strings.EqualFold(d.Name, idOrName) {
			return d, nil
		}
	}
	return arena.Definition{}, fmt.Errorf("arena %q: %w", idOrName, ErrNoArena)
}

// ArenaState is an arena as this server has replayed it.
type ArenaState struct {
	Def       arena.Definition
	Standings []arena.Standing
	// Playing are its games in progress.
	Playing []arena.Paired
}

// State is arena id as this server has it now.
func (s *Arenas) State(id string) (ArenaState, error) {
	r, err := s.run(id)
	if err != nil {
		return ArenaState{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return ArenaState{Def: r.a.Def, Standings: r.a.Standings(), Playing: r.a.InProgress()}, nil
}

// Log is arena id's events as the store has them now.
func (s *Arenas) Log(ctx context.Context, id string) ([]arena.Event, error) {
	evs, err := s.st.ArenaEvents(ctx, id, 0)
	if err != nil {
		return nil, err
	}
	out := make([]arena.Event, len(evs))
	for i, e := range evs {
		out[i] = e.Event
	}
	return out, nil
}

func (s *Arenas) run(id string) (*arenaRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.runs[id]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("arena %q: %w", id, ErrNoArena)
}

// Join enters handle in arena id, or brings them back from a pause, with
// their rating at the arena's speed now.
func (s *Arenas) Join(ctx context.Context, id, handle string) error {
	r, err := s.run(id)
	if err != nil {
		return err
	}
	rt, err := s.st.Rating(ctx, handle, r.a.Def.Control.Speed().String())
	if err != nil {
		return err
	}
	return s.player(ctx, r, arena.Event{Kind: arena.Join, Player: handle, Rating: int(math.Round(rt.Rating))})
}

// Pause stops handle being paired in arena id until they join again.
func (s *Arenas) Pause(ctx context.Context, id, handle string) error {
	r, err := s.run(id)
	if err != nil {
		return err
	}
	return s.player(ctx, r, arena.Event{Kind: arena.Pause, Player: handle})
}

// Withdraw takes handle out of arena id (before its start: out of it
// altogether; after: as a pause).
func (s *Arenas) Withdraw(ctx context.Context, id, handle string) error {
	r, err := s.run(id)
	if err != nil {
		return err
	}
	return s.player(ctx, r, arena.Event{Kind: arena.Withdraw, Player: handle})
}

// Elsewhere pauses the handles in every arena under way in which they
// wait to be paired, as they begin to play outside it: a game begun
// (Hub.Start) or a seek opened or accepted (Hub.Seeking). Lichess pairs
// only the players on the arena's page; here nobody is paired who plays,
// or seeks to play, elsewhere, and the screens say so (j resumes). Each
// pause is written at the arena log's last sequence, so it is ordered
// with the pairing waves: a wave after it leaves the player out, and a
// wave before it that paired them (their game there not over: begun, or
// about to be) comes first — the game elsewhere is refused with ErrBusy,
// and nobody is paused in that arena.
//
// A pause stands only if what it was for begins: Elsewhere returns
// takeBack, which its caller runs if the seek or game then fails (the
// lobby or the hub refuses it for another reason), and which brings back
// the players it paused, those still paused; refused in one arena, or
// failing to write in one, Elsewhere takes back the pauses it wrote in
// the others itself and returns the error. takeBack is never nil.
func (s *Arenas) Elsewhere(ctx context.Context, handles ...string) (takeBack func(context.Context) error, err error) {
	keys := map[string]bool{}
	for _, h := range handles {
		keys[account.Key(h)] = true
	}
	now := s.now()
	var errs []error
	paused := map[*arenaRun][]string{}
	for _, r := range s.under(now) {
		var refused error
		r.mu.Lock()
		written, err := s.write(ctx, r, func(a *arena.Arena) []arena.Event {
			refused = nil
			var out []arena.Event
			for _, p := range a.Standings() {
				switch {
				case !keys[account.Key(p.Handle)] || p.Paused:
				case p.Playing != "" && !s.over(ctx, p.Playing):
					refused = fmt.Errorf("%s is %w: paired in %s a moment ago", p.Handle, ErrBusy, arena.Title(a.Def.Name))
					return nil
				default:
					out = append(out, arena.Event{Kind: arena.Pause, At: now, Player: p.Handle, Elsewhere: true})
				}
			}
			return out
		})
		r.mu.Unlock()
		for _, e := range written {
			paused[r] = append(paused[r], e.Player)
		}
		if errs = append(errs, refused, err); refused != nil || err != nil {
			break // taken back: no more pauses to write
		}
	}
	takeBack = func(ctx context.Context) error { return s.takeBack(ctx, paused) }
	if err := errors.Join(errs...); err != nil {
		return noPauses, errors.Join(err, takeBack(ctx))
	}
	return takeBack, nil
}

// noPauses is the takeBack of an Elsewhere that paused nobody.
func noPauses(context.Context) error { return nil }

// takeBackTime bounds taking back the pauses of a seek or game that did
// not begin: it runs after its caller's context, which may be what
// ended it.
const takeBackTime = 5 * time.Second

// takeBack brings back the players paused in each run, those still
// paused there (not paused again meanwhile for another reason this
// cannot tell: rare, and j resumes) while the arena is under way, with
// the rating the arena knew them by.
func (s *Arenas) takeBack(ctx context.Context, paused map[*arenaRun][]string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), takeBackTime)
	defer cancel()
	var errs []error
	for r, handles := range paused {
		r.mu.Lock()
		_, err := s.write(ctx, r, func(a *arena.Arena) []arena.Event {
			now := s.now()
			if !now.Before(a.Def.End()) {
				return nil
			}
			var out []arena.Event
			for _, p := range a.Standings() {
				if p.Paused && slices.ContainsFunc(handles, func(h string) bool { return account.Key(h) == account.Key(p.Handle) }) {
					out = append(out, arena.Event{Kind: arena.Join, At: now, Player: p.Handle, Rating: p.Rating})
				}
			}
			return out
		})
		r.mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("arena %s: taking back a pause: %w", r.a.Def.ID, err))
		}
	}
	return errors.Join(errs...)
}

// Paused is an arena under way a player is paused in, and why: Elsewhere
// when the server paused them as they play, or seek to play, outside it
// (Arenas.Elsewhere; arena.Standing.Elsewhere), else by their own doing —
// they left, withdrew after the start (which is a pause), or were absent
// from a game.
type Paused struct {
	Arena     arena.Definition
	Elsewhere bool
}

// PausedIn are the arenas under way in which handle is paused, as this
// server has them, by id: the lobby and the game screen say so, and why,
// while it lasts, j on the arenas screen resuming.
func (s *Arenas) PausedIn(handle string) []Paused {
	var out []Paused
	for _, r := range s.under(s.now()) {
		r.mu.Lock()
		for _, p := range r.a.Standings() {
			if account.Key(p.Handle) == account.Key(handle) && p.Paused {
				out = append(out, Paused{Arena: r.a.Def, Elsewhere: p.Elsewhere})
			}
		}
		r.mu.Unlock()
	}
	slices.SortFunc(out, func(a, b Paused) int { return cmp.Compare(a.Arena.ID, b.Arena.ID) })
	return out
}

// under are the runs of the arenas under way at now (begun, not ended).
func (s *Arenas) under(now time.Time) []*arenaRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*arenaRun
	for _, r := range s.runs {
		if d := r.a.Def; !now.Before(d.Start) && now.Before(d.End()) {
			out = append(out, r)
		}
	}
	return out
}

// over says whether arena game id has ended, as its record or the archive
// says; a game paired and not begun yet (or lost) is not.
func (s *Arenas) over(ctx context.Context, id string) bool {
	rec, _, found, err := s.st.Game(ctx, id)
	if err != nil {
		return false
	}
	if found {
		return rec.End != nil
	}
	_, archived, err := s.st.ArchivedGame(ctx, id)
	return err == nil && archived
}

// player writes a player's event, timed now.
func (s *Arenas) player(ctx context.Context, r *arenaRun, e arena.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := s.write(ctx, r, func(*arena.Arena) []arena.Event {
		e.At = s.now()
		return []arena.Event{e}
	})
	return err
}

// catchUp applies the events written since r's last; called with r.mu
// held. An event the arena refuses (a server of another version wrote
// it) is skipped, as every server skips it, and reported.
func (s *Arenas) catchUp(ctx context.Context, r *arenaRun) error {
	evs, err := s.st.ArenaEvents(ctx, r.a.Def.ID, r.last)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range evs {
		errs = append(errs, r.a.Apply(e.Event))
		r.last = e.Seq
	}
	return errors.Join(errs...)
}

// write builds events from the arena as the log has it now, tries them on
// a copy, and writes them one by one at the log's last sequence; when
// another server wrote first, it reads that and builds again. It returns
// the events written; called with r.mu held.
func (s *Arenas) write(ctx context.Context, r *arenaRun, build func(*arena.Arena) []arena.Event) ([]arena.Event, error) {
	var written []arena.Event
	for try := 0; ; try++ {
		if err := s.catchUp(ctx, r); err != nil {
			return written, err
		}
		evs := build(r.a)
		if len(evs) == 0 {
			return written, nil
		}
		c := r.a.Clone()
		for _, e := range evs {
			if err := c.Apply(e); err != nil {
				return written, err
			}
		}
		stale := false
		for _, e := range evs {
			seq, err := s.st.AppendArenaEvent(ctx, r.a.Def.ID, e, r.last)
			if errors.Is(err, store.ErrStale) && try < 10 {
				stale = true
				break
			}
			if err != nil {
				return written, err
			}
			if err := r.a.Apply(e); err != nil {
				return written, err // tried on the copy: not reached
			}
			r.last = seq
			written = append(written, e)
		}
		if !stale {
			return written, nil
		}
	}
}

// Run keeps the arenas until ctx ends: every interval it follows each
// arena's log, and pairs the arenas whose lease it holds or can take,
// from shortly before their start until their last game ends; every
// tenth interval it reads the store's list of arenas again. report, if
// not nil, hears of each error (from Run's goroutine). The leases held
// are given up as Run returns.
func (s *Arenas) Run(ctx context.Context, interval time.Duration, report func(error)) {
	if report == nil {
		report = func(error) {}
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			s.release()
			return
		case <-tick.C:
		}
		if n%10 == 9 {
			if err := s.Load(ctx); err != nil {
				report(err)
			}
		}
		s.mu.Lock()
		runs := make([]*arenaRun, 0, len(s.runs))
		for _, r := range s.runs {
			runs = append(runs, r)
		}
		s.mu.Unlock()
		for _, r := range runs {
			if err := s.step(ctx, r); err != nil && ctx.Err() == nil {
				report(fmt.Errorf("arena %s: %w", r.a.Def.ID, err))
			}
		}
	}
}

// release gives up the leases held (the server is stopping: another
// pairs its arenas at once, not a lease later).
func (s *Arenas) release() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.runs {
		r.mu.Lock()
		if r.lease != 0 {
			s.leases.Release(ctx, id, r.lease)
			r.lease = 0
		}
		r.mu.Unlock()
	}
}

// step follows one arena's log and, while this server pairs it, writes
// its games' ends and its pairing wave and starts the wave's games.
func (s *Arenas) step(ctx context.Context, r *arenaRun) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return nil
	}
	err := s.catchUp(ctx, r)
	now := s.now()
	def := r.a.Def
	if now.Before(def.Start.Add(-s.hub.lease)) || !s.hold(ctx, r, now) {
		return err
	}
	if _, ferr := s.write(ctx, r, func(a *arena.Arena) []arena.Event { return s.ends(ctx, a, now) }); ferr != nil {
		return errors.Join(err, ferr)
	}
	if !now.Before(def.End()) {
		if len(r.a.InProgress()) == 0 {
			r.done = true
			s.leases.Release(ctx, def.ID, r.lease)
			r.lease = 0
		}
		return err
	}
	if _, perr := s.write(ctx, r, func(a *arena.Arena) []arena.Event { return s.busyElsewhere(a, now) }); perr != nil {
		return errors.Join(err, perr)
	}
	wave, werr := s.write(ctx, r, func(a *arena.Arena) []arena.Event {
		pairs := a.Pair(now)
		if len(pairs) == 0 {
			return nil
		}
		for i := range pairs {
			pairs[i].Game = s.hub.newID()
		}
		return []arena.Event{{Kind: arena.Pair, At: now, Pairs: pairs}}
	})
	return errors.Join(err, werr, s.begin(ctx, r, wave))
}

// begin starts the games of the wave written on the hub. A game refused
// because a player is in a game already (ErrBusy: begun elsewhere before
// the arena started, or from another session, and not yet seen when the
// wave was decided) is written aborted at once, scoring nothing, rather
// than MissingGame later: nobody is left paired in a game that cannot
// begin. Called with r.mu held.
func (s *Arenas) begin(ctx context.Context, r *arenaRun, wave []arena.Event) error {
	def := r.a.Def
	var errs []error
	refused := map[string]bool{}
	for _, e := range wave {
		for _, p := range e.Pairs {
			players := Players{White: p.White, Black: p.Black, Rated: true, Arena: def.ID, ArenaName: def.Name}
			err := s.hub.start(ctx, p.Game, players, def.Control)
			if errors.Is(err, ErrBusy) {
				refused[p.Game] = true
				continue
			}
			errs = append(errs, err)
		}
	}
	if len(refused) > 0 {
		_, err := s.write(ctx, r, func(a *arena.Arena) []arena.Event {
			var out []arena.Event
			for _, p := range a.InProgress() {
				if refused[p.Game] {
					out = append(out, arena.Event{Kind: arena.Finish, At: s.now(), Game: p.Game, Result: pgn.Unknown})
				}
			}
			return out
		})
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// busyElsewhere are the pauses of the arena's waiting players who are in
// a game outside it (the lobby's, Squall's, another arena's), on any
// server, that Elsewhere did not pause them for — begun before the arena
// started, or a join from another session while playing: as lichess
// pairs only the players waiting on the arena's page, one who plays
// elsewhere is paused, to come back with a join, rather than paired in a
// game that cannot begin (the hub refuses a second game, ErrBusy, and
// begin aborts it).
func (s *Arenas) busyElsewhere(a *arena.Arena, now time.Time) []arena.Event {
	waiting := a.Waiting()
	if len(waiting) == 0 || now.Before(a.Def.Start) { // free until it starts
		return nil
	}
	busy := map[string]bool{}
	for _, g := range s.hub.Games() {
		if g.Arena != a.Def.ID {
			busy[account.Key(g.White)], busy[account.Key(g.Black)] = true, true
		}
	}
	var out []arena.Event
	for _, w := range waiting {
		if busy[account.Key(w.Handle)] {
			out = append(out, arena.Event{Kind: arena.Pause, At: now, Player: w.Handle, Elsewhere: true})
		}
	}
	return out
}

// hold says whether this server pairs the arena, taking its lease if
// nobody holds it (or this server did before a restart) and renewing it
// every third of a lease; called with r.mu held.
func (s *Arenas) hold(ctx context.Context, r *arenaRun, now time.Time) bool {
	id := r.a.Def.ID
	if r.lease != 0 {
		if now.Sub(r.renewed) < s.hub.lease/3 {
			return true
		}
		rev, err := s.leases.Renew(ctx, id, s.hub.node, r.lease)
		if err != nil {
			r.lease = 0
			return false
		}
		r.lease, r.renewed = rev, now
		return true
	}
	rev, err := s.leases.Acquire(ctx, id, s.hub.node)
	if errors.Is(err, store.ErrHeld) {
		holder, held, isHeld, herr := s.leases.Holder(ctx, id)
		if herr != nil || !isHeld || holder != s.hub.node {
			return false
		}
		rev, err = s.leases.Renew(ctx, id, s.hub.node, held) // ours, from before a restart
	}
	if err != nil {
		return false
	}
	r.lease, r.renewed = rev, now
	return true
}

// ends are the Finish events of the arena's games in progress that have
// ended: each as its last record says (its end written when it was),
// else as the archive has it (the record dropped: its end noted now), and
// a game in neither MissingGame after its pairing as aborted.
func (s *Arenas) ends(ctx context.Context, a *arena.Arena, now time.Time) []arena.Event {
	var out []arena.Event
	for _, p := range a.InProgress() {
		if u, err := s.hub.Game(p.Game); err == nil && !u.Over() {
			continue
		}
		rec, _, found, err := s.st.Game(ctx, p.Game)
		switch {
		case err != nil:
			continue
		case found && rec.End == nil:
			continue
		case found:
			out = append(out, berserks(a, p, rec.Game.Berserk, rec.Game.Saved)...)
			e := arena.Event{Kind: arena.Finish, At: rec.Game.Saved, Game: p.Game,
				Result: rec.End.Result.PGN(), Plies: len(rec.Game.Moves)}
			if rec.End.Result.Termination == game.Aborted && len(rec.Game.Moves) < 2 {
				// An arena's game is aborted only by its clock or a claim
				// (Hub refuses the players' abort): the side to move never
				// moved, and is paused.
				e.Absent = rec.Handles()[len(rec.Game.Moves)%2]
			}
			out = append(out, e)
			continue
		}
		text, archived, err := s.st.ArchivedGame(ctx, p.Game)
		if err != nil {
			continue
		}
		if archived {
			if g, ok := readPGN(text); ok {
				out = append(out, berserks(a, p, game.Berserks(g), now)...)
				out = append(out, arena.Event{Kind: arena.Finish, At: now, Game: p.Game, Result: g.Result, Plies: len(g.Mainline())})
			}
			continue
		}
		if now.Sub(p.At) >= MissingGame {
			out = append(out, arena.Event{Kind: arena.Finish, At: now, Game: p.Game, Result: pgn.Unknown})
		}
	}
	return out
}

// berserks are the Berserk events of game p's sides that berserked (by
// colour, as its record or its archived PGN says: game.Berserks), timed
// at, before its Finish.
func berserks(a *arena.Arena, p arena.Paired, berserked [2]bool, at time.Time) []arena.Event {
	var out []arena.Event
	for side, h := range []string{p.White, p.Black} {
		if berserked[side] && arena.Berserkable(a.Def.Control) {
			out = append(out, arena.Event{Kind: arena.Berserk, At: at, Game: p.Game, Player: h})
		}
	}
	return out
}

// readPGN reads an archived game.
func readPGN(text string) (*pgn.Game, bool) {
	for g, err := range pgn.Games(strings.NewReader(text)) {
		return g, err == nil
	}
	return nil, false
}

// Games are arena id's finished games as arena.Check takes them: the
// players, result, length and berserks of each as the archive keeps it
// (an aborted game, which the archive does not keep, as the log says),
// its start and end and the ratings it was paired with from the log. PGN, if not nil,
// gets each archived game's text in the order the games ended.
func (s *Arenas) Games(ctx context.Context, id string, archivedPGN func(string)) ([]arena.Game, error) {
	evs, err := s.Log(ctx, id)
	if err != nil {
		return nil, err
	}
	paired := map[string]arena.Game{}
	var out []arena.Game
	for _, e := range evs {
		switch e.Kind {
		case arena.Pair:
			for _, p := range e.Pairs {
				paired[p.Game] = arena.Game{ID: p.Game, White: p.White, Black: p.Black,
					WhiteRating: p.WhiteRating, BlackRating: p.BlackRating, Start: e.At}
			}
		case arena.Berserk:
			g := paired[e.Game]
			if account.Key(e.Player) == account.Key(g.White) {
				g.WhiteBerserk = true
			} else {
				g.BlackBerserk = true
			}
			paired[e.Game] = g
		case arena.Finish:
			g, ok := paired[e.Game]
			if !ok {
				return nil, fmt.Errorf("arena %s: game %s finished, never paired", id, e.Game)
			}
			g.End = e.At
			text, archived, err := s.st.ArchivedGame(ctx, e.Game)
			if err != nil {
				return nil, err
			}
			g.Result, g.Plies = e.Result, e.Plies
			if archived {
				a, ok := readPGN(text)
				if !ok {
					return nil, fmt.Errorf("arena %s: game %s: its PGN does not read", id, e.Game)
				}
				if a.Tag("White") != g.White || a.Tag("Black") != g.Black {
					return nil, fmt.Errorf("arena %s: game %s: paired %s–%s, archived %s–%s", id, e.Game, g.White, g.Black, a.Tag("White"), a.Tag("Black"))
				}
				g.Result, g.Plies = a.Result, len(a.Mainline())
				b := game.Berserks(a) // the archive's, not the log's: Check compares the two
				g.WhiteBerserk, g.BlackBerserk = b[0], b[1]
				if archivedPGN != nil {
					archivedPGN(text)
				}
			}
			out = append(out, g)
		}
	}
	return out, nil
}

// Ensure is the arena of spec starting at start (squall serve --arena):
// made if the store has none yet, so that every server started with the
// same schedule, and the same server restarted, has the one arena. A zero
// start is the next whole minute, unless an arena of the same name,
// control and length has not ended yet: that one is kept (a server
// restarted during it goes on with it).
func (s *Arenas) Ensure(ctx context.Context, spec arena.Spec, start time.Time) (arena.Definition, error) {
	if err := s.Load(ctx); err != nil {
		return arena.Definition{}, err
	}
	now := s.now()
	if start.IsZero() {
		for _, d := range s.List() {
			if strings.EqualFold(d.Name, spec.Name) && d.Control == spec.Control && d.Length == spec.Length && now.Before(d.End()) {
				return d, nil
			}
		}
		start = now.Truncate(time.Minute).Add(time.Minute)
	}
	def := spec.Definition(start, "")
	err := s.Create(ctx, def)
	if errors.Is(err, store.ErrStale) { // made already, by this server before or another
		if err := s.Load(ctx); err != nil {
			return arena.Definition{}, err
		}
		return s.Find(def.ID)
	}
	return def, err
}
