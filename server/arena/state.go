package arena

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/account"
)

// Arena is an arena's state: its definition and every event applied to it
// so far. It is not safe for concurrent use; its owner (the server pairing
// the arena) keeps it behind its own lock.
type Arena struct {
	Def     Definition
	players map[string]*player // by account.Key
	order   []string           // keys in the order they first joined
	games   map[string]*game   // every game paired, by id
	events  int
}

// player is one player's part of the arena.
type player struct {
	handle string
	rating int // as they last joined
	paused bool
	// elsewhere: paused by a Pause marked Elsewhere (they play outside
	// the arena), not by their own doing.
	elsewhere bool
	playing   string    // the game in progress, "" while waiting
	since     time.Time // waiting since (join, the start, or the last game's end)
	last      string    // key of the last opponent paired with
	colors    colorHistory
	sheet     sheet
	perf      performance
}

// game is a paired game as the arena knows it.
type game struct {
	Pairing
	at       time.Time
	berserk  [2]bool // by colour, White first
	finished bool
}

// New is an arena no one has joined yet.
func New(def Definition) *Arena {
	return &Arena{Def: def, players: map[string]*player{}, games: map[string]*game{}}
}

// Replay is the arena its events make, applied in order; the first event
// refused stops it, named by its place in the log.
func Replay(def Definition, events []Event) (*Arena, error) {
	a := New(def)
	for _, e := range events {
		if err := a.Apply(e); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Events is how many events have been applied.
func (a *Arena) Events() int { return a.events }

// Apply applies one event, or refuses it (the state unchanged) saying why.
func (a *Arena) Apply(e Event) error {
	var err error
	switch e.Kind {
	case Join:
		err = a.join(e)
	case Pause, Withdraw:
		err = a.pause(e)
	case Pair:
		err = a.pair(e)
	case Berserk:
		err = a.berserk(e)
	case Finish:
		err = a.finish(e)
	default:
		err = fmt.Errorf("unknown kind %q", e.Kind)
	}
	if err != nil {
		return fmt.Errorf("arena %s: event %d (%s at %s): %w", a.Def.ID, a.events+1, e.Kind, e.At.UTC().Format(time.RFC3339), err)
	}
	a.events++
	return nil
}

func (a *Arena) join(e Event) error {
	if e.Player == "" {
		return errors.New("no player")
	}
	if !e.At.Before(a.Def.End()) {
		return errors.New("the arena is over")
	}
	k := account.Key(e.Player)
	p := a.players[k]
	if p != nil && !p.paused {
		return fmt.Errorf("%s is in already", e.Player)
	}
	if p == nil {
		p = &player{handle: e.Player}
		a.players[k] = p
		a.order = append(a.order, k)
	}
	p.paused, p.elsewhere = false, false
	p.rating = e.Rating
	if p.playing == "" {
		p.since = e.At
	}
	return nil
}

func (a *Arena) pause(e Event) error {
	k := account.Key(e.Player)
	p := a.players[k]
	switch {
	case p == nil:
		return fmt.Errorf("%s is not in the arena", e.Player)
	case p.paused:
		return fmt.Errorf("%s is paused already", e.Player)
	}
	if e.Kind == Withdraw && e.At.Before(a.Def.Start) {
		delete(a.players, k)
		for i, o := range a.order {
			if o == k {
				a.order = append(a.order[:i:i], a.order[i+1:]...)
				break
			}
		}
		return nil
	}
	p.paused, p.elsewhere = true, e.Kind == Pause && e.Elsewhere
	return nil
}

func (a *Arena) pair(e Event) error {
	if e.At.Before(a.Def.Start) || !e.At.Before(a.Def.End()) {
		return errors.New("outside the arena's time")
	}
	if len(e.Pairs) == 0 {
		return errors.New("no pairs")
	}
	seen := map[string]bool{}
	for _, g := range e.Pairs {
		if g.Game == "" || a.games[g.Game] != nil || seen["game "+g.Game] {
			return fmt.Errorf("game id %q: empty or used", g.Game)
		}
		seen["game "+g.Game] = true
		for _, h := range []string{g.White, g.Black} {
			k := account.Key(h)
			p := a.players[k]
			switch {
			case p == nil:
				return fmt.Errorf("%s is not in the arena", h)
			case p.paused:
				return fmt.Errorf("%s is paused", h)
			case p.playing != "":
				return fmt.Errorf("%s is playing %s", h, p.playing)
			case seen[k]:
				return fmt.Errorf("%s is paired twice", h)
			}
			seen[k] = true
		}
	}
	for _, g := range e.Pairs {
		a.games[g.Game] = &game{Pairing: g, at: e.At}
		w, b := a.players[account.Key(g.White)], a.players[account.Key(g.Black)]
		w.playing, b.playing = g.Game, g.Game
		w.last, b.last = account.Key(g.Black), account.Key(g.White)
		w.colors = w.colors.add(white)
		b.colors = b.colors.add(black)
	}
	return nil
}

func (a *Arena) berserk(e Event) error {
	g := a.games[e.Game]
	switch {
	case g == nil || g.finished:
		return fmt.Errorf("no game %q in progress", e.Game)
	case !Berserkable(a.Def.Control):
		return fmt.Errorf("no berserk at %s", a.Def.Control)
	}
	side, ok := g.side(e.Player)
	if !ok {
		return fmt.Errorf("%s does not play %s", e.Player, e.Game)
	}
	if g.berserk[side] {
		return fmt.Errorf("%s has berserked already", e.Player)
	}
	g.berserk[side] = true
	return nil
}

func (a *Arena) finish(e Event) error {
	g := a.games[e.Game]
	if g == nil || g.finished {
		return fmt.Errorf("no game %q in progress", e.Game)
	}
	var score [2]float64 // by colour: 1 a win, ½ a draw
	switch e.Result {
	case pgn.WhiteWins:
		score[white] = 1
	case pgn.BlackWins:
		score[black] = 1
	case pgn.Draw:
		score = [2]float64{0.5, 0.5}
	case pgn.Unknown:
	default:
		return fmt.Errorf("result %q: want 1-0, 0-1, 1/2-1/2 or *", e.Result)
	}
	if e.Plies < 0 {
		return fmt.Errorf("%d plies", e.Plies)
	}
	absent := -1
	if e.Absent != "" {
		s, ok := g.side(e.Absent)
		if !ok || e.Result != pgn.Unknown {
			return fmt.Errorf("absent %s: not a player of an aborted %s", e.Absent, e.Game)
		}
		absent = int(s)
	}
	g.finished = true
	counts := e.Result != pgn.Unknown && e.At.Before(a.Def.End())
	for side, h := range []string{g.White, g.Black} {
		p := a.players[account.Key(h)]
		p.playing = ""
		p.since = e.At
		if side == absent {
			p.paused, p.elsewhere = true, false // their own doing: they never moved
		}
		if !counts {
			continue
		}
		opp := g.BlackRating
		if side == int(black) {
			opp = g.WhiteRating
		}
		p.sheet = p.sheet.add(outcomeOf(score[side]), e.Plies, g.berserk[side])
		p.perf = p.perf.add(opp, score[side])
	}
	return nil
}

// side is handle's colour in the game.
func (g *game) side(handle string) (color, bool) {
	switch account.Key(handle) {
	case account.Key(g.White):
		return white, true
	case account.Key(g.Black):
		return black, true
	}
	return 0, false
}

// color indexes a game's sides.
type color int

const (
	white color = iota
	black
)

// Clone is a copy of the arena: events applied to it leave a as it was
// (a writer tries an event on a clone before it stores it).
func (a *Arena) Clone() *Arena {
	c := &Arena{Def: a.Def, players: make(map[string]*player, len(a.players)), order: slices.Clone(a.order),
		games: make(map[string]*game, len(a.games)), events: a.events}
	for k, p := range a.players {
		cp := *p // its sheet is only ever appended to past its length (sheet.add)
		c.players[k] = &cp
	}
	for id, g := range a.games {
		cg := *g
		c.games[id] = &cg
	}
	return c
}

// Paired is a game of the arena with the time it was paired.
type Paired struct {
	Pairing
	At time.Time
}

// InProgress are the games paired and not yet finished, in the order of
// their ids.
func (a *Arena) InProgress() []Paired {
	var out []Paired
	for _, g := range a.games {
		if !g.finished {
			out = append(out, Paired{g.Pairing, g.at})
		}
	}
	slices.SortFunc(out, func(x, y Paired) int { return strings.Compare(x.Game, y.Game) })
	return out
}
