package arena

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/pgn"
)

var t0 = time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)

func bulletArena() Definition {
	return Definition{ID: "a1", Name: "Hourly Bullet", Start: t0, Length: 10 * time.Minute,
		Control: clock.TimeControl{Base: time.Minute}}
}

// fixture is an arena under test and its log.
type fixture struct {
	t      *testing.T
	a      *Arena
	log    []Event
	nextID int
}

func newFixture(t *testing.T, def Definition) *fixture {
	return &fixture{t: t, a: New(def)}
}

func (f *fixture) apply(e Event) {
	f.t.Helper()
	if err := f.a.Apply(e); err != nil {
		f.t.Fatal(err)
	}
	f.log = append(f.log, e)
}

func (f *fixture) join(at time.Time, handle string, rating int) {
	f.t.Helper()
	f.apply(Event{Kind: Join, At: at, Player: handle, Rating: rating})
}

// wave asks for the wave at at and applies it, each game given an id.
func (f *fixture) wave(at time.Time) []Pairing {
	f.t.Helper()
	pairs := f.a.Pair(at)
	if len(pairs) == 0 {
		return nil
	}
	for i := range pairs {
		f.nextID++
		pairs[i].Game = fmt.Sprintf("g%d", f.nextID)
	}
	f.apply(Event{Kind: Pair, At: at, Pairs: pairs})
	return pairs
}

func (f *fixture) finish(at time.Time, game, result string, plies int) {
	f.t.Helper()
	f.apply(Event{Kind: Finish, At: at, Game: game, Result: result, Plies: plies})
}

func names(pairs []Pairing) string {
	var s []string
	for _, p := range pairs {
		s = append(s, p.White+"-"+p.Black)
	}
	return strings.Join(s, " ")
}

// TestFirstWave pairs everyone at the start, neighbours by rating, the
// better ranked White when colours are even; an odd player out is the one
// who joined last.
func TestFirstWave(t *testing.T) {
	f := newFixture(t, bulletArena())
	for i, h := range []string{"ann", "bob", "cy", "dee", "eve"} {
		f.join(t0.Add(-time.Minute+time.Duration(i)*time.Second), h, 2000-100*i)
	}
	if p := f.a.Pair(t0.Add(-time.Second)); p != nil {
		t.Fatalf("paired before the start: %v", p)
	}
	got := names(f.wave(t0))
	if got != "ann-bob cy-dee" {
		t.Fatalf("first wave %q, want ann-bob cy-dee (eve, last to join, sits out)", got)
	}
	if w := f.a.Waiting(); len(w) != 1 || w[0].Handle != "eve" {
		t.Fatalf("waiting %v, want eve", w)
	}
}

// TestNoImmediateRematch: in an arena of more than DuelPlayers players,
// two who just played each other and are the only ones waiting are not
// paired; a third waiting player is paired with one of them.
func TestNoImmediateRematch(t *testing.T) {
	f := newFixture(t, bulletArena())
	for i := range 14 {
		f.join(t0.Add(-time.Minute), fmt.Sprintf("p%02d", i), 2000-10*i)
	}
	first := f.wave(t0)
	if len(first) != 7 {
		t.Fatalf("first wave %d pairs", len(first))
	}
	g := first[0]
	f.finish(t0.Add(30*time.Second), g.Game, pgn.WhiteWins, 30)
	late := t0.Add(2 * time.Minute)
	if p := f.a.Pair(late); p != nil {
		t.Fatalf("paired %s again at once", names(p))
	}
	other := first[1]
	f.finish(t0.Add(40*time.Second), other.Game, pgn.Draw, 30)
	got := f.wave(late)
	if len(got) != 2 {
		t.Fatalf("wave %s, want two pairs of new opponents", names(got))
	}
	for _, p := range got {
		if pairOf(p) == pairOf(g) || pairOf(p) == pairOf(other) {
			t.Fatalf("wave %s repeats a pairing", names(got))
		}
	}
}

