package tui

import (
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// Tree is a game on the board: the game as package pgn holds it (tags,
// result, the moves with their variations, comments, NAGs and embedded
// commands), its start position, and where it was read from. The board
// edits the pgn tree itself, so there is no second tree to keep in step
// and a game read from a file loses nothing when saved back. The tree is
// owned by the root model and changed only in Update; searches get copies
// (engine.Game) of the line they need.
type Tree struct {
	*pgn.Game
	// Start is the position before the first move (the FEN tag's, kept
	// parsed: every move shown replays from it).
	Start *chess.Position
	// source is where the game was read from (nil: not from a file), so
	// that saving it back replaces it in place.
	source *gameSource
	// created says Squall made the game (played or set up on the board),
	// rather than being given it: only such games get tags of Squall's
	// choosing (the opening's name).
	created bool
	// partial is why a game read from a file stops early (its first bad
	// move); nil for a whole game. Such a game is not saved back into its
	// file, where it would replace the whole game with its first moves.
	partial error
	// edits makes the board's changes to the tree (moves, comments,
	// glyphs, variations) and keeps their undo history: every change to
	// its shape goes through it, so that undo is exact.
	edits pgn.Edits
}

// NewTree starts a game from a position, its tags unknown: a game Squall
// creates (played or set up on the board).
func NewTree(start *chess.Position) *Tree {
	return &Tree{Game: pgn.NewGame(), Start: start.Clone(), created: true}
}

// Line returns the moves from the root to n.
func (t *Tree) Line(n *pgn.Node) []chess.Move {
	var ms []chess.Move
	for ; n.Parent != nil; n = n.Parent {
		ms = append(ms, n.Move)
	}
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	return ms
}

// Position replays the line to n. The moves in a tree are legal by
// construction, so replay cannot fail.
func (t *Tree) Position(n *pgn.Node) *chess.Position {
	p := t.Start.Clone()
	var u chess.Undo
	for _, m := range t.Line(n) {
		p.MakeMove(m, &u)
	}
	return p
}

// EngineGame is the engine's view of the line to n: a copy, safe to hand
// to a searching goroutine.
func (t *Tree) EngineGame(n *pgn.Node) engine.Game {
	return engine.Game{Start: t.Start.Clone(), Moves: t.Line(n)}
}

// Play adds m after n (reusing an existing child with the same move) and
// returns the node reached. A new move becomes a variation unless n had no
// continuation, in which case it extends n's line.
func (t *Tree) Play(n *pgn.Node, p *chess.Position, m chess.Move) *pgn.Node {
	for _, c := range n.Children {
		if c.Move == m {
			return c // SAN is not worked out for a move already there
		}
	}
	c, _ := t.edits.Play(n, m, p.SAN(m))
	return c
}

// LineThrough returns the nodes of the line through n: n's ancestors, n, and
// the continuation of n's line (first children) after it.
func (t *Tree) LineThrough(n *pgn.Node) []*pgn.Node {
	var back []*pgn.Node
	for m := n; m.Parent != nil; m = m.Parent {
		back = append(back, m)
	}
	for i, j := 0, len(back)-1; i < j; i, j = i+1, j-1 {
		back[i], back[j] = back[j], back[i]
	}
	for m := n; len(m.Children) > 0; {
		m = m.Children[0]
		back = append(back, m)
	}
	return back
}

// Truncate removes n and everything after it (a takeback of the last moves of
// a game in play) and returns n's parent.
func (t *Tree) Truncate(n *pgn.Node) *pgn.Node { return t.edits.Delete(n) }

// End follows the first children from n to the end of its line.
func End(n *pgn.Node) *pgn.Node {
	for len(n.Children) > 0 {
		n = n.Children[0]
	}
	return n
}
