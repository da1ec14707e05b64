package arena

import (
	"strconv"
	"strings"
)

// outcome is a counted game's result for one player.
type outcome int

const (
	loss outcome = iota
	draw
	win
)

// outcomeOf is a score of 1, ½ or 0 as an outcome.
func outcomeOf(score float64) outcome {
	switch score {
	case 1:
		return win
	case 0.5:
		return draw
	}
	return loss
}

// Scoring follows lichess's ArenaSheet (its version 2, streaks on), move
// counts being plies as lila's Pairing.turns are:
const (
	// QuickDrawPlies: a draw in fewer plies (under 10 moves) scores 0 and
	// counts as no draw for a streak (lichess's quickDraw).
	QuickDrawPlies = 20
	// BerserkPlies: a berserker's win earns its extra point only in a game
	// of at least this many plies, 7 moves each (lichess's
	// notSoQuickFinish).
	BerserkPlies = 14
	// LongGamePlies: a draw of at least this many plies (30 moves) always
	// scores; a shorter draw that follows another draw with only losses
	// between them scores 0 (lichess's draw streak, longGame).
	LongGamePlies = 60
)

// mark is one counted game in a player's sheet: its outcome, whether it
// was a quick draw, whether its berserk earned the point, and its points.
type mark struct {
	outcome   outcome
	quickDraw bool
	berserk   bool // the berserk point was earned
	points    int
}

// sheet is a player's counted games in the order they finished.
type sheet []mark

// add is the sheet after one more game, scored as lichess's Sheet.addResult:
//   - a win is 2 points, 4 while on fire (the player's last two games
//     were both won), plus 1 if the player berserked and the game lasted
//     at least BerserkPlies;
//   - a draw is 1 point, 2 on fire; 0 for a quick draw (under
//     QuickDrawPlies, even on fire), and 0 for a draw under LongGamePlies
//     not on fire that follows another draw with only losses since (a
//     quick draw counts as a draw there, a win ends the streak);
//   - a loss is 0.
func (s sheet) add(o outcome, plies int, berserked bool) sheet {
	m := mark{outcome: o}
	fire := s.onFire()
	switch o {
	case win:
		m.points = 2
		if fire {
			m.points = 4
		}
		if berserked && plies >= BerserkPlies {
			m.berserk = true
			m.points++
		}
	case draw:
		switch {
		case plies < QuickDrawPlies:
			m.quickDraw = true
		case fire:
			m.points = 2
		case plies < LongGamePlies && s.drawStreak():
		default:
			m.points = 1
		}
	}
	return append(s[:len(s):len(s)], m)
}

// onFire: the last two counted games were both won.
func (s sheet) onFire() bool {
	n := len(s)
	return n >= 2 && s[n-1].outcome == win && s[n-2].outcome == win
}

// drawStreak: going back over losses, the first other game is a draw
// (lichess's isDrawStreak).
func (s sheet) drawStreak() bool {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i].outcome {
		case draw:
			return true
		case win:
			return false
		}
	}
	return false
}

// total is the sheet's points.
func (s sheet) total() int {
	t := 0
	for _, m := range s {
		t += m.points
	}
	return t
}

// count is how many games ended with o.
func (s sheet) count(o outcome) int {
	n := 0
	for _, m := range s {
		if m.outcome == o {
			n++
		}
	}
	return n
}

// String is the sheet as lichess shows it under a player's name: each
// game's points in order.
func (s sheet) String() string {
	var b strings.Builder
	for _, m := range s {
		b.WriteString(strconv.Itoa(m.points))
	}
	return b.String()
}

// PerformanceGames is how many counted games a performance needs before
// it breaks ties instead of the rating (lichess's Performance: 3).
const PerformanceGames = 3

// performanceSpread is what a win adds to and a loss takes from the
// opponent's rating in a performance (lichess: 500).
const performanceSpread = 500

// performance sums a player's games for their performance rating, as
// lichess's Performance: the mean over the games of the opponent's rating,
// +500 for a win, −500 for a loss.
type performance struct {
	sum, games int
}

func (p performance) add(opponent int, score float64) performance {
	switch outcomeOf(score) {
	case win:
		opponent += performanceSpread
	case loss:
		opponent -= performanceSpread
	}
	return performance{p.sum + opponent, p.games + 1}
}

// value is the performance, and whether there are enough games for one.
func (p performance) value() (int, bool) {
	if p.games < PerformanceGames {
		return 0, false
	}
	return p.sum / p.games, true
}
