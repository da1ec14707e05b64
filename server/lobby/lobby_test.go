package lobby

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/server/store/storetest"
)

// fakeHub records the games started, and refuses the players in refuse
// as they seek (an arena paired them a moment ago); startErr refuses
// every game. seeking runs as a player seeks, and takenBack records the
// players whose pause the lobby took back.
type fakeHub struct {
	mu        sync.Mutex
	games     [][2]string
	refuse    map[string]error
	startErr  error
	seeking   func()
	takenBack []string
}

func (h *fakeHub) Start(_ context.Context, white, black string, _ game.TimeControl, _ bool) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.startErr != nil {
		return "", h.startErr
	}
	h.games = append(h.games, [2]string{white, black})
	return fmt.Sprint(len(h.games)), nil
}

func (h *fakeHub) Seeking(_ context.Context, handle string) (func(context.Context) error, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seeking != nil {
		h.seeking()
	}
	return func(context.Context) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.takenBack = append(h.takenBack, handle)
		return nil
	}, h.refuse[handle]
}

// TestSeekingTakenBack (issue 37): a player's pause in the arenas stands
// only for a seek opened or a game begun. A seek that fails after the hub
// paused its seeker (here the context ends as the seek is being stored),
// and an accept whose game the hub refuses, take the pause back; a seek
// opened and a game begun do not.
func TestSeekingTakenBack(t *testing.T) {
	h := &fakeHub{}
	l := newLobby(t, h, 1)
	taken := func() []string {
		h.mu.Lock()
		defer h.mu.Unlock()
		return slices.Clone(h.takenBack)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.seeking = cancel // the context ends once the seeker is paused
	if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz}); err == nil {
		t.Fatal("test premise: a seek stored after its context ended")
	}
	h.seeking = nil
	if got := taken(); !slices.Equal(got, []string{"ann"}) {
		t.Fatalf("ann's seek failed: pauses taken back %v, want ann's", got)
	}
	ctx = context.Background()
	s, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz})
	if err != nil {
		t.Fatal(err)
	}
	h.startErr = errors.New("ann is already playing a game")
	if _, _, err := l.Accept(ctx, "bob", s.ID); !errors.Is(err, h.startErr) {
		t.Fatalf("bob's accept: %v, want the hub's refusal", err)
	}
	if got := taken(); !slices.Equal(got, []string{"ann", "bob"}) {
		t.Fatalf("bob's accept began no game: pauses taken back %v, want ann's and bob's", got)
	}
	h.startErr = nil
	s, err = l.Seek(ctx, Seek{Handle: "ann", TC: blitz})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Accept(ctx, "cy", s.ID); err != nil {
		t.Fatal(err)
	}
	if got := taken(); len(got) != 2 {
		t.Errorf("a seek opened and a game begun: pauses taken back %v, want none more", got)
	}
}

// TestSeekingRefused: a player the hub refuses as they seek (an arena
// paired them a moment ago: play.Hub.Seeking) opens no seek, and their
// accept of another's leaves it open for someone else.
func TestSeekingRefused(t *testing.T) {
	ctx := context.Background()
	busy := errors.New("paired in Hourly Blitz Arena a moment ago")
	h := &fakeHub{refuse: map[string]error{"bob": busy}}
	l := newLobby(t, h, 1)
	if _, err := l.Seek(ctx, Seek{Handle: "bob", TC: blitz, Rated: true}); !errors.Is(err, busy) {
		t.Fatalf("bob's seek: %v, want refused", err)
	}
	s, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Accept(ctx, "bob", s.ID); !errors.Is(err, busy) {
		t.Fatalf("bob's accept: %v, want refused", err)
	}
	if _, _, err := l.Accept(ctx, "cy", s.ID); err != nil || len(h.games) != 1 {
		t.Fatalf("cy's accept of the seek bob could not take: %v, games %v", err, h.games)
	}
}

var blitz = game.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}

// newLobby is a running lobby on a store of its own.
func newLobby(t *testing.T, h Starter, seed uint64) *Lobby {
	t.Helper()
	st, err := store.Open(context.Background(), store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return runLobby(t, h, st, seed)
}

// runLobby is a lobby on st, running until the test ends.
func runLobby(t *testing.T, h Starter, st *store.Store, seed uint64) *Lobby {
	t.Helper()
	l, err := New(context.Background(), h, st, nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); l.Run(ctx, func(err error) { t.Errorf("lobby: %v", err) }) }()
	t.Cleanup(func() { cancel(); <-done })
	return l
}

