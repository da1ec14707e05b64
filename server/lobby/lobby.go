// Package lobby is where games between people begin: open seeks (a time
// control, a colour, rated or casual) that anyone may accept, and
// challenges addressed to one handle. Accepting starts the game on the
// play hub. An open seek may ask for opponents rated within a range of its
// seeker's rating (Seek.Range): only they may accept it (Seek.Admits, the
// one rule, checked by Accept; the screens hide the others' seeks with it).
//
// The seeks are kept in an Ephemeral bucket of the store, so that every
// server of a cluster lists them all and a player on one server accepts a
// seek made on another; taking a seek is a removal at its revision, so two
// players accepting one seek at once, on any servers, cannot both get it.
// A seek is a wish of someone connected: it goes when they leave, and the
// seeks of a server that died lapse (SeekTTL) with nobody renewing them.
package lobby

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// MaxSeeks is how many open seeks and challenges one handle may have.
const MaxSeeks = 3

// SeekTTL is how long a seek lasts unrenewed: its server renews it every
// third of this while it runs.
const SeekTTL = 30 * time.Second

// Errors of refused lobby actions.
var (
	ErrNoSeek     = errors.New("no such seek (taken or withdrawn)")
	ErrOwnSeek    = errors.New("that seek is your own")
	ErrNotForYou  = errors.New("that challenge is for someone else")
	ErrTooMany    = fmt.Errorf("at most %d open seeks and challenges each", MaxSeeks)
	ErrChallengee = errors.New("a challenge needs another player's handle")
	ErrNoPlayer   = errors.New("no player has that handle")
	ErrOutOfRange = errors.New("your rating is outside that seek's range")
	ErrRange      = errors.New("a rating range is a whole number of points from 1, for an open seek (a challenge names its player)")
)

// MaxRange is the widest rating range a seek may ask for; wider is any.
const MaxRange = 1000

// Color is the colour a seeker wants.
type Color uint8

const (
	Random Color = iota
	White
	Black
)

func (c Color) String() string { return [...]string{"random", "white", "black"}[c] }

// Seek is an open offer to play.
type Seek struct {
	ID     string           `json:"id"`
	Handle string           `json:"handle"`
	TC     game.TimeControl `json:"tc"`
	Color  Color            `json:"color"`
	Rated  bool             `json:"rated"`
	To     string           `json:"to,omitempty"` // a challenge's addressee; "" for an open seek
	// Rematch is the finished game a challenge asks to play again (its
	// id); "" for any other seek.
	Rematch string    `json:"rematch,omitempty"`
	Created time.Time `json:"created"`
	// Rating is the seeker's at the control's speed as the seek was
	// opened, shown beside it (zero in a seek from before it was kept).
	Rating rating.Rating `json:"rating,omitzero"`
	// Range, for an open seek, is how far (rating points, rounded) from
	// Rating its opponent's rating at the speed may be: "±200"; 0, anyone.
	Range int `json:"range,omitempty"`
}

// Admits reports whether a player rated r at the seek's speed may accept
// it: anyone for a seek without a range, else a rating within Range of the
// seeker's (both rounded, as shown). Accept enforces it; the screens list
// only the seeks a player is admitted to.
func (s Seek) Admits(r rating.Rating) bool {
	if s.Range == 0 || s.To != "" {
		return true
	}
	d := math.Round(r.Rating) - math.Round(s.Rating.Rating)
	return math.Abs(d) <= float64(s.Range)
}

// RangeText is the seek's range as shown: "±200", or "" for none.
func (s Seek) RangeText() string {
	if s.Range == 0 {
		return ""
	}
	return fmt.Sprintf("±%d", s.Range)
}

// Starter starts a game between two handles (the play hub), and hears of
// a player about to play here — a seek or challenge opened, one accepted
// — before it is: the hub pauses them in the arenas they wait in, or
// refuses if an arena paired them a moment ago (play.Hub.Seeking). The
// lobby runs Seeking's takeBack if the seek then fails: the pause stands
// only for a seek opened or a game begun.
type Starter interface {
	Start(ctx context.Context, white, black string, tc game.TimeControl, rated bool) (string, error)
	Seeking(ctx context.Context, handle string) (takeBack func(context.Context) error, err error)
}

