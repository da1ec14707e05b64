package lobby

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// fakeHub records the games started.
type fakeHub struct {
	mu    sync.Mutex
	games [][2]string
}

func (h *fakeHub) Start(_ context.Context, white, black string, _ game.TimeControl, _ bool) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.games = append(h.games, [2]string{white, black})
	return fmt.Sprint(len(h.games)), nil
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

func TestSeekAccept(t *testing.T) {
	ctx := context.Background()
	h := &fakeHub{}
	l := newLobby(t, h, 1)
	s, err := l.Seek(ctx, "ann", blitz, Black, true, "")
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
	if _, err := l.Seek(ctx, "ann", blitz, Random, false, "ann"); !errors.Is(err, ErrChallengee) {
		t.Errorf("a challenge to oneself: %v", err)
	}
	c, _ := l.Seek(ctx, "ann", blitz, Random, false, "bob")
	if len(l.Seeks("cid")) != 0 || len(l.Seeks("bob")) != 1 || len(l.Seeks("ann")) != 1 {
		t.Error("the challenge is listed to the wrong people")
	}
	if _, _, err := l.Accept(ctx, "cid", c.ID); !errors.Is(err, ErrNotForYou) {
		t.Errorf("cid takes bob's challenge: %v", err)
	}
	if _, _, err := l.Accept(ctx, "bob", c.ID); err != nil {
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
		s, err := l.Seek(ctx, "ann", blitz, Random, false, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	if _, err := l.Seek(ctx, "ann", blitz, Random, false, ""); !errors.Is(err, ErrTooMany) {
		t.Errorf("seek %d: %v", MaxSeeks+1, err)
	}
	if err := l.Withdraw(ctx, "bob", ids[0]); !errors.Is(err, ErrNoSeek) {
		t.Errorf("bob withdraws ann's seek: %v", err)
	}
	if err := l.Withdraw(ctx, "ann", ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Seek(ctx, "ann", blitz, Random, false, ""); err != nil {
		t.Errorf("after withdrawing: %v", err)
	}
	l.Leave(ctx, "ann")
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
		s, _ := l.Seek(ctx, "ann", blitz, Random, false, "")
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
	s, _ := l.Seek(ctx, "ann", blitz, Random, false, "")
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
	s, err := l.Seek(ctx, "ann", blitz, White, true, "")
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
	s, err := a.Seek(ctx, "ann", blitz, White, true, "")
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
	fast := game.TimeControl{Base: 60 * time.Millisecond}
	for _, to := range []string{"", "bob"} {
		_, err := l.Seek(ctx, "ann", fast, Black, true, to)
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
		if _, err := l.Seek(ctx, "ann", ok.tc, Random, ok.rated, ""); err != nil {
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
	if s, err := l.Seek(ctx, "ann", blitz, Random, true, ""); err != nil || s.Rating != r {
		t.Fatalf("ann's blitz seek: %+v %v", s, err)
	}
	if s, err := l.Seek(ctx, "ann", game.TimeControl{Base: time.Minute}, Random, true, ""); err != nil || s.Rating != rating.New() {
		t.Errorf("ann's bullet seek (no bullet rating): %+v %v", s, err)
	}
	if seeks := l.Seeks("bob"); len(seeks) != 2 || seeks[0].Rating != r {
		t.Errorf("the seeks bob is shown: %+v", seeks)
	}
}