// players gives each handle an account in l's store (a challenge is to a
// player who has one).
func players(t *testing.T, l *Lobby, handles ...string) {
	t.Helper()
	for _, h := range handles {
		if _, err := l.st.CreateAccount(context.Background(), "SHA256:"+h, h, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSeekAccept(t *testing.T) {
	ctx := context.Background()
	h := &fakeHub{}
	l := newLobby(t, h, 1)
	s, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Black, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Accept(ctx, "ann", s.ID); !errors.Is(err, ErrOwnSeek) {
		t.Errorf("accepting one's own seek: %v", err)
	}
	id, white, err := l.Accept(ctx, "bob", s.ID)
	if err != nil || !white || id != "1" || h.games[0] != [2]string{"bob", "ann"} {
		t.Fatalf("accept: %q white=%v %v, games %v", id, white, err, h.games)
	}
	if _, _, err := l.Accept(ctx, "cid", s.ID); !errors.Is(err, ErrNoSeek) {
		t.Errorf("a seek taken twice: %v", err)
	}
	if len(l.Seeks("cid")) != 0 {
		t.Error("the taken seek is still listed")
	}
}

// TestChallenge: a challenge is listed to its addressee and its sender
// only, and only the addressee may accept it.
func TestChallenge(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, &fakeHub{}, 1)
	players(t, l, "ann", "Bob")
	for _, to := range []string{"ann", "ANN"} {
		if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random, To: to}); !errors.Is(err, ErrChallengee) {
			t.Errorf("a challenge to oneself (%s): %v", to, err)
		}
	}
	if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random, To: "nobody"}); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("a challenge to a handle nobody holds: %v", err)
	}
	c, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random, To: "bob"})
	if err != nil || c.To != "Bob" {
		t.Fatalf("a challenge to bob (who spells it Bob): %+v %v", c, err)
	}
	if len(l.Seeks("cid")) != 0 || len(l.Seeks("Bob")) != 1 || len(l.Seeks("ann")) != 1 {
		t.Error("the challenge is listed to the wrong people")
	}
	if _, _, err := l.Accept(ctx, "cid", c.ID); !errors.Is(err, ErrNotForYou) {
		t.Errorf("cid takes Bob's challenge: %v", err)
	}
	if _, _, err := l.Accept(ctx, "Bob", c.ID); err != nil {
		t.Error(err)
	}
}

// TestSeekLimits: a handle has at most MaxSeeks open; withdrawing or
// leaving frees them.
func TestSeekLimits(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, &fakeHub{}, 1)
	var ids []string
	for range MaxSeeks {
		s, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random}); !errors.Is(err, ErrTooMany) {
		t.Errorf("seek %d: %v", MaxSeeks+1, err)
	}
	if err := l.Withdraw(ctx, "bob", ids[0]); !errors.Is(err, ErrNoSeek) {
		t.Errorf("bob withdraws ann's seek: %v", err)
	}
	if err := l.Withdraw(ctx, "ann", ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random}); err != nil {
		t.Errorf("after withdrawing: %v", err)
	}
	if gone, err := l.Leave(ctx, "ann"); err != nil || len(gone) != MaxSeeks || gone[0].ID != ids[1] {
		t.Errorf("ann leaves: %v withdrawn (%v), want her %d seeks, oldest first", gone, err, MaxSeeks)
	}
	if len(l.Seeks("ann")) != 0 {
		t.Error("seeks outlive their seeker")
	}
}

// TestRandomColours: random seeks give both colours.
func TestRandomColours(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, &fakeHub{}, 7)
	whites := 0
	for range 40 {
		s, _ := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random})
		if _, white, err := l.Accept(ctx, "bob", s.ID); err != nil {
			t.Fatal(err)
		} else if white {
			whites++
		}
	}
	if whites == 0 || whites == 40 {
		t.Errorf("bob had White %d times of 40", whites)
	}
}

// TestAcceptRace: of many players accepting one seek at once, one gets it.
func TestAcceptRace(t *testing.T) {
	ctx := context.Background()
	h := &fakeHub{}
	l := newLobby(t, h, 1)
	s, _ := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Accept(ctx, fmt.Sprint("p", i), s.ID)
		}()
	}
	wg.Wait()
	if len(h.games) != 1 {
		t.Errorf("%d games from one seek", len(h.games))
	}
}

