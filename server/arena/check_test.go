package arena

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/pgn"
)

// simulate plays the fixture's arena through with n players on a fake
// clock, a pairing wave asked for every second: games last 20 to 90 s,
// results and lengths at random (seeded), a few berserks, one player
// joining late and one pausing for a while. It returns the finished games
// as the archive would keep them.
func simulate(t *testing.T, f *fixture, n int, seed uint64) []Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	def := f.a.Def
	for i := range n - 1 {
		f.join(def.Start.Add(-time.Minute), fmt.Sprintf("p%02d", i), 1200+rng.IntN(1000))
	}
	type running struct {
		Game
		ends time.Time
	}
	live := map[string]*running{}
	var games []Game
	late := fmt.Sprintf("p%02d", n-1)
	for now := def.Start; now.Before(def.End().Add(2 * time.Minute)); now = now.Add(time.Second) {
		for id, g := range live {
			if now.Before(g.ends) {
				continue
			}
			g.End = now
			g.Result = []string{pgn.WhiteWins, pgn.BlackWins, pgn.Draw, pgn.WhiteWins, pgn.BlackWins}[rng.IntN(5)]
			g.Plies = 8 + rng.IntN(90)
			f.finish(now, id, g.Result, g.Plies)
			games = append(games, g.Game)
			delete(live, id)
		}
		switch now.Sub(def.Start) {
		case 90 * time.Second:
			f.join(now, late, 1500)
		case 3 * time.Minute:
			f.apply(Event{Kind: Pause, At: now, Player: "p00"})
		case 5 * time.Minute:
			f.join(now, "p00", 1800)
		}
		for _, p := range f.wave(now) {
			g := &running{Game: Game{ID: p.Game, White: p.White, Black: p.Black, WhiteRating: p.WhiteRating,
				BlackRating: p.BlackRating, Start: now}, ends: now.Add(time.Duration(20+rng.IntN(70)) * time.Second)}
			if rng.IntN(4) == 0 {
				g.WhiteBerserk = true
				f.apply(Event{Kind: Berserk, At: now, Game: p.Game, Player: p.White})
			}
			live[p.Game] = g
		}
	}
	return games
}

// TestSimulatedArena plays arenas of 16 players for 10 minutes and checks
// them as acceptance 1 does: Verify replays the log, every wave as the
// rule makes it; Check recomputes the standings from the games alone.
// Each arena's games show no immediate rematch and enough games to mean
// something.
func TestSimulatedArena(t *testing.T) {
	for seed := range uint64(5) {
		f := newFixture(t, bulletArena())
		games := simulate(t, f, 16, seed)
		standings := f.a.Standings()
		verified, err := Verify(f.a.Def, f.log)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !reflect.DeepEqual(verified, standings) {
			t.Fatalf("seed %d: verified standings differ", seed)
		}
		if err := Check(f.a.Def, games, standings); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(games) < 60 {
			t.Fatalf("seed %d: only %d games in 10 minutes of 16 players", seed, len(games))
		}
		if seed == 0 {
			t.Logf("%d games; top: %+v", len(games), standings[0])
		}
	}
}

// TestCheckFindsFaults: a changed result, a rematch and a game played
// during another are each reported; a changed pairing in the log is
// refused by Verify, naming the wave the rule makes.
func TestCheckFindsFaults(t *testing.T) {
	f := newFixture(t, bulletArena())
	games := simulate(t, f, 16, 7)
	standings := f.a.Standings()

	flipped := append([]Game(nil), games...)
	for i, g := range flipped {
		if g.Result == pgn.WhiteWins && g.End.Before(f.a.Def.End()) {
			flipped[i].Result = pgn.BlackWins
			break
		}
	}
	if err := Check(f.a.Def, flipped, standings); err == nil || !strings.Contains(err.Error(), "the games make") {
		t.Errorf("a flipped result: %v", err)
	}

	rematch := append([]Game(nil), games...)
	g := rematch[0]
	again := Game{ID: "again", White: g.Black, Black: g.White, Result: pgn.Draw, Plies: 40,
		Start: g.End, End: g.End}
	if err := Check(f.a.Def, append(rematch, again), standings); err == nil || !strings.Contains(err.Error(), "twice in a row") {
		t.Errorf("an immediate rematch: %v", err)
	}

	overlap := Game{ID: "overlap", White: g.White, Black: "p15", Result: pgn.Unknown, Start: g.Start.Add(time.Second), End: g.End}
	if err := Check(f.a.Def, append(append([]Game(nil), games...), overlap), standings); err == nil || !strings.Contains(err.Error(), "began before") {
		t.Errorf("a game during another: %v", err)
	}

	log := append([]Event(nil), f.log...)
	for i, e := range log {
		if e.Kind == Pair && len(e.Pairs) >= 2 && e.At.After(f.a.Def.Start) {
			pairs := append([]Pairing(nil), e.Pairs...)
			pairs[0].Black, pairs[1].Black = pairs[1].Black, pairs[0].Black
			log[i].Pairs = pairs
			break
		}
	}
	if _, err := Verify(f.a.Def, log); err == nil || !strings.Contains(err.Error(), "the rule pairs") {
		t.Errorf("a wave not the rule's: %v", err)
	}
}