// Lobby holds the seeks. Its methods are safe for concurrent use.
type Lobby struct {
	hub    Starter
	st     *store.Store // the seekers' ratings
	seeks  *store.Ephemeral
	mirror *store.Mirror
	now    func() time.Time
	tag    string // this lobby's part of its seek ids

	mu   sync.Mutex
	next int
	own  map[string]uint64 // the seeks opened here, renewed while the lobby runs: id → revision
	rng  *mrand.Rand
}

// seeksBucket keeps every server's seeks.
const seeksBucket = "squall_seeks"

// New is a lobby keeping its seeks in st and starting its games on hub;
// now is its clock (nil: time.Now) and seed chooses the colours of random
// seeks. The seeks of the other servers are listed while it runs (Run).
func New(ctx context.Context, hub Starter, st *store.Store, now func() time.Time, seed uint64) (*Lobby, error) {
	if now == nil {
		now = time.Now
	}
	seeks, err := st.Ephemeral(ctx, seeksBucket, SeekTTL)
	if err != nil {
		return nil, err
	}
	var tag [3]byte
	rand.Read(tag[:])
	return &Lobby{
		hub: hub, st: st, seeks: seeks, mirror: store.NewMirror(SeekTTL, now), now: now, tag: hex.EncodeToString(tag[:]),
		next: 1, own: map[string]uint64{}, rng: mrand.New(mrand.NewPCG(seed, seed^0x10bb1)),
	}, nil
}

// Run follows the seeks of every server and renews this one's until ctx
// ends; errs, if not nil, hears of a broken watch of the seeks (followed
// again a second later).
func (l *Lobby) Run(ctx context.Context, errs func(error)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		l.mirror.Follow(ctx, l.seeks, func(err error) {
			if errs != nil {
				errs(fmt.Errorf("seeks: %w", err))
			}
		})
	}()
	defer func() { <-followed }()
	tk := time.NewTicker(SeekTTL / 3)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
			l.renew(ctx)
		}
	}
}

// renew writes this server's seeks again; one taken or withdrawn since is
// no longer this server's to renew.
func (l *Lobby) renew(ctx context.Context) {
	l.mu.Lock()
	own := maps.Clone(l.own)
	l.mu.Unlock()
	for _, s := range l.all() {
		rev, ok := own[s.ID]
		if !ok {
			continue
		}
		data, _ := json.Marshal(s)
		next, err := l.seeks.Renew(ctx, s.ID, data, rev)
		l.mu.Lock()
		switch {
		case err == nil:
			l.own[s.ID] = next
			l.mirror.Note(store.Record{Key: s.ID, Value: data, Rev: next})
		case errors.Is(err, store.ErrStale):
			delete(l.own, s.ID)
		}
		l.mu.Unlock()
	}
}

// all are the live seeks of every server, oldest first.
func (l *Lobby) all() []Seek {
	var out []Seek
	for _, r := range l.mirror.Records() {
		var s Seek
		if json.Unmarshal(r.Value, &s) == nil {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b Seek) int { return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID)) })
	return out
}

// Seek opens the seek s asks for (its Handle, TC, Color, Rated, and
// Range or To; the rest is given here), a challenge when To is set. A
// rated one needs a control clock.TimeControl.CheckRated allows (at least
// ¼+0 or 0+1): refused here, when it is made, not when someone accepts
// it. A challenge's To must be a player's handle, in any case: it is kept
// as they spell it. A range wider than MaxRange is none.
func (l *Lobby) Seek(ctx context.Context, s Seek) (Seek, error) {
	if s.Range < 0 || s.Range > 0 && s.To != "" {
		return Seek{}, ErrRange
	}
	if s.Range > MaxRange {
		s.Range = 0
	}
	if s.To != "" {
		if account.Key(s.To) == account.Key(s.Handle) {
			return Seek{}, ErrChallengee
		}
		a, found, err := l.st.AccountOf(ctx, s.To)
		switch {
		case err != nil:
			return Seek{}, fmt.Errorf("challenge: %w", err)
		case !found:
			return Seek{}, fmt.Errorf("%w: %s", ErrNoPlayer, s.To)
		}
		s.To = a.Handle
	}
	if s.Rated {
		if err := s.TC.CheckRated(); err != nil {
			return Seek{}, err
		}
	}
	return l.open(ctx, Seek{Handle: s.Handle, TC: s.TC, Color: s.Color, Rated: s.Rated, To: s.To, Range: s.Range})
}