// TestRenewalAnswerLost: a renewal that reached the store but whose
// answer did not (a timeout) leaves the lobby a revision behind its own
// seek; the next renewal, refused as stale, finds the seek as this lobby
// wrote it and goes on renewing it rather than letting it lapse.
func TestRenewalAnswerLost(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	l, err := New(ctx, &fakeHub{}, st, nil, 1) // not running: the test renews
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: White, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	seeks, err := st.Ephemeral(ctx, seeksBucket, SeekTTL)
	if err != nil {
		t.Fatal(err)
	}
	r, found, err := seeks.Get(ctx, s.ID)
	if err != nil || !found {
		t.Fatal(found, err)
	}
	landed, err := seeks.Renew(ctx, s.ID, r.Value, r.Rev) // the lobby's write, its answer lost
	if err != nil {
		t.Fatal(err)
	}
	l.renew(ctx) // refused (stale): finds its own write
	l.renew(ctx) // renews it
	r, found, err = seeks.Get(ctx, s.ID)
	if err != nil || !found || r.Rev <= landed {
		t.Errorf("the seek at revision %d (found %v, %v), last renewed at %d: no longer renewed", r.Rev, found, err, landed)
	}
	// A seek taken meanwhile is no longer renewed.
	if err := seeks.Remove(ctx, s.ID, r.Rev); err != nil {
		t.Fatal(err)
	}
	l.renew(ctx)
	if _, found, _ := seeks.Get(ctx, s.ID); found {
		t.Error("a taken seek written again")
	}
	if len(l.own) != 0 {
		t.Errorf("the lobby still renews %v", l.own)
	}
}

// TestTwoServers: two lobbies on one store (two servers of a cluster):
// each lists the other's seeks, a player on one accepts a seek made on
// the other, and a seek taken on one is gone from both.
func TestTwoServers(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // after the lobbies stop
	h := &fakeHub{}
	a, b := runLobby(t, h, st, 1), runLobby(t, h, st, 2)
	s, err := a.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: White, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "ann's seek on b", func() bool { return len(b.Seeks("bob")) == 1 })
	if got := b.Seeks("bob")[0]; got.ID != s.ID || got.Handle != "ann" || got.TC != blitz || got.Color != White || !got.Rated {
		t.Errorf("b lists %+v, a opened %+v", got, s)
	}
	if _, white, err := b.Accept(ctx, "bob", s.ID); err != nil || white {
		t.Fatalf("bob accepts on b: white %v, %v", white, err)
	}
	waitUntil(t, "the seek gone from a", func() bool { return len(a.Seeks("ann")) == 0 })
	if len(h.games) != 1 || h.games[0] != [2]string{"ann", "bob"} {
		t.Errorf("games %v", h.games)
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 10 s", what)
		}
	}
}

// TestRatedLeastControl is issue 33's F1 at the lobby: a rated seek of
// 0.001+0 (60 ms) was opened, accepted and rated (1500 → 1338 on a flag
// after e4 e5). A rated seek or challenge needs a control whose base + 40
// × increment comes to 15 s (¼+0, 0+1); a faster one may be casual.
func TestRatedLeastControl(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, &fakeHub{}, 1)
	players(t, l, "bob")
	fast := game.TimeControl{Base: 60 * time.Millisecond}
	for _, to := range []string{"", "bob"} {
		_, err := l.Seek(ctx, Seek{Handle: "ann", TC: fast, Color: Black, Rated: true, To: to})
		if err == nil || !strings.Contains(err.Error(), "too fast to be rated: base + 40 × increment is 60ms, under 15s") {
			t.Errorf("a rated 60 ms seek (to %q): %v", to, err)
		}
	}
	if len(l.Seeks("bob")) != 0 {
		t.Fatalf("listed: %+v", l.Seeks("bob"))
	}
	for _, ok := range []struct {
		tc    game.TimeControl
		rated bool
	}{{fast, false}, {game.TimeControl{Base: 15 * time.Second}, true}, {game.TimeControl{Increment: time.Second}, true}} {
		if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: ok.tc, Color: Random, Rated: ok.rated}); err != nil {
			t.Errorf("%+v rated %v: %v", ok.tc, ok.rated, err)
		}
	}
}

