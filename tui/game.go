package tui

import (
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// Node is one move of a game tree. The root node has no move. Children[0]
// continues the line the node is on; other children are variations.
type Node struct {
	Move     chess.Move
	SAN      string
	Parent   *Node
	Children []*Node

	// The annotations a PGN file gave the move, kept so that saving the
	// game loses none of them. NAGs are Numeric Annotation Glyphs ($1 = !,
	// $2 = ?, …). Before are comments written before the move (only at the
	// start of a variation); Comments are those after it (on the root: the
	// comments before the first move). Commands are the embedded commands
	// of those comments ([%clk], [%eval], …); nil when there are none.
	NAGs     []uint8
	Before   []string
	Comments []string
	Commands *pgn.Commands
}

// Ply is the node's distance from the root.
func (n *Node) Ply() int {
	p := 0
	for ; n.Parent != nil; n = n.Parent {
		p++
	}
	return p
}

// Tree is a game with variations: a start position, the tree of moves played
// from it and PGN tags. It is owned by the root model and changed only in
// Update; searches get copies (engine.Game) of the line they need.
type Tree struct {
	Start *chess.Position
	Root  *Node
	// Tags are the PGN tags except Result, which is the field below:
	// the Seven Tag Roster first ("?" where unknown), then the others.
	Tags Tags
	// Result is the PGN result ("1-0", "0-1", "1/2-1/2", "*").
	Result string
	// source is where the game was read from (nil: not from a file), so
	// that saving it back replaces it in place.
	source *gameSource
}

// NewTree starts a game from a position, its tags unknown.
func NewTree(start *chess.Position) *Tree {
	var tags Tags
	for _, tag := range pgn.NewGame().Tags {
		if tag.Name != "Result" {
			tags = append(tags, tag)
		}
	}
	return &Tree{Start: start.Clone(), Root: &Node{}, Tags: tags, Result: pgn.Unknown}
}

// Tags are a game's PGN tags in order: a game read from a file is saved
// with its tags where they were.
type Tags []pgn.Tag

// Get returns the value of the named tag ("" if absent).
func (ts Tags) Get(name string) string {
	for _, t := range ts {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Set sets the named tag, in its place if present, else at the end.
func (ts *Tags) Set(name, value string) {
	for i := range *ts {
		if (*ts)[i].Name == name {
			(*ts)[i].Value = value
			return
		}
	}
	*ts = append(*ts, pgn.Tag{Name: name, Value: value})
}

// Delete removes the named tag.
func (ts *Tags) Delete(name string) {
	out := (*ts)[:0]
	for _, t := range *ts {
		if t.Name != name {
			out = append(out, t)
		}
	}
	*ts = out
}

// Line returns the moves from the root to n.
func (t *Tree) Line(n *Node) []chess.Move {
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
func (t *Tree) Position(n *Node) *chess.Position {
	p := t.Start.Clone()
	var u chess.Undo
	for _, m := range t.Line(n) {
		p.MakeMove(m, &u)
	}
	return p
}

// Game is the engine's view of the line to n: a copy, safe to hand to a
// searching goroutine.
func (t *Tree) Game(n *Node) engine.Game {
	return engine.Game{Start: t.Start.Clone(), Moves: t.Line(n)}
}

// Play adds m after n (reusing an existing child with the same move) and
// returns the node reached. A new move becomes a variation unless n had no
// continuation, in which case it extends n's line.
func (t *Tree) Play(n *Node, p *chess.Position, m chess.Move) *Node {
	for _, c := range n.Children {
		if c.Move == m {
			return c
		}
	}
	c := &Node{Move: m, SAN: p.SAN(m), Parent: n}
	n.Children = append(n.Children, c)
	return c
}

// MainLine returns the nodes of the main line (following Children[0]).
func (t *Tree) MainLine() []*Node {
	var ns []*Node
	for n := t.Root; len(n.Children) > 0; {
		n = n.Children[0]
		ns = append(ns, n)
	}
	return ns
}

// LineThrough returns the nodes of the line through n: n's ancestors, n, and
// the continuation of n's line (first children) after it.
func (t *Tree) LineThrough(n *Node) []*Node {
	var back []*Node
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
func (t *Tree) Truncate(n *Node) *Node {
	p := n.Parent
	if p == nil {
		return n
	}
	for i, c := range p.Children {
		if c == n {
			p.Children = append(p.Children[:i:i], p.Children[i+1:]...)
			break
		}
	}
	return p
}

// End follows the first children from n to the end of its line.
func End(n *Node) *Node {
	for len(n.Children) > 0 {
		n = n.Children[0]
	}
	return n
}

// gamePly is the number of half-moves played before p in its game, from the
// FEN's fullmove number and side to move (0 for the initial position).
func gamePly(p *chess.Position) int {
	ply := (p.FullmoveNumber() - 1) * 2
	if p.SideToMove() == chess.Black {
		ply++
	}
	if ply < 0 {
		ply = 0
	}
	return ply
}