// open stores seek s, its id and time of creation given here, within
// its seeker's MaxSeeks; a seek not stored takes back the seeker's pause
// in the arenas (Starter.Seeking).
func (l *Lobby) open(ctx context.Context, s Seek) (_ Seek, err error) {
	n := 0
	for _, o := range l.all() {
		if o.Handle == s.Handle {
			n++
		}
	}
	if n >= MaxSeeks {
		return Seek{}, ErrTooMany
	}
	takeBack, err := l.hub.Seeking(ctx, s.Handle)
	if err != nil {
		return Seek{}, fmt.Errorf("seek: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, takeBack(ctx))
		}
	}()
	r, err := l.st.Rating(ctx, s.Handle, s.TC.Speed().String())
	if err != nil {
		return Seek{}, fmt.Errorf("seek: %w", err)
	}
	s.Rating = r
	l.mu.Lock()
	s.ID, s.Created = fmt.Sprintf("%s-%d", l.tag, l.next), l.now()
	l.next++
	l.mu.Unlock()
	data, err := json.Marshal(s)
	if err != nil {
		return Seek{}, err
	}
	rev, err := l.seeks.Create(ctx, s.ID, data)
	if err != nil {
		return Seek{}, fmt.Errorf("seek: %w", err)
	}
	l.mu.Lock()
	l.own[s.ID] = rev
	l.mu.Unlock()
	l.mirror.Note(store.Record{Key: s.ID, Value: data, Rev: rev}) // listed at once, before the bucket's echo
	return s, nil
}

// ErrRematch refuses a rematch of a game the player did not play.
var ErrRematch = errors.New("a rematch is of a game you played")

// Rematch asks for game of's return game for handle, one of its players:
// colours swapped, the same control, rated as it was. It is a challenge
// to the opponent marked with the game (Seek.Rematch), listed and
// accepted as any challenge is — or, where the opponent asked first, the
// acceptance of theirs, which starts the game at once (gameID; "" while
// the opponent has not answered).
func (l *Lobby) Rematch(ctx context.Context, handle string, of store.GameRecord) (gameID string, err error) {
	c, opp := Black, of.Players.Black // handle played White: Black now
	switch handle {
	case of.Players.White:
	case of.Players.Black:
		c, opp = White, of.Players.White
	default:
		return "", ErrRematch
	}
	for _, s := range l.all() {
		if s.Rematch == of.ID && s.Handle == opp && s.To == handle {
			gameID, _, err := l.Accept(ctx, handle, s.ID)
			if !errors.Is(err, ErrNoSeek) { // withdrawn meanwhile: ask instead
				return gameID, err
			}
		}
		if s.Rematch == of.ID && s.Handle == handle {
			return "", nil // asked already
		}
	}
	_, err = l.open(ctx, Seek{Handle: handle, TC: of.Game.TimeControl, Color: c, Rated: of.Players.Rated, To: opp, Rematch: of.ID})
	return "", err
}

// IsRematch reports whether game next is the return game of finished
// game of as Rematch makes it: the same two players with colours swapped,
// the same control, rated as it was, outside any arena. A spectator's
// screen moves to it (a rematch is a challenge, and leaves no mark on
// the game it starts).
func IsRematch(of, next store.GameRecord) bool {
	return next.ID != of.ID && next.Arena == "" && of.Arena == "" &&
		next.Players.White == of.Players.Black && next.Players.Black == of.Players.White &&
		next.Players.Rated == of.Players.Rated && next.Game.TimeControl == of.Game.TimeControl
}

// Seeks are the open seeks and the challenges to or from handle, oldest
// first.
func (l *Lobby) Seeks(handle string) []Seek {
	var out []Seek
	for _, s := range l.all() {
		if s.To == "" || s.To == handle || s.Handle == handle {
			out = append(out, s)
		}
	}
	return out
}

// Withdraw removes handle's seek id.
func (l *Lobby) Withdraw(ctx context.Context, handle, id string) error {
	_, err := l.take(ctx, id, func(s Seek) error {
		if s.Handle != handle {
			return ErrNoSeek
		}
		return nil
	})
	return err
}