// TestRematch (issue 37): a rematch is a challenge to the opponent marked
// with the finished game: colours swapped, the same control, rated as it
// was; asked twice it is one challenge; the opponent asking back accepts
// it and the game starts at once; a stranger cannot ask.
func TestRematch(t *testing.T) {
	ctx := context.Background()
	h := &fakeHub{}
	l := newLobby(t, h, 1)
	of := store.GameRecord{ID: "g1", Players: store.Players{White: "ann", Black: "bob", Rated: true}, Game: game.State{TimeControl: blitz}}
	if _, err := l.Rematch(ctx, "cid", of); !errors.Is(err, ErrRematch) {
		t.Errorf("a stranger's rematch: %v", err)
	}
	for range 2 {
		if id, err := l.Rematch(ctx, "ann", of); id != "" || err != nil {
			t.Fatalf("ann asks: %q %v", id, err)
		}
	}
	seeks := l.Seeks("bob")
	if len(seeks) != 1 {
		t.Fatalf("bob sees %+v", seeks)
	}
	if s := seeks[0]; s.Handle != "ann" || s.To != "bob" || s.Color != Black || s.TC != blitz || !s.Rated || s.Rematch != "g1" {
		t.Errorf("the rematch challenge: %+v", s)
	}
	id, err := l.Rematch(ctx, "bob", of)
	if err != nil || id != "1" || len(h.games) != 1 || h.games[0] != [2]string{"bob", "ann"} {
		t.Fatalf("bob accepts: %q %v, games %v", id, err, h.games)
	}
	if len(l.Seeks("bob")) != 0 {
		t.Error("the accepted rematch is still listed")
	}
}

// TestSeekRating: a seek carries its seeker's rating at its control's
// speed as it was opened, as every server lists it.
func TestSeekRating(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	l := runLobby(t, &fakeHub{}, st, 1)
	r := rating.Rating{Rating: 1712, RD: 80, Volatility: 0.06}
	if err := st.PutRating(ctx, "ann", "blitz", r); err != nil {
		t.Fatal(err)
	}
	if s, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: Random, Rated: true}); err != nil || s.Rating != r {
		t.Fatalf("ann's blitz seek: %+v %v", s, err)
	}
	if s, err := l.Seek(ctx, Seek{Handle: "ann", TC: game.TimeControl{Base: time.Minute}, Color: Random, Rated: true}); err != nil || s.Rating != rating.New() {
		t.Errorf("ann's bullet seek (no bullet rating): %+v %v", s, err)
	}
	if seeks := l.Seeks("bob"); len(seeks) != 2 || seeks[0].Rating != r {
		t.Errorf("the seeks bob is shown: %+v", seeks)
	}
}

// TestSeekRange (issue 37): a seek with a rating range (±200) may be
// accepted only by a player whose rating at its speed is within it of the
// seeker's — refused in the lobby, the seek staying open — and Admits
// says so to the screens; a challenge has no range.
func TestSeekRange(t *testing.T) {
	ctx := context.Background()
	h := &fakeHub{}
	l := newLobby(t, h, 1)
	players(t, l, "ann", "bob", "cid", "dan")
	for handle, r := range map[string]float64{"ann": 1700, "bob": 1950, "cid": 1500, "dan": 1899.6} {
		if err := l.st.PutRating(ctx, handle, "blitz", rating.Rating{Rating: r, RD: 60, Volatility: 0.06}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Range: 200, To: "bob"}); !errors.Is(err, ErrRange) {
		t.Errorf("a challenge with a range: %v", err)
	}
	if _, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Range: -5}); !errors.Is(err, ErrRange) {
		t.Errorf("a negative range: %v", err)
	}
	s, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Rated: true, Range: 200})
	if err != nil || s.Range != 200 || s.RangeText() != "±200" {
		t.Fatalf("ann's seek: %+v %v", s, err)
	}
	for _, c := range []struct {
		r    float64
		want bool
	}{{1500, true}, {1900, true}, {1900.4, true}, {1901, false}, {1499, false}} {
		if got := s.Admits(rating.Rating{Rating: c.r}); got != c.want {
			t.Errorf("Admits(%v) = %v", c.r, got)
		}
	}
	if _, _, err := l.Accept(ctx, "bob", s.ID); !errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "±200 of 1700; yours 1950") {
		t.Errorf("bob (1950) accepts 1700 ±200: %v", err)
	}
	if len(l.Seeks("cid")) != 1 || len(h.games) != 0 {
		t.Fatalf("after a refused acceptance: seeks %v, games %v", l.Seeks("cid"), h.games)
	}
	if _, _, err := l.Accept(ctx, "dan", s.ID); err != nil { // 1899.6 shows as 1900
		t.Fatalf("dan (1900) accepts: %v", err)
	}
	if len(h.games) != 1 {
		t.Errorf("games %v", h.games)
	}
	wide, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, Range: MaxRange + 1})
	if err != nil || wide.Range != 0 || !wide.Admits(rating.Rating{Rating: 3000}) {
		t.Errorf("a range wider than MaxRange: %+v %v", wide, err)
	}
}

