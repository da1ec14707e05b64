package pgn

import (
	"errors"
	"slices"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// Edits changes a game tree in ways that can be undone: moves added and
// deleted, comments and NAGs set, variations deleted and promoted. It
// keeps the undo history, most recent change last, and the changes undone
// for redo until another change is made; nodes keep their identity across
// a change, its undo and its redo, so a caller holding a node (the board's
// shown move) still holds the same one afterwards. The zero value is ready
// to use.
//
// Undo and redo are exact only if every change to the tree's shape since
// the oldest change still kept went through the same Edits; annotations
// (comments, NAGs) may be set directly in between.
type Edits struct {
	done, undone []step
}

// step is one change: what it was (for the message line), how to undo
// and redo it, and the node to show after each (where the change was
// made, or the nearest node still in the tree).
type step struct {
	what           string
	undoAt, redoAt *Node
	undo, redo     func()
}

// Len is the number of changes that can be undone.
func (e *Edits) Len() int { return len(e.done) }

// Redoable is the number of changes undone that can be made again.
func (e *Edits) Redoable() int { return len(e.undone) }

// Clear forgets the history (a new game, say).
func (e *Edits) Clear() { e.done, e.undone = nil, nil }

// Undo undoes the most recent change: it returns what the change was
// ("comment", "variation deleted") and the node to show now (the one the
// change was made at, or where the move undone was played). ok is false
// when there is nothing to undo.
func (e *Edits) Undo() (what string, at *Node, ok bool) {
	if len(e.done) == 0 {
		return "", nil, false
	}
	s := e.done[len(e.done)-1]
	e.done = e.done[:len(e.done)-1]
	s.undo()
	e.undone = append(e.undone, s)
	return s.what, s.undoAt, true
}

// Redo makes again the change last undone, as Undo reports it; ok is
// false when there is none (nothing undone, or a change made since).
func (e *Edits) Redo() (what string, at *Node, ok bool) {
	if len(e.undone) == 0 {
		return "", nil, false
	}
	s := e.undone[len(e.undone)-1]
	e.undone = e.undone[:len(e.undone)-1]
	s.redo()
	e.done = append(e.done, s)
	return s.what, s.redoAt, true
}

// record adds a change just made: redo makes it again, undo takes it
// back; undoAt and redoAt are the nodes to show after each. The changes
// undone before it can no longer be redone.
func (e *Edits) record(what string, undoAt, redoAt *Node, undo, redo func()) {
	e.done = append(e.done, step{what, undoAt, redoAt, undo, redo})
	e.undone = nil
}

// Play adds move m (san, its SAN) after n, reusing n's child with the same
// move if there is one; a new move is n's main continuation if n had none,
// else a variation. It returns the node reached and whether it is new.
func (e *Edits) Play(n *Node, m chess.Move, san string) (*Node, bool) {
	for _, c := range n.Children {
		if c.Move == m {
			return c, false
		}
	}
	c := n.AddChild(m, san)
	i := len(n.Children) - 1
	e.record("move "+san, n, c, func() { n.removeChild(c) }, func() { n.insertChild(i, c) })
	return c, true
}

// Delete removes n, with every move after it, from its parent (n itself
// for the root, which cannot be deleted) and returns the parent.
func (e *Edits) Delete(n *Node) *Node {
	p := n.Parent
	if p == nil {
		return n
	}
	i := p.removeChild(n)
	e.record("move "+n.SAN+" deleted", n, p, func() { p.insertChild(i, n) }, func() { p.removeChild(n) })
	return p
}

// DeleteAfter removes every move after n (its continuations and their
// variations); ok is false when there are none.
func (e *Edits) DeleteAfter(n *Node) bool {
	if len(n.Children) == 0 {
		return false
	}
	// A copy: a move played next would reuse the node's own storage
	// for its single child (addChild).
	old := slices.Clone(n.Children)
	n.Children = nil
	e.record("moves after deleted", n, n, func() { n.Children = old }, func() { n.Children = nil })
	return true
}

// ErrMainLine is returned for a variation operation asked of a move on the
// main line, which is in no variation.
var ErrMainLine = errors.New("the move is on the main line, in no variation")

// VariationStart is the first move of the innermost variation holding n:
// n or its nearest ancestor that is not its parent's main continuation.
// It is nil for a move of the main line (and for the root).
func VariationStart(n *Node) *Node {
	for ; n.Parent != nil; n = n.Parent {
		if n.Parent.Children[0] != n {
			return n
		}
	}
	return nil
}

// DeleteVariation removes the innermost variation holding n, from its
// first move on, and returns the move it branched from (its parent).
func (e *Edits) DeleteVariation(n *Node) (*Node, error) {
	v := VariationStart(n)
	if v == nil {
		return nil, ErrMainLine
	}
	p := v.Parent
	i := p.removeChild(v)
	e.record("variation deleted", v, p, func() { p.insertChild(i, v) }, func() { p.removeChild(v) })
	return p, nil
}

// Promote moves the innermost variation holding n up one level: it
// becomes the main continuation where it branches, and the line it
// branched from becomes its first variation.
func (e *Edits) Promote(n *Node) error {
	v := VariationStart(n)
	if v == nil {
		return ErrMainLine
	}
	undo, redo := promote(v)
	e.record("variation promoted", n, n, undo, redo)
	return nil
}

// MakeMainLine promotes the variations holding n until n is on the main
// line; it is one change to undo.
func (e *Edits) MakeMainLine(n *Node) error {
	if VariationStart(n) == nil {
		return ErrMainLine
	}
	var undos, redos []func()
	for v := VariationStart(n); v != nil; v = VariationStart(n) {
		undo, redo := promote(v)
		undos, redos = append(undos, undo), append(redos, redo)
	}
	e.record("made the main line", n, n, func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}, func() {
		for _, redo := range redos {
			redo()
		}
	})
	return nil
}

