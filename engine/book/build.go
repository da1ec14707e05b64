package book

import (
	"fmt"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/atomicfile"
)

// Game is one game fed to the book builder: its start position, moves and
// result (for White: Win, Draw or Loss).
type Game struct {
	Start  *chess.Position
	Moves  []chess.Move
	Result Result
	// Decided is false for unfinished games ("*"), which add no weight.
	Decided bool
}

// BuildOptions are the book builder's settings.
type BuildOptions struct {
	MaxPly      int  // positions after this many plies are not entered (0: 24)
	MinGames    int  // a move must have been played in this many games (0: 1)
	OnlyWinners bool // count only the winning side's moves (draws count nothing)
}

// Builder accumulates games into book entries. Positions are keyed by
// Polyglot key, so transpositions merge: a move counts the same whatever
// order of moves led to its position (GNU Chess's point).
type Builder struct {
	opt   BuildOptions
	stats map[moveKey]*moveStats
	games int
}

type moveStats struct {
	points int // 2 per win, 1 per draw for the side that played it
	games  int
}

// NewBuilder starts an empty book.
func NewBuilder(opt BuildOptions) *Builder {
	if opt.MaxPly <= 0 {
		opt.MaxPly = 24
	}
	if opt.MinGames <= 0 {
		opt.MinGames = 1
	}
	return &Builder{opt: opt, stats: map[moveKey]*moveStats{}}
}

// Games is the number of games added.
func (b *Builder) Games() int { return b.games }

// Add enters the first MaxPly moves of a game. The moves must be legal
// from g.Start (an illegal one is reported with its ply, and the game's
// earlier moves stay entered).
func (b *Builder) Add(g Game) error {
	if !g.Decided {
		return nil
	}
	b.games++
	p := g.Start.Clone()
	seen := map[moveKey]bool{} // a repeated position counts once per game
	for ply, m := range g.Moves {
		if ply >= b.opt.MaxPly {
			break
		}
		if !p.IsLegal(m) {
			return fmt.Errorf("ply %d: %v is not legal in %s", ply+1, m, p.FEN())
		}
		mover := Win // the result for the side to move
		if p.SideToMove() == chess.Black {
			mover = -Win
		}
		r := g.Result * mover
		if !b.opt.OnlyWinners || r == Win {
			k := moveKey{Key(p), EncodeMove(m)}
			if !seen[k] {
				seen[k] = true
				s := b.stats[k]
				if s == nil {
					s = &moveStats{}
					b.stats[k] = s
				}
				s.points += int(r) + 1
				s.games++
			}
		}
		var u chess.Undo
		p.MakeMove(m, &u)
	}
	return nil
}

// Entries returns the book: every move played in at least MinGames games
// and scoring above zero (a move that only ever lost would never be
// chosen), weights scaled per position to fit 16 bits, in file order.
func (b *Builder) Entries() []Entry {
	var es []Entry
	maxPoints := map[uint64]int{}
	for k, s := range b.stats {
		if s.games >= b.opt.MinGames && s.points > 0 {
			maxPoints[k.key] = max(maxPoints[k.key], s.points)
		}
	}
	for k, s := range b.stats {
		if s.games < b.opt.MinGames || s.points <= 0 {
			continue
		}
		w := s.points
		if top := maxPoints[k.key]; top > 0xFFFF {
			w = max(1, int(int64(w)*0xFFFF/int64(top)))
		}
		es = append(es, Entry{Key: k.key, Move: k.code, Weight: uint16(w)})
	}
	sortEntries(es)
	return es
}

// WriteFile writes the built book atomically.
func (b *Builder) WriteFile(path string) error {
	return atomicfile.WriteFile(path, Marshal(b.Entries()))
}
