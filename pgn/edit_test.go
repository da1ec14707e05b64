package pgn

import (
	"strings"
	"testing"
)

// editGame is a game with a variation inside a variation: 1. e4 e5 (1...
// c5 2. Nf3 (2. Nc3 Nc6) 2... d6) (1... e6) 2. Nf3.
const editGame = "[Event \"?\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) 2... d6) (1... e6) 2. Nf3 *\n"

func readEditGame(t *testing.T) *Game {
	t.Helper()
	games, errs := readAll(t, "edit", []byte(editGame))
	if len(errs) > 0 || len(games) != 1 {
		t.Fatalf("read: %v", errs)
	}
	return games[0]
}

// moves is g's movetext alone, on one line.
func moves(t *testing.T, g *Game) string {
	t.Helper()
	s := g.String()
	_, moves, _ := strings.Cut(s, "\n\n")
	return strings.Join(strings.Fields(moves), " ")
}

// find follows the SANs from the root, each among the children.
func find(t *testing.T, g *Game, sans ...string) *Node {
	t.Helper()
	n := g.Root
	for _, s := range sans {
		if n = n.Child(s); n == nil {
			t.Fatalf("no %s in %v", s, sans)
		}
	}
	return n
}

// TestEdits: each change to the tree gives the movetext expected, and
// undoing the changes one by one, newest first, gives back each earlier
// tree with the same nodes (the node to show after an undo is where the
// change was made).
func TestEdits(t *testing.T) {
	g := readEditGame(t)
	var e Edits
	orig := moves(t, g)
	nc3 := find(t, g, "e4", "c5", "Nc3")
	nc6 := find(t, g, "e4", "c5", "Nc3", "Nc6")
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"promote one level", func() error { return e.Promote(nc6) },
			"1. e4 e5 (1... c5 2. Nc3 (2. Nf3 d6) 2... Nc6) (1... e6) 2. Nf3 *"},
		{"promote again: main line", func() error { return e.Promote(nc6) },
			"1. e4 c5 (1... e5 2. Nf3) (1... e6) 2. Nc3 (2. Nf3 d6) 2... Nc6 *"},
		{"promote on the main line", func() error {
			if err := e.Promote(nc6); err != ErrMainLine {
				t.Errorf("promote on the main line: %v", err)
			}
			return nil
		}, "1. e4 c5 (1... e5 2. Nf3) (1... e6) 2. Nc3 (2. Nf3 d6) 2... Nc6 *"},
		{"comment and glyphs", func() error {
			e.SetComment(nc3, "a  developing\nmove\n\nsecond  paragraph")
			e.SetComment(g.Root, "before the first move")
			e.ToggleNAG(nc3, 2)
			e.ToggleNAG(nc3, 5) // replaces ?
			e.ToggleNAG(nc3, 14)
			e.ToggleNAG(nc3, 16) // replaces ⩲
			return nil
		}, "{before the first move} 1. e4 c5 (1... e5 2. Nf3) (1... e6) 2. Nc3 $5 $16 {a developing move} {second paragraph} (2. Nf3 d6) 2... Nc6 *"},
		{"toggle off", func() error { e.ToggleNAG(nc3, 5); return nil },
			"{before the first move} 1. e4 c5 (1... e5 2. Nf3) (1... e6) 2. Nc3 $16 {a developing move} {second paragraph} (2. Nf3 d6) 2... Nc6 *"},
		{"delete a variation", func() error {
			p, err := e.DeleteVariation(find(t, g, "e4", "e5", "Nf3"))
			if p != find(t, g, "e4") {
				t.Errorf("after deleting 1... e5: at %s", p.SAN)
			}
			return err
		}, "{before the first move} 1. e4 c5 (1... e6) 2. Nc3 $16 {a developing move} {second paragraph} (2. Nf3 d6) 2... Nc6 *"},
		{"delete after", func() error {
			if !e.DeleteAfter(nc3) {
				t.Error("nothing deleted after 2. Nc3")
			}
			return nil
		}, "{before the first move} 1. e4 c5 (1... e6) 2. Nc3 $16 {a developing move} {second paragraph} (2. Nf3 d6) *"},
		{"play a move", func() error {
			pos, err := g.PositionAfter(nc3)
			if err != nil {
				return err
			}
			mv, err := pos.ParseSAN("Nf6")
			if err != nil {
				return err
			}
			n, added := e.Play(nc3, mv, "Nf6")
			if !added || n.Parent != nc3 {
				t.Error("Nf6 not added")
			}
			return nil
		}, "{before the first move} 1. e4 c5 (1... e6) 2. Nc3 $16 {a developing move} {second paragraph} (2. Nf3 d6) 2... Nf6 *"},
		{"make the main line", func() error { return e.MakeMainLine(find(t, g, "e4", "e6")) },
			"{before the first move} 1. e4 e6 (1... c5 2. Nc3 $16 {a developing move} {second paragraph} (2. Nf3 d6) 2... Nf6) *"},
		{"delete a move", func() error {
			if p := e.Delete(find(t, g, "e4")); p != g.Root {
				t.Error("deleting 1. e4 does not show the start")
			}
			return nil
		}, "{before the first move} *"},
		{"clear the comment", func() error { e.SetComment(g.Root, " \n\n "); return nil }, "*"},
	}
	var trees []string
	for _, s := range steps {
		before := moves(t, g)
		n := e.Len()
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := moves(t, g); got != s.want {
			t.Fatalf("%s:\n got %s\nwant %s", s.name, got, s.want)
		}
		for i := n; i < e.Len(); i++ {
			trees = append(trees, before) // each change undoes to the tree before the step
		}
		// Every step's tree reads back as it is written.
		back, errs := readAll(t, s.name, []byte(g.String()))
		if len(errs) > 0 || !sameTree(back[0].Root, g.Root) {
			t.Fatalf("%s: does not re-read as written: %v", s.name, errs)
		}
	}
	// Undo, newest first: the comment's steps undo one at a time, so
	// only each whole step's start is compared.
	for i := e.Len() - 1; i >= 0; i-- {
		what, at, ok := e.Undo()
		if !ok || at == nil || what == "" {
			t.Fatalf("undo %d: %q %v %v", i, what, at, ok)
		}
		if i == 0 || trees[i-1] != trees[i] {
			if got := moves(t, g); got != trees[i] {
				t.Fatalf("undo of %q:\n got %s\nwant %s", what, got, trees[i])
			}
		}
	}
	if _, _, ok := e.Undo(); ok {
		t.Error("undo with nothing left")
	}
	if got := moves(t, g); got != orig {
		t.Errorf("after every undo\n got %s\nwant %s", got, orig)
	}
	if find(t, g, "e4", "c5", "Nc3", "Nc6") != nc6 {
		t.Error("the nodes are not the same after undo")
	}
	for _, n := range []*Node{nc3, nc6} {
		if n.Parent.Children[0] != n && n.Parent.Children[1] != n {
			t.Error("parent links broken")
		}
	}
	// Redo, oldest first: each step's tree again, to the last (a step
	// of several changes compared before its first).
	final := steps[len(steps)-1].want
	for i := 0; e.Redoable() > 0; i++ {
		if got := moves(t, g); (i == 0 || trees[i-1] != trees[i]) && got != trees[i] {
			t.Fatalf("before redo %d:\n got %s\nwant %s", i, got, trees[i])
		}
		if what, at, ok := e.Redo(); !ok || at == nil || what == "" {
			t.Fatalf("redo %d: %q %v %v", i, what, at, ok)
		}
	}
	if got := moves(t, g); got != final {
		t.Fatalf("after every redo\n got %s\nwant %s", got, final)
	}
	if _, _, ok := e.Redo(); ok {
		t.Error("redo with nothing undone")
	}
	// A change after an undo: what was undone cannot be redone.
	e.Undo()
	e.SetComment(g.Root, "another")
	if _, _, ok := e.Redo(); ok || e.Redoable() != 0 {
		t.Error("redo after a new change")
	}
}

