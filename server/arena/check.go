package arena

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/account"
)

// Verify replays an arena's log and checks every pairing wave in it
// against the rule: each Pair event must be the wave Arena.Pair makes from
// the state before it at its time (the same players, colours and
// ratings; the game ids are the creator's). It returns the standings the
// log comes to.
func Verify(def Definition, events []Event) ([]Standing, error) {
	a := New(def)
	for i, e := range events {
		if e.Kind == Pair {
			want := a.Pair(e.At)
			if !sameWave(want, e.Pairs) {
				return nil, fmt.Errorf("arena %s: event %d: wave at %s paired %s; the rule pairs %s",
					def.ID, i+1, e.At.UTC().Format(time.RFC3339), waveText(e.Pairs), waveText(want))
			}
		}
		if err := a.Apply(e); err != nil {
			return nil, err
		}
	}
	return a.Standings(), nil
}

// sameWave compares two waves, game ids aside, in any order.
func sameWave(a, b []Pairing) bool {
	key := func(p []Pairing) []Pairing {
		out := make([]Pairing, len(p))
		for i, x := range p {
			x.Game = ""
			out[i] = x
		}
		slices.SortFunc(out, func(x, y Pairing) int { return cmp.Compare(account.Key(x.White), account.Key(y.White)) })
		return out
	}
	return slices.Equal(key(a), key(b))
}

func waveText(p []Pairing) string {
	if len(p) == 0 {
		return "nobody"
	}
	s := ""
	for i, x := range p {
		if i > 0 {
			s += ", "
		}
		s += x.White + "–" + x.Black
	}
	return s
}

// Game is an arena's game as the archive keeps it: what Check needs.
type Game struct {
	ID           string
	White, Black string
	// WhiteRating and BlackRating are the ratings the arena paired them
	// with (its Pairing's), for the performance.
	WhiteRating, BlackRating   int
	Result                     string // 1-0, 0-1, 1/2-1/2, * (aborted)
	Plies                      int
	WhiteBerserk, BlackBerserk bool
	Start, End                 time.Time
}