func pairOf(p Pairing) string {
	if p.White < p.Black {
		return p.White + "/" + p.Black
	}
	return p.Black + "/" + p.White
}

// TestDuel: in a small arena the only two waiting are paired again.
func TestDuel(t *testing.T) {
	f := newFixture(t, bulletArena())
	f.join(t0, "ann", 1500)
	f.join(t0, "bob", 1500)
	f.join(t0, "cy", 1500)
	p := f.wave(t0)
	if len(p) != 1 {
		t.Fatalf("wave %s", names(p))
	}
	f.finish(t0.Add(time.Minute), p[0].Game, pgn.Draw, 40)
	f.apply(Event{Kind: Pause, At: t0.Add(time.Minute), Player: "cy"})
	again := f.wave(t0.Add(time.Minute + WaitBeforePairing(f.a.Def.Control)))
	if len(again) != 1 || pairOf(again[0]) != pairOf(p[0]) {
		t.Fatalf("wave %s, want the duel again", names(again))
	}
	if again[0].White != p[0].Black {
		t.Fatalf("colours %s after %s: want them swapped", names(again), names(p))
	}
}

// TestWaveWaits: after the first games, a wave waits until two players
// have waited WaitBeforePairing (15 s at 1+0), and then pairs everyone
// waiting, also those who came later.
func TestWaveWaits(t *testing.T) {
	f := newFixture(t, bulletArena())
	for i := range 4 {
		f.join(t0, fmt.Sprintf("p%d", i), 1500)
	}
	p := f.wave(t0)
	end := t0.Add(time.Minute)
	f.finish(end, p[0].Game, pgn.WhiteWins, 30)
	f.finish(end.Add(5*time.Second), p[1].Game, pgn.BlackWins, 30)
	wait := WaitBeforePairing(f.a.Def.Control)
	if wait != 15*time.Second {
		t.Fatalf("wait at 1+0 %v, want 15s", wait)
	}
	for _, at := range []time.Duration{0, 5 * time.Second, wait - time.Second} {
		if got := f.a.Pair(end.Add(at)); got != nil {
			t.Fatalf("wave %s after %v", names(got), at)
		}
	}
	if got := f.a.Pair(end.Add(wait)); len(got) != 2 {
		t.Fatalf("no wave once both waited %v: %v", wait, got)
	}
}

// TestPairsByScore: the winners meet the winners.
func TestPairsByScore(t *testing.T) {
	f := newFixture(t, bulletArena())
	ratings := []int{2000, 1990, 1980, 1970, 1960, 1950, 1940, 1930}
	for i, r := range ratings {
		f.join(t0, fmt.Sprintf("p%d", i), r)
	}
	first := f.wave(t0) // p0-p1 p2-p3 p4-p5 p6-p7
	end := t0.Add(time.Minute)
	winners := map[string]bool{}
	for i, p := range first {
		res, w := pgn.WhiteWins, p.White
		if i%2 == 1 {
			res, w = pgn.BlackWins, p.Black
		}
		winners[w] = true
		f.finish(end, p.Game, res, 30)
	}
	got := f.wave(end.Add(time.Minute))
	if len(got) != 4 {
		t.Fatalf("wave %s", names(got))
	}
	for _, p := range got {
		if winners[p.White] != winners[p.Black] {
			t.Fatalf("wave %s pairs a winner with a loser", names(got))
		}
	}
}

// TestColourStrike: two players on a strike of three Whites are not
// paired together.
func TestColourStrike(t *testing.T) {
	a, b := colorHistory{}, colorHistory{}
	for range MaxStrike {
		a, b = a.add(white), b.add(white)
	}
	if a.couldPlay(b) {
		t.Fatal("two players with three Whites in a row may meet")
	}
	if c := (colorHistory{}).add(black); !a.couldPlay(c) || !c.less(a) {
		t.Fatal("a player with Black last should get White against a strike of Whites")
	}
}

