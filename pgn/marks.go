package pgn

import (
	"slices"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// Mark is an arrow or a coloured square drawn on the board after a move,
// as lichess, ChessBase and Scid write them in its comment: [%cal Ge2e4]
// for an arrow, [%csl Rd4] for a square. The reader keeps these commands
// verbatim in Commands.Other; Marks reads them and Edits.ToggleMark writes
// them, so a file's marks survive whatever the board does.
type Mark struct {
	// Colour is 'G', 'R', 'Y' or 'B' (green, red, yellow, blue).
	Colour byte
	// From is the square marked, or the arrow's tail; To is the arrow's
	// head, chess.NoSquare for a square.
	From, To chess.Square
}

// MarkColours are the colours a Mark may have, the usual one first.
const MarkColours = "GRYB"

// Arrow reports whether the mark is an arrow rather than a square.
func (k Mark) Arrow() bool { return k.To != chess.NoSquare }

// text is the mark as its command lists it: "Ge2e4", "Rd4".
func (k Mark) text() string {
	s := string(k.Colour) + k.From.String()
	if k.Arrow() {
		s += k.To.String()
	}
	return s
}

// parseMarks reads one [%cal …] or [%csl …] command (as kept in
// Commands.Other, collapsed); ok is false for any other, or for one not
// wholly well formed, which is left as it is.
func parseMarks(cmd string) (marks []Mark, ok bool) {
	body, found := strings.CutPrefix(cmd, "[%")
	body, closed := strings.CutSuffix(body, "]")
	if !found || !closed {
		return nil, false
	}
	name, arg, _ := strings.Cut(strings.TrimSpace(body), " ")
	arrow := name == "cal"
	if !arrow && name != "csl" {
		return nil, false
	}
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return nil, false
	}
	for _, tok := range strings.Split(arg, ",") {
		k, ok := ParseMark(tok)
		if !ok || k.Arrow() != arrow {
			return nil, false
		}
		marks = append(marks, k)
	}
	return marks, true
}

// ParseMark reads one mark as its command lists it: a colour letter and
// a square ("Rd4") or two ("Ge2e4", an arrow between different squares).
func ParseMark(tok string) (Mark, bool) {
	if len(tok) != 3 && len(tok) != 5 || strings.IndexByte(MarkColours, tok[0]) < 0 {
		return Mark{}, false
	}
	k := Mark{Colour: tok[0], To: chess.NoSquare}
	var sq bool
	if k.From, sq = chess.ParseSquare(tok[1:3]); !sq {
		return Mark{}, false
	}
	if len(tok) == 5 {
		if k.To, sq = chess.ParseSquare(tok[3:5]); !sq || k.To == k.From {
			return Mark{}, false
		}
	}
	return k, true
}

// Marks are the arrows and squares of n's comments, in file order.
func (n *Node) Marks() []Mark {
	if n.Commands == nil {
		return nil
	}
	var out []Mark
	for _, c := range n.Commands.Other {
		if ks, ok := parseMarks(c); ok {
			out = append(out, ks...)
		}
	}
	return out
}

// ToggleMark draws k after n's move, or takes it off if n has it already
// in that colour; the same squares in another colour change colour. The
// marks are written back as one [%csl] and one [%cal] command after n's
// other commands.
func (e *Edits) ToggleMark(n *Node, k Mark) {
	marks := n.Marks()
	i := slices.IndexFunc(marks, func(m Mark) bool { return m.From == k.From && m.To == k.To })
	switch {
	case i < 0:
		marks = append(marks, k)
	case marks[i].Colour == k.Colour:
		marks = slices.Delete(marks, i, i+1)
	default:
		marks[i].Colour = k.Colour
	}
	old := n.Commands
	now := withMarks(old, marks)
	n.Commands = now
	e.record("mark", n, n, func() { n.Commands = old }, func() { n.Commands = now })
}

// withMarks is a copy of c (nil: none) whose mark commands are marks; nil
// when nothing is left. c is not changed, for undo to restore.
func withMarks(c *Commands, marks []Mark) *Commands {
	var cc Commands
	if c != nil {
		cc = *c
	}
	cc.Other = slices.DeleteFunc(slices.Clone(cc.Other), func(s string) bool { _, ok := parseMarks(s); return ok })
	var squares, arrows []string
	for _, k := range marks {
		if k.Arrow() {
			arrows = append(arrows, k.text())
		} else {
			squares = append(squares, k.text())
		}
	}
	if len(squares) > 0 {
		cc.Other = append(cc.Other, "[%csl "+strings.Join(squares, ",")+"]")
	}
	if len(arrows) > 0 {
		cc.Other = append(cc.Other, "[%cal "+strings.Join(arrows, ",")+"]")
	}
	if len(cc.Other) == 0 {
		cc.Other = nil
		if !cc.HasClock && !cc.HasEMT && cc.Eval.Kind == NoEval {
			return nil // as the reader leaves a move without commands
		}
	}
	return &cc
}
