package arena

import (
	"math/bits"
	"slices"
	"time"

	"github.com/squall-chess/squall/server/account"
)

// The pairing rule is lichess's arena pairing (PairingSystem and
// AntmaPairing), with the differences said where they are:
const (
	// DuelPlayers: in an arena of at most this many players, two players
	// who are the only ones waiting are paired even if they just played
	// each other (lichess's onlyTwoActivePlayers) — otherwise nobody is
	// ever paired with the opponent they just played.
	DuelPlayers = 12
	// MaxStrike: two players who both had this many games in a row with
	// the same colour are not paired (lichess's ColorHistory.couldPlay).
	MaxStrike = 3
	// GroupSize: the waiting players are matched in groups of at most this
	// many, in rank order (lichess matches up to 100 at once with Edmonds'
	// blossom; Squall's exact matching is exponential in the group's size,
	// and 16 players waiting together is already a large arena's wave).
	GroupSize = 16
	// WaveCrowd: with more than this many players waiting a wave comes at
	// once (lichess's WaitingUsers.haveWaitedEnough).
	WaveCrowd = 100
)

// waiter is a player a wave may pair, with their rank.
type waiter struct {
	*player
	key  string
	rank int
}

// Waiting are the players a pairing wave would consider: in the arena,
// not paused, not playing; best ranked first.
func (a *Arena) Waiting() []Standing {
	var out []Standing
	for _, s := range a.Standings() {
		if !s.Paused && s.Playing == "" {
			out = append(out, s)
		}
	}
	return out
}

// Pair is the pairing wave due at now, nil if none is. The caller creates
// each game, gives each Pairing its game's id, and applies the wave as
// one Pair event at now (Verify checks a log's waves by asking Pair again).
//
// A wave comes, between the start and the end, when at least two players
// are waiting and either none of them has played yet (the first games
// start at once) or at least two have waited WaitBeforePairing, or more
// than WaveCrowd are waiting (lichess's PairingSystem.createPairings and
// WaitingUsers.haveWaitedEnough). It pairs every player waiting; with an
// odd number, the one who began waiting last sits out, unless no pair can
// be made without them (lichess's evenOrAll).
//
// The pairs are a matching of the waiting players, in groups of GroupSize
// in rank order, that pairs as many as can be paired and, among those,
// costs least (lichess's AntmaPairing, by WMMatching): a pair costs
// |rank difference| × (300 + 1700 × (worst rank − the better rank of the
// two) / worst rank) + |rating difference|, the worst rank being the
// group's, so that near the top the score counts most. A pair is not
// made of two players who just played each other (either's last
// opponent is the other: never the same opponent twice in a row), nor of
// two who both had MaxStrike games in a row with the same colour — except
// the duel: in an arena of at most DuelPlayers players, the only two
// waiting are paired whatever came before. Among matchings of equal cost
// the first found is taken, so the wave is a function of the state.
//
// Colours as lichess's ColorHistory.firstGetsWhite: White to the player
// with the lower colour strike (the run of games with one colour, counted
// + for White, − for Black), then the lower balance (White games less
// Black games); if those are equal, the better ranked (lichess draws lots).
func (a *Arena) Pair(now time.Time) []Pairing {
	if now.Before(a.Def.Start) || !now.Before(a.Def.End()) {
		return nil
	}
	standings := a.Standings()
	var waiting []waiter
	for _, s := range standings {
		k := account.Key(s.Handle)
		if p := a.players[k]; !p.paused && p.playing == "" {
			waiting = append(waiting, waiter{p, k, s.Rank})
		}
	}
	if len(waiting) < 2 || !a.waveDue(waiting, now) {
		return nil
	}
	duel := len(standings) <= DuelPlayers && len(waiting) == 2
	if len(waiting)%2 == 1 {
		last := 0
		for i, w := range waiting {
			if !w.since.Before(waiting[last].since) {
				last = i
			}
		}
		even := slices.Delete(slices.Clone(waiting), last, last+1)
		if pairs := matchGroups(even, duel); len(pairs) > 0 {
			return pairs
		}
	}
	return matchGroups(waiting, duel)
}