// TestRefusals: events that cannot happen are refused, the state kept.
func TestRefusals(t *testing.T) {
	f := newFixture(t, bulletArena())
	f.join(t0, "ann", 1500)
	f.join(t0, "bob", 1500)
	p := f.wave(t0)
	zero := Definition{ID: "z", Name: "Zero", Start: t0, Length: 10 * time.Minute,
		Control: clock.TimeControl{Increment: time.Second}}
	z := New(zero)
	for _, e := range []Event{{Kind: Join, At: t0, Player: "ann"}, {Kind: Join, At: t0, Player: "bob"},
		{Kind: Pair, At: t0, Pairs: []Pairing{{Game: "z1", White: "ann", Black: "bob"}}}} {
		if err := z.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		a *Arena
		e Event
	}{
		{f.a, Event{Kind: Join, At: t0, Player: "ANN"}},
		{f.a, Event{Kind: Join, At: t0.Add(time.Hour), Player: "cy"}},
		{f.a, Event{Kind: Join, At: t0}},
		{f.a, Event{Kind: Pause, At: t0, Player: "cy"}},
		{f.a, Event{Kind: Pair, At: t0, Pairs: []Pairing{{Game: "g9", White: "ann", Black: "bob"}}}},
		{f.a, Event{Kind: Pair, At: t0, Pairs: []Pairing{{Game: p[0].Game, White: "x", Black: "y"}}}},
		{f.a, Event{Kind: Finish, At: t0, Game: "nope", Result: pgn.Draw}},
		{f.a, Event{Kind: Finish, At: t0, Game: p[0].Game, Result: "2-0"}},
		{f.a, Event{Kind: Finish, At: t0, Game: p[0].Game, Result: pgn.WhiteWins, Absent: "ann"}},
		{f.a, Event{Kind: Berserk, At: t0, Game: p[0].Game, Player: "cy"}},
		{z, Event{Kind: Berserk, At: t0, Game: "z1", Player: "ann"}},
		{f.a, Event{Kind: "dance", At: t0}},
	} {
		before := c.a.Standings()
		n := c.a.Events()
		if err := c.a.Apply(c.e); err == nil {
			t.Errorf("%+v: applied", c.e)
		}
		if c.a.Events() != n || !reflect.DeepEqual(before, c.a.Standings()) {
			t.Errorf("%+v: the refusal changed the arena", c.e)
		}
	}
	f.apply(Event{Kind: Berserk, At: t0, Game: p[0].Game, Player: "ann"})
	if err := f.a.Apply(Event{Kind: Berserk, At: t0, Game: p[0].Game, Player: "ann"}); err == nil {
		t.Error("berserked twice")
	}
}

// TestWithdrawAndPause: a withdrawal before the start leaves nothing;
// after it the score stays and joining again resumes; an aborted game
// scores nothing and pauses its absent player; a game ending after the
// end does not count.
func TestWithdrawAndPause(t *testing.T) {
	f := newFixture(t, bulletArena())
	f.join(t0.Add(-time.Minute), "ann", 1500)
	f.join(t0.Add(-time.Minute), "bob", 1500)
	f.join(t0.Add(-time.Minute), "cy", 1500)
	f.apply(Event{Kind: Withdraw, At: t0.Add(-time.Second), Player: "cy"})
	if s := f.a.Standings(); len(s) != 2 {
		t.Fatalf("standings %v after cy withdrew before the start", s)
	}
	p := f.wave(t0)[0]
	f.finish(t0.Add(time.Minute), p.Game, pgn.WhiteWins, 30)
	f.apply(Event{Kind: Withdraw, At: t0.Add(time.Minute), Player: p.White})
	s := f.a.Standings()
	if s[0].Handle != p.White || s[0].Score != 2 || !s[0].Paused {
		t.Fatalf("standings %+v: want %s first with 2, paused", s, p.White)
	}
	if got := f.a.Pair(t0.Add(5 * time.Minute)); got != nil {
		t.Fatalf("paired a paused player: %s", names(got))
	}
	f.join(t0.Add(2*time.Minute), p.White, 1510)
	q := f.wave(t0.Add(5 * time.Minute))
	if len(q) != 1 {
		t.Fatal("no wave after joining again")
	}
	f.apply(Event{Kind: Finish, At: t0.Add(6 * time.Minute), Game: q[0].Game, Result: pgn.Unknown, Absent: q[0].White})
	s = f.a.Standings()
	for _, x := range s {
		if x.Score != map[string]int{p.White: 2, p.Black: 0}[x.Handle] {
			t.Fatalf("an aborted game scored: %+v", s)
		}
		if x.Paused != (x.Handle == q[0].White) {
			t.Fatalf("paused: %+v, want only %s (absent)", s, q[0].White)
		}
	}
	f.join(t0.Add(7*time.Minute), q[0].White, 1510)
	r := f.wave(t0.Add(9 * time.Minute))
	f.finish(t0.Add(10*time.Minute), r[0].Game, pgn.WhiteWins, 40)
	if s := f.a.Standings(); s[0].Score+s[1].Score != 2 {
		t.Fatalf("a game ending at the end counted: %+v", s)
	}
	if got := f.a.Pair(t0.Add(10 * time.Minute)); got != nil {
		t.Fatal("paired at the end")
	}
}