// Decline refuses challenge id addressed to handle: it goes, and its
// challenger's screen, finding it gone with no game begun, says so.
func (l *Lobby) Decline(ctx context.Context, handle, id string) error {
	_, err := l.take(ctx, id, func(s Seek) error {
		if s.To != handle {
			return ErrNotForYou
		}
		return nil
	})
	return err
}

// Leave removes every seek and challenge of handle's — they
// disconnected, or joined an arena (lichess withdraws a player's seeks as
// they join a tournament) — and returns those it removed, oldest first.
func (l *Lobby) Leave(ctx context.Context, handle string) ([]Seek, error) {
	var gone []Seek
	var errs []error
	for _, s := range l.all() {
		if s.Handle != handle {
			continue
		}
		switch _, err := l.take(ctx, s.ID, func(Seek) error { return nil }); {
		case err == nil:
			gone = append(gone, s)
		case !errors.Is(err, ErrNoSeek):
			errs = append(errs, err)
		}
	}
	return gone, errors.Join(errs...)
}

// Accept takes seek id for handle and starts the game; it returns the
// game's id and the colour handle plays. The seek is gone either way: a
// seek two players accept at once goes to the first. A seek whose range
// does not admit handle's rating at its speed (Seek.Admits) is refused
// and stays, as it does for a player an arena paired a moment ago
// (Starter.Seeking). An accept that begins no game (the seek taken by
// another, the game refused) takes back handle's pause in the arenas.
func (l *Lobby) Accept(ctx context.Context, handle, id string) (gameID string, white bool, err error) {
	var takeBacks []func(context.Context) error // one a try of take's
	defer func() {
		for _, tb := range takeBacks {
			if err != nil {
				err = errors.Join(err, tb(ctx))
			}
		}
	}()
	s, err := l.take(ctx, id, func(s Seek) error {
		switch {
		case s.Handle == handle:
			return ErrOwnSeek
		case s.To != "" && s.To != handle:
			return ErrNotForYou
		case s.Range > 0 && s.To == "":
			r, err := l.st.Rating(ctx, handle, s.TC.Speed().String())
			if err != nil {
				return fmt.Errorf("accept: %w", err)
			}
			if !s.Admits(r) {
				return fmt.Errorf("%w (%s of %s; yours %s)", ErrOutOfRange, s.RangeText(), s.Rating.Shown(), r.Shown())
			}
		}
		// Last, as the seek is taken: paused in the arenas, or refused
		// (an arena paired them a moment ago) with the seek left open.
		takeBack, err := l.hub.Seeking(ctx, handle)
		if err == nil {
			takeBacks = append(takeBacks, takeBack)
		}
		return err
	})
	if err != nil {
		return "", false, err
	}
	seekerWhite := l.PlaysWhite(s.Color)
	w, b := s.Handle, handle
	if !seekerWhite {
		w, b = handle, s.Handle
	}
	gameID, err = l.hub.Start(ctx, w, b, s.TC, s.Rated)
	return gameID, !seekerWhite, err
}

// PlaysWhite says whether a player who asked for colour c plays White: as
// asked, or by lot (the lobby's seeded draw) for Random. Every game that
// gives a colour by lot draws it here: an accepted seek's and a game
// against Squall.
func (l *Lobby) PlaysWhite(c Color) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return c == White || c == Random && l.rng.IntN(2) == 0
}

// take removes seek id from the store if check allows it: the removal is
// made at the seek's revision, so of two takers only one succeeds. A
// renewal by the seek's server between the read and the removal is read
// again.
func (l *Lobby) take(ctx context.Context, id string, check func(Seek) error) (Seek, error) {
	for range 3 {
		r, found, err := l.seeks.Get(ctx, id)
		if err != nil {
			return Seek{}, err
		}
		var s Seek
		if !found || json.Unmarshal(r.Value, &s) != nil {
			return Seek{}, ErrNoSeek
		}
		if err := check(s); err != nil {
			return Seek{}, err
		}
		err = l.seeks.Remove(ctx, id, r.Rev)
		if errors.Is(err, store.ErrStale) {
			continue
		}
		if err != nil {
			return Seek{}, err
		}
		l.mu.Lock()
		delete(l.own, id)
		l.mu.Unlock()
		l.mirror.Note(store.Record{Key: id, Rev: r.Rev + 1}) // gone at once here; the bucket's echo follows
		return s, nil
	}
	return Seek{}, ErrNoSeek
}