// Check recomputes an arena's standings from its finished games alone and
// compares them with standings (as the arena's server published them),
// and checks each pairing the games show: every game began within the
// arena's time; no player played two games at once; nobody played the
// same opponent twice in a row (allowed only in an arena of at most
// DuelPlayers players, by the duel rule); no two players on a strike of
// MaxStrike with one colour were given it again (the same exception);
// and each standing's score, fire, sheet, wins, draws and losses, and the
// order of the standings (score, then TieBreak, from the games' ratings),
// are what the games make. Every difference found is reported.
func Check(def Definition, games []Game, standings []Standing) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	byPlayer := map[string][]Game{}
	for _, g := range games {
		if account.Key(g.White) == account.Key(g.Black) {
			fail("game %s: %s plays themself", g.ID, g.White)
		}
		if g.Start.Before(def.Start) || !g.Start.Before(def.End()) {
			fail("game %s: began at %s, outside the arena", g.ID, g.Start.UTC().Format(time.RFC3339))
		}
		if g.End.Before(g.Start) {
			fail("game %s: ends before it began", g.ID)
		}
		switch g.Result {
		case pgn.WhiteWins, pgn.BlackWins, pgn.Draw, pgn.Unknown:
		default:
			fail("game %s: result %q", g.ID, g.Result)
		}
		for _, h := range []string{g.White, g.Black} {
			byPlayer[account.Key(h)] = append(byPlayer[account.Key(h)], g)
		}
	}
	duelSized := len(standings) <= DuelPlayers
	type recomputed struct {
		sheet  sheet
		perf   performance
		colors colorHistory
	}
	got := map[string]*recomputed{}
	for k, gs := range byPlayer {
		slices.SortFunc(gs, func(a, b Game) int { return a.Start.Compare(b.Start) })
		r := &recomputed{}
		got[k] = r
		for i, g := range gs {
			side, opp, oppRating := white, g.Black, g.BlackRating
			if account.Key(g.Black) == k {
				side, opp, oppRating = black, g.White, g.WhiteRating
			}
			if i > 0 {
				prev := gs[i-1]
				if g.Start.Before(prev.End) {
					fail("%s: game %s began before game %s ended", handleIn(prev, k), g.ID, prev.ID)
				}
				if !duelSized && opponentOf(prev, k) == account.Key(opp) {
					fail("%s: played %s twice in a row (games %s and %s)", handleIn(g, k), opp, prev.ID, g.ID)
				}
			}
			r.colors = r.colors.add(side)
			if g.Result == pgn.Unknown || !g.End.Before(def.End()) {
				continue
			}
			score := 0.0
			switch {
			case g.Result == pgn.Draw:
				score = 0.5
			case g.Result == pgn.WhiteWins && side == white, g.Result == pgn.BlackWins && side == black:
				score = 1
			}
			berserk := g.WhiteBerserk
			if side == black {
				berserk = g.BlackBerserk
			}
			r.sheet = r.sheet.add(outcomeOf(score), g.Plies, berserk)
			r.perf = r.perf.add(oppRating, score)
		}
	}
	if !duelSized {
		checkStrikes(games, fail)
	}
	want := make([]Standing, 0, len(standings))
	for _, s := range standings {
		k := account.Key(s.Handle)
		r := got[k]
		if r == nil {
			r = &recomputed{}
		}
		delete(got, k)
		w := Standing{Handle: s.Handle, Score: r.sheet.total(), Fire: r.sheet.onFire(), Sheet: r.sheet.String(),
			Wins: r.sheet.count(win), Draws: r.sheet.count(draw), Losses: r.sheet.count(loss), Rating: s.Rating}
		if perf, ok := r.perf.value(); ok {
			w.Performance = perf
		}
		if w.Score != s.Score || w.Fire != s.Fire || w.Sheet != s.Sheet || w.Wins != s.Wins || w.Draws != s.Draws || w.Losses != s.Losses || w.Performance != s.Performance {
			fail("%s: standings say %d points (sheet %q, fire %v, +%d =%d −%d, performance %d); the games make %d (sheet %q, fire %v, +%d =%d −%d, performance %d)",
				s.Handle, s.Score, s.Sheet, s.Fire, s.Wins, s.Draws, s.Losses, s.Performance,
				w.Score, w.Sheet, w.Fire, w.Wins, w.Draws, w.Losses, w.Performance)
		}
		want = append(want, w)
	}
	for k := range got {
		fail("%s played in the arena and is not in the standings", k)
	}
	rank(want)
	for i, s := range standings {
		if i < len(want) && (account.Key(s.Handle) != account.Key(want[i].Handle) || s.Rank != i+1) {
			fail("standings: rank %d is %s; the games rank %s there", s.Rank, s.Handle, want[i].Handle)
			break
		}
	}
	return errors.Join(errs...)
}

// checkStrikes replays the games in the order they began and reports a
// pairing of two players both on a strike of MaxStrike with one colour.
func checkStrikes(games []Game, fail func(string, ...any)) {
	gs := slices.Clone(games)
	slices.SortStableFunc(gs, func(a, b Game) int { return a.Start.Compare(b.Start) })
	colors := map[string]colorHistory{}
	for _, g := range gs {
		w, b := account.Key(g.White), account.Key(g.Black)
		if !colors[w].couldPlay(colors[b]) {
			fail("game %s: %s and %s both had %d games in a row with one colour", g.ID, g.White, g.Black, MaxStrike)
		}
		colors[w] = colors[w].add(white)
		colors[b] = colors[b].add(black)
	}
}

// opponentOf is the key of the player's opponent in g.
func opponentOf(g Game, key string) string {
	if account.Key(g.White) == key {
		return account.Key(g.Black)
	}
	return account.Key(g.White)
}

// handleIn is the player's handle as game g writes it.
func handleIn(g Game, key string) string {
	if account.Key(g.Black) == key {
		return g.Black
	}
	return g.White
}