func TestVariationOpsOnMainLine(t *testing.T) {
	g := readEditGame(t)
	var e Edits
	main := find(t, g, "e4", "e5", "Nf3")
	if _, err := e.DeleteVariation(main); err != ErrMainLine {
		t.Errorf("delete variation on the main line: %v", err)
	}
	if err := e.MakeMainLine(main); err != ErrMainLine {
		t.Errorf("make main line on the main line: %v", err)
	}
	if e.DeleteAfter(main) || e.ClearNAGs(main) {
		t.Error("deleted nothing, recorded something")
	}
	if e.Delete(g.Root) != g.Root || e.Len() != 0 {
		t.Error("the root deleted")
	}
	if VariationStart(find(t, g, "e4", "c5", "Nc3", "Nc6")) != find(t, g, "e4", "c5", "Nc3") {
		t.Error("VariationStart of 2... Nc6 in (2. Nc3 Nc6)")
	}
}

// TestDeleteAfterThenPlay: the first child after DeleteAfter reuses no
// storage the undo still holds (a node's single child has its own backing
// array).
func TestDeleteAfterThenPlay(t *testing.T) {
	g := NewGame()
	var e Edits
	a, _ := e.Play(g.Root, 1, "a3")
	e.DeleteAfter(g.Root)
	e.Play(g.Root, 2, "a4")
	e.Undo()
	e.Undo()
	if g.Root.Next() != a || len(g.Root.Children) != 1 {
		t.Errorf("after undo the first move is %v", g.Root.Children)
	}
}

func TestCommentText(t *testing.T) {
	n := &Node{}
	var e Edits
	e.SetComment(n, "one\r\n\r\ntwo\nlines")
	if got := CommentText(n); got != "one\n\ntwo lines" {
		t.Errorf("CommentText %q", got)
	}
}