// promote makes v its parent's main continuation, the old one its first
// variation and the others in their order after it, and returns its undo
// and redo.
func promote(v *Node) (undo, redo func()) {
	p := v.Parent
	old := slices.Clone(p.Children)
	i := slices.Index(p.Children, v)
	// v first, then the old main line, then the rest in order.
	kids := append([]*Node{v, old[0]}, slices.Delete(slices.Clone(old[1:]), i-1, i)...)
	p.Children = kids
	return func() { p.Children = old }, func() { p.Children = kids }
}

// SetComment replaces the comments after n's move (for the root, the
// comment before the first move) with text, one comment per paragraph
// (paragraphs are separated by a blank line), each with its whitespace
// collapsed as the reader collapses it, so that the game re-reads as it
// is. Empty text removes them. Embedded commands (n.Commands) are kept.
func (e *Edits) SetComment(n *Node, text string) {
	old, now := n.After, paragraphs(text)
	n.After = now
	e.record("comment", n, n, func() { n.After = old }, func() { n.After = now })
}

// CommentText is n's comments after its move as SetComment takes them:
// one paragraph each.
func CommentText(n *Node) string { return strings.Join(n.After, "\n\n") }

// paragraphs splits text at blank lines, each part collapsed; nil when
// there is no text.
func paragraphs(text string) []string {
	var out []string
	text = strings.ReplaceAll(text, "\r\n", "\n")
	for _, p := range strings.Split(text, "\n\n") {
		if p = collapse(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// NAG classes: a move's assessment ($1-$9: ! ? !! ?? !? ?! forced, ...)
// and the position's ($10-$135: = ∞ ⩲ ± +− ...). A move has at most one of
// each class.
func nagClass(nag uint8) int {
	switch {
	case nag >= 1 && nag <= 9:
		return 1
	case nag >= 10 && nag <= 135:
		return 2
	}
	return 3
}

// ToggleNAG gives n the glyph nag, replacing another of the same class (a
// ! replaces a ?, a ± an =); if n has nag already, it is removed. NAGs are
// kept in ascending order, the move's assessment first.
func (e *Edits) ToggleNAG(n *Node, nag uint8) {
	old := n.NAGs
	had := slices.Contains(old, nag)
	nags := slices.DeleteFunc(slices.Clone(old), func(x uint8) bool { return nagClass(x) == nagClass(nag) && nagClass(x) != 3 || x == nag })
	if !had {
		nags = append(nags, nag)
		slices.Sort(nags)
	}
	if len(nags) == 0 {
		nags = nil
	}
	n.NAGs = nags
	e.record("glyph", n, n, func() { n.NAGs = old }, func() { n.NAGs = nags })
}

// ClearNAGs removes every NAG of n; ok is false when it had none.
func (e *Edits) ClearNAGs(n *Node) bool {
	if len(n.NAGs) == 0 {
		return false
	}
	old := n.NAGs
	n.NAGs = nil
	e.record("glyphs removed", n, n, func() { n.NAGs = old }, func() { n.NAGs = nil })
	return true
}

// Child is n's child whose move is san (as the tree writes it: Nf3, O-O),
// nil if none.
func (n *Node) Child(san string) *Node {
	for _, c := range n.Children {
		if c.SAN == san {
			return c
		}
	}
	return nil
}

// removeChild takes c out of n's children and returns where it was (-1
// if it was not there). The slice is copied, not changed in place, so an
// undo holding the old one is unaffected.
func (n *Node) removeChild(c *Node) int {
	i := slices.Index(n.Children, c)
	if i < 0 {
		return -1
	}
	n.Children = slices.Delete(slices.Clone(n.Children), i, i+1)
	if len(n.Children) == 0 {
		n.Children = nil
	}
	return i
}

// insertChild puts c back at index i of n's children.
func (n *Node) insertChild(i int, c *Node) {
	if i < 0 || i > len(n.Children) {
		i = len(n.Children)
	}
	n.Children = slices.Insert(slices.Clone(n.Children), i, c)
	c.Parent = n
}