// TestPausedWhy: the standings say why a player is paused — the server
// paused them as they play outside the arena (a Pause marked Elsewhere),
// or their own doing: a plain Pause (they left), a withdrawal after the
// start, absent from a game; joining again clears it. A log written
// before the mark was kept reads every pause as their own.
func TestPausedWhy(t *testing.T) {
	f := newFixture(t, bulletArena())
	for _, h := range []string{"ann", "bob", "cy", "dee"} {
		f.join(t0.Add(-time.Minute), h, 1500)
	}
	at := t0.Add(time.Second)
	f.apply(Event{Kind: Pause, At: at, Player: "ann", Elsewhere: true})
	f.apply(Event{Kind: Pause, At: at, Player: "bob"})
	f.apply(Event{Kind: Withdraw, At: at, Player: "cy"})
	p := f.wave(t0.Add(time.Minute))
	if len(p) != 0 {
		t.Fatalf("paired %s with three of four paused", names(p))
	}
	f.join(t0.Add(time.Minute), "ann", 1500)
	p = f.wave(t0.Add(2 * time.Minute))
	f.apply(Event{Kind: Finish, At: t0.Add(3 * time.Minute), Game: p[0].Game, Result: pgn.Unknown, Absent: p[0].White})
	want := map[string]bool{p[0].White: false, "bob": false, "cy": false} // paused, their own doing
	why := func(a *Arena) map[string]bool {
		got := map[string]bool{}
		for _, s := range a.Standings() {
			if s.Paused {
				got[s.Handle] = s.Elsewhere
			}
		}
		return got
	}
	if got := why(f.a); !reflect.DeepEqual(got, want) {
		t.Errorf("paused (elsewhere?) %v, want %v", got, want)
	}
	f.apply(Event{Kind: Pause, At: t0.Add(4 * time.Minute), Player: p[0].Black, Elsewhere: true})
	want[p[0].Black] = true
	if got := why(f.a); !reflect.DeepEqual(got, want) {
		t.Errorf("paused (elsewhere?) %v, want %v", got, want)
	}

	var old []Event // as a server before the mark wrote the log
	if err := json.Unmarshal([]byte(`[{"kind":"join","at":"2026-11-27T17:59:00Z","player":"ann","rating":1500},`+
		`{"kind":"pause","at":"2026-11-27T18:01:00Z","player":"ann"}]`), &old); err != nil {
		t.Fatal(err)
	}
	a, err := Replay(bulletArena(), old)
	if err != nil {
		t.Fatal(err)
	}
	if got := why(a); !reflect.DeepEqual(got, map[string]bool{"ann": false}) {
		t.Errorf("an old log's pause: paused (elsewhere?) %v, want ann's own", got)
	}
}

