// Package level holds the strengths Squall offers people to play against,
// on the board and on the server alike: a name, an Elo for engines that
// take UCI_Elo, and the limits of a move in a game without a clock.
package level

import (
	"fmt"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine"
)

// Level is one strength.
type Level struct {
	Name string
	// Elo is the UCI_Elo asked of an engine that limits its strength;
	// 0 is full strength.
	Elo int
	// Limits are a move's limits without a clock; Fallback those for an
	// engine that cannot limit its strength (no UCI_Elo), which then plays
	// weaker by searching less.
	Limits, Fallback engine.Limits
}

var half = engine.Limits{MoveTime: 500 * time.Millisecond}

// All are the levels, weakest first; Default (1-based) is the one offered
// first.
var All = []Level{
	{"1 · Elo 800", 800, half, engine.Limits{Depth: 1}},
	{"2 · Elo 1100", 1100, half, engine.Limits{Depth: 2}},
	{"3 · Elo 1400", 1400, half, engine.Limits{Depth: 3}},
	{"4 · Elo 1700", 1700, half, engine.Limits{Depth: 5}},
	{"5 · Elo 2000", 2000, half, engine.Limits{MoveTime: 300 * time.Millisecond}},
	{"6 · Elo 2400", 2400, engine.Limits{MoveTime: time.Second}, engine.Limits{MoveTime: time.Second}},
	{"7 · full, 1 s", 0, engine.Limits{MoveTime: time.Second}, engine.Limits{MoveTime: time.Second}},
	{"8 · full, 5 s", 0, engine.Limits{MoveTime: 5 * time.Second}, engine.Limits{MoveTime: 5 * time.Second}},
}

// Default is the moderate level offered first (1-based).
const Default = 4

// Setup are the options that give an engine the level's strength (or full
// strength), for an engine that has UCI_Elo.
func (l Level) Setup() [][2]string {
	if l.Elo == 0 {
		return [][2]string{{"UCI_LimitStrength", "false"}}
	}
	return [][2]string{{"UCI_LimitStrength", "true"}, {"UCI_Elo", fmt.Sprint(l.Elo)}}
}

// HasElo reports whether a can limit its strength by Elo: it offers both
// UCI_LimitStrength, which switches the limit on, and UCI_Elo, matched
// without regard to case as UCI's option names are.
func HasElo(a engine.Analyzer) bool {
	var limit, elo bool
	for _, o := range a.Options() {
		limit = limit || strings.EqualFold(o.Name, "UCI_LimitStrength")
		elo = elo || strings.EqualFold(o.Name, "UCI_Elo")
	}
	return limit && elo
}