// TestDecline: only its addressee declines a challenge, which then goes.
func TestDecline(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, &fakeHub{}, 1)
	players(t, l, "ann", "bob")
	c, err := l.Seek(ctx, Seek{Handle: "ann", TC: blitz, To: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Decline(ctx, "ann", c.ID); !errors.Is(err, ErrNotForYou) {
		t.Errorf("ann declines her own challenge: %v", err)
	}
	if err := l.Decline(ctx, "bob", c.ID); err != nil {
		t.Fatal(err)
	}
	if len(l.Seeks("bob")) != 0 || len(l.Seeks("ann")) != 0 {
		t.Error("a declined challenge is still listed")
	}
	if err := l.Decline(ctx, "bob", c.ID); !errors.Is(err, ErrNoSeek) {
		t.Errorf("declined twice: %v", err)
	}
}

// TestChallengeAcrossCluster (issue 37): a challenge by handle made on one
// server of a NATS cluster is listed to its addressee on another, who
// accepts it there; the handle is found as its player spells it.
func TestChallengeAcrossCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("a three-node cluster")
	}
	_, urls := storetest.Cluster(t, 3)
	sa, sb := storetest.Open(t, urls[:1], 3), storetest.Open(t, urls[1:2], 3)
	h := &fakeHub{}
	a, b := runLobby(t, h, sa, 1), runLobby(t, h, sb, 2)
	players(t, a, "ann", "Bob")
	var c Seek
	storetest.Eventually(t, "the challenge", func(ctx context.Context) error {
		var err error
		c, err = a.Seek(ctx, Seek{Handle: "ann", TC: blitz, Color: White, Rated: true, To: "BOB"})
		return err
	})
	waitUntil(t, "ann's challenge on b", func() bool { return len(b.Seeks("Bob")) == 1 })
	if got := b.Seeks("Bob")[0]; got.ID != c.ID || got.To != "Bob" || got.Handle != "ann" {
		t.Errorf("b lists %+v", got)
	}
	if len(b.Seeks("cid")) != 0 {
		t.Error("the challenge is listed to cid")
	}
	if _, white, err := b.Accept(context.Background(), "Bob", c.ID); err != nil || white {
		t.Fatalf("Bob accepts on b: white %v, %v", white, err)
	}
	waitUntil(t, "the challenge gone from a", func() bool { return len(a.Seeks("ann")) == 0 })
	if len(h.games) != 1 || h.games[0] != [2]string{"ann", "Bob"} {
		t.Errorf("games %v", h.games)
	}
}

// TestIsRematch: the return game is the same players with colours
// swapped, the same control and kind, outside an arena; anything else is
// another game.
func TestIsRematch(t *testing.T) {
	of := store.GameRecord{ID: "g1", Players: store.Players{White: "ann", Black: "bob", Rated: true}, Game: game.State{TimeControl: blitz}}
	next := store.GameRecord{ID: "g2", Players: store.Players{White: "bob", Black: "ann", Rated: true}, Game: game.State{TimeControl: blitz}}
	if !IsRematch(of, next) {
		t.Errorf("%+v is not a rematch of %+v", next, of)
	}
	for name, change := range map[string]func(*store.GameRecord){
		"the same game":        func(g *store.GameRecord) { g.ID = "g1" },
		"colours as they were": func(g *store.GameRecord) { g.Players.White, g.Players.Black = "ann", "bob" },
		"another opponent":     func(g *store.GameRecord) { g.Players.Black = "cid" },
		"casual":               func(g *store.GameRecord) { g.Players.Rated = false },
		"another control":      func(g *store.GameRecord) { g.Game.TimeControl.Base++ },
		"an arena's":           func(g *store.GameRecord) { g.Arena = "a1" },
	} {
		g := next
		change(&g)
		if IsRematch(of, g) {
			t.Errorf("%s: %+v is taken for a rematch", name, g)
		}
	}
}
