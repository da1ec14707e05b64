package arena

import (
	"cmp"
	"slices"

	"github.com/squall-chess/squall/server/account"
)

// Standing is one player's line in the standings.
type Standing struct {
	Rank   int    `json:"rank"` // 1 is first
	Handle string `json:"handle"`
	Score  int    `json:"score"`
	// Fire: the last two counted games were won, so the next is doubled.
	Fire bool `json:"fire,omitempty"`
	// Sheet is each counted game's points in order ("2402").
	Sheet               string `json:"sheet"`
	Wins, Draws, Losses int
	Berserks            int `json:"berserks,omitempty"` // berserk points earned
	Rating              int `json:"rating"`             // as the player last joined
	// Performance is lichess's performance rating, once the player has
	// PerformanceGames counted games (0 before; it may be 0 after).
	Performance int  `json:"performance,omitempty"`
	Paused      bool `json:"paused,omitempty"`
	// Elsewhere: paused because they play, or seek to play, outside the
	// arena (a Pause marked Elsewhere), not by their own doing —
	// withdrawn after the start, gone, or absent from a game.
	Elsewhere bool `json:"elsewhere,omitempty"`
	// Playing is the game the player is in, "" while not playing.
	Playing string `json:"playing,omitempty"`
}

// TieBreak is what orders players of equal score: the performance once
// there is one, else the rating, as lichess's magicScore (score × 10000 +
// performance or rating).
func (s Standing) TieBreak() int {
	if s.Wins+s.Draws+s.Losses >= PerformanceGames {
		return s.Performance
	}
	return s.Rating
}

// Standings are every player of the arena, first first: by score, then
// by TieBreak, then by handle (account.Key) so that the order is total.
// Lichess computes the performance only when the arena is over; here it
// counts as soon as a player has PerformanceGames games, so the standings
// never reorder at the end by themselves.
func (a *Arena) Standings() []Standing {
	out := make([]Standing, 0, len(a.order))
	for _, k := range a.order {
		p := a.players[k]
		s := Standing{
			Handle:    p.handle,
			Score:     p.sheet.total(),
			Fire:      p.sheet.onFire(),
			Sheet:     p.sheet.String(),
			Wins:      p.sheet.count(win),
			Draws:     p.sheet.count(draw),
			Losses:    p.sheet.count(loss),
			Rating:    p.rating,
			Paused:    p.paused,
			Elsewhere: p.elsewhere,
			Playing:   p.playing,
			Berserks:  p.sheet.berserks(),
		}
		if perf, ok := p.perf.value(); ok {
			s.Performance = perf
		}
		out = append(out, s)
	}
	rank(out)
	return out
}

// rank sorts standings and numbers them.
func rank(s []Standing) {
	slices.SortStableFunc(s, func(a, b Standing) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.TieBreak(), a.TieBreak()); c != 0 {
			return c
		}
		return cmp.Compare(account.Key(a.Handle), account.Key(b.Handle))
	})
	for i := range s {
		s[i].Rank = i + 1
	}
}

// berserks is how many berserk points the sheet earned.
func (s sheet) berserks() int {
	n := 0
	for _, m := range s {
		if m.berserk {
			n++
		}
	}
	return n
}