// waveDue says whether the waiting players make a wave at now.
func (a *Arena) waveDue(waiting []waiter, now time.Time) bool {
	if len(waiting) > WaveCrowd {
		return true
	}
	first := true
	long := 0
	wait := WaitBeforePairing(a.Def.Control)
	for _, w := range waiting {
		if w.last != "" {
			first = false
		}
		if now.Sub(w.since) >= wait {
			long++
		}
	}
	return first || long >= 2
}

// matchGroups matches waiting players (in rank order) group by group.
func matchGroups(waiting []waiter, duel bool) []Pairing {
	var out []Pairing
	for g := range slices.Chunk(waiting, GroupSize) {
		out = append(out, match(g, duel)...)
	}
	return out
}

// match is the least costly matching of the most pairs of group (at most
// GroupSize players, in rank order): an exact search over the subsets of
// players still to pair, each subset's best found once.
func match(group []waiter, duel bool) []Pairing {
	n := len(group)
	worst := group[n-1].rank
	type best struct {
		unpaired, cost int
		partner        int // of the subset's first player; -1 alone
	}
	memo := make([]best, 1<<n)
	for mask := 1; mask < len(memo); mask++ {
		i := bits.TrailingZeros(uint(mask))
		rest := mask &^ (1 << i)
		b := best{memo[rest].unpaired + 1, memo[rest].cost, -1}
		for r := rest; r != 0; r &= r - 1 {
			j := bits.TrailingZeros(uint(r))
			c, ok := pairCost(group[i], group[j], worst, duel)
			if !ok {
				continue
			}
			sub := memo[rest&^(1<<j)]
			if cand := (best{sub.unpaired, sub.cost + c, j}); cand.unpaired < b.unpaired ||
				cand.unpaired == b.unpaired && cand.cost < b.cost {
				b = cand
			}
		}
		memo[mask] = b
	}
	var out []Pairing
	for mask := len(memo) - 1; mask != 0; {
		i := bits.TrailingZeros(uint(mask))
		j := memo[mask].partner
		mask &^= 1 << i
		if j < 0 {
			continue
		}
		mask &^= 1 << j
		out = append(out, colours(group[i], group[j]))
	}
	return out
}

// pairCost is what pairing a with b costs (a ranked better), and whether
// they may be paired at all.
func pairCost(a, b waiter, worst int, duel bool) (int, bool) {
	if !duel && (a.last == b.key || b.last == a.key || !a.colors.couldPlay(b.colors)) {
		return 0, false
	}
	factor := 300 + 1700*(worst-a.rank)/worst
	return (b.rank-a.rank)*factor + abs(a.rating-b.rating), true
}

// colours is the pairing of a and b (a ranked better) with its colours.
func colours(a, b waiter) Pairing {
	if b.colors.less(a.colors) {
		a, b = b, a
	}
	return Pairing{White: a.handle, Black: b.handle, WhiteRating: a.rating, BlackRating: b.rating}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// colorHistory is a player's colours so far, as lichess's ColorHistory:
// strike, the run of games with the last colour (+ White, − Black), and
// balance, White games less Black games.
type colorHistory struct {
	strike, balance int
}

func (c colorHistory) add(side color) colorHistory {
	if side == white {
		return colorHistory{max(c.strike+1, 1), c.balance + 1}
	}
	return colorHistory{min(c.strike-1, -1), c.balance - 1}
}

// less orders histories for White: the lower strike, then balance.
func (c colorHistory) less(o colorHistory) bool {
	return c.strike < o.strike || c.strike == o.strike && c.balance < o.balance
}

// couldPlay: not both on a strike of MaxStrike of one colour.
func (c colorHistory) couldPlay(o colorHistory) bool {
	return (c.strike > -MaxStrike || o.strike > -MaxStrike) && (c.strike < MaxStrike || o.strike < MaxStrike)
}