// TestStandingsOrder: score, then performance once a player has three
// games, else rating, then handle.
func TestStandingsOrder(t *testing.T) {
	s := []Standing{
		{Handle: "low", Score: 4, Rating: 1400},
		{Handle: "high", Score: 4, Rating: 1800},
		{Handle: "perf", Score: 4, Rating: 1300, Wins: 2, Losses: 1, Performance: 1900},
		{Handle: "top", Score: 6, Rating: 1000},
		{Handle: "b-same", Score: 0, Rating: 1500},
		{Handle: "a-same", Score: 0, Rating: 1500},
	}
	rank(s)
	var got []string
	for i, x := range s {
		if x.Rank != i+1 {
			t.Fatalf("rank %d at %d", x.Rank, i)
		}
		got = append(got, x.Handle)
	}
	if strings.Join(got, " ") != "top perf high low a-same b-same" {
		t.Fatalf("order %v", got)
	}
}

// TestEventsJSON: a log read back from JSON replays to the same arena.
func TestEventsJSON(t *testing.T) {
	f := newFixture(t, bulletArena())
	simulate(t, f, 6, 1)
	b, err := json.Marshal(f.log)
	if err != nil {
		t.Fatal(err)
	}
	var back []Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	a, err := Replay(f.a.Def, back)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Standings(), f.a.Standings()) {
		t.Fatalf("replayed standings differ:\n%+v\n%+v", a.Standings(), f.a.Standings())
	}
}

// TestDefinitionCheck refuses what an arena cannot be.
func TestDefinitionCheck(t *testing.T) {
	if err := bulletArena().Check(); err != nil {
		t.Fatal(err)
	}
	for _, mut := range []func(*Definition){
		func(d *Definition) { d.ID = "" },
		func(d *Definition) { d.Name = " " },
		func(d *Definition) { d.Name = "x\x1b[2J" },
		func(d *Definition) { d.Start = time.Time{} },
		func(d *Definition) { d.Length = 30 * time.Second },
		func(d *Definition) { d.Length = 25 * time.Hour },
		func(d *Definition) { d.Control = clock.TimeControl{Base: 10 * time.Second} },
	} {
		d := bulletArena()
		mut(&d)
		if d.Check() == nil {
			t.Errorf("%+v accepted", d)
		}
	}
}

// TestBerserkControl is lichess's: half the base and no increment; no
// time taken where the base is under 40 increments.
func TestBerserkControl(t *testing.T) {
	for _, c := range []struct{ in, want string }{{"3+0", "1.5+0"}, {"1+0", "0.5+0"}, {"3+2", "1.5+0"}, {"1+2", "1+0"}} {
		tc, _ := clock.ParseTimeControl(c.in)
		if got := BerserkControl(tc).String(); got != c.want {
			t.Errorf("berserk at %s: %s, want %s", c.in, got, c.want)
		}
	}
	if Berserkable(clock.TimeControl{Increment: time.Second}) {
		t.Error("berserk at 0+1")
	}
}

// TestClone: events applied to a clone leave the arena as it was.
func TestClone(t *testing.T) {
	f := newFixture(t, bulletArena())
	for _, h := range []string{"ann", "bob", "cy", "dee"} {
		f.join(t0, h, 1500)
	}
	f.wave(t0)
	before := f.a.Standings()
	c := f.a.Clone()
	for _, g := range c.InProgress() {
		if err := c.Apply(Event{Kind: Finish, At: t0.Add(time.Minute), Game: g.Game, Result: pgn.WhiteWins, Plies: 30}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Apply(Event{Kind: Join, At: t0, Player: "eve", Rating: 1500}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, f.a.Standings()) || len(f.a.InProgress()) != 2 || len(c.InProgress()) != 0 {
		t.Fatal("the clone shares the arena's state")
	}
	if s := c.Standings(); len(s) != 5 || s[0].Score != 2 {
		t.Fatalf("the clone's standings %+v", s)
	}
}
