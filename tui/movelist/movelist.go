// Package movelist is the one move list of every screen: the board, the
// review, the analysis rooms and the server's game and spectator screens.
// It draws a game tree (package pgn's nodes: SAN, NAGs, comments,
// variations) in one of two layouts — Columns, two numbered columns with
// comments and variations as indented text (the board, the review), and
// Running, the main line as wrapped running text (the narrow places) — and
// keeps the current move, or the newest, in view at every size. Move
// numbers follow one rule everywhere (Number): "12." before White's move,
// "12…" before Black's where a line starts with it.
//
// Each screen wrote its own list before, and each got the scrolling wrong
// once: the rooms (issue 18, B10) and then the game screens (issue 33, G1)
// showed the first moves and never the latest.
package movelist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// Styles are what a list is drawn with: moves in Text, move numbers and
// comments in Muted, the current move in Selected (reverse video, so it
// shows without colour), the rows after the list (Game.Tail) as the caller
// styles them.
type Styles struct {
	Text, Muted, Selected lipgloss.Style
}

// Game is what a list draws.
type Game struct {
	// Root is the start position's node: its Children are the first moves
	// (Children[0] the main line), its After the comment before them.
	Root *pgn.Node
	// StartPly is the game ply of Root's position
	// (chess.Position.GamePly()): 0 for the initial position, odd when
	// Black is to move. Move numbers count from it.
	StartPly int
	// Current is the move shown (marked, and kept in view); nil means the
	// newest move of the main line, Root the start position (none marked).
	Current *pgn.Node
	// Mark, if set, gives a move's mark after its SAN and the style of its
	// main-line cell (the review's ?!, ?, ?? in their colours); without it
	// a move shows its NAGs' symbols (NAGSymbol) in Styles.Text.
	Mark func(n *pgn.Node) (mark string, style lipgloss.Style)
	// Tail, if set, gives rows drawn after the list at the width (the
	// board's "the file's game stops here" for a game read in part).
	Tail func(width int) []string
	// Empty is said when there is nothing to list ("no moves yet" if "").
	Empty string
}

// current is the node to mark and keep in view: Current, or the end of the
// main line; nil for none (the start position).
func (g *Game) current() *pgn.Node {
	if g.Current != nil {
		if g.Current == g.Root {
			return nil
		}
		return g.Current
	}
	n := g.Root
	for n != nil && len(n.Children) > 0 {
		n = n.Children[0]
	}
	if n == g.Root {
		return nil
	}
	return n
}

// mark is n's mark and main-line style.
func (g *Game) mark(st Styles, n *pgn.Node) (string, lipgloss.Style) {
	if g.Mark != nil {
		return g.Mark(n)
	}
	return NAGSymbol(n.NAGs), st.Text
}

func (g *Game) empty() string {
	if g.Empty != "" {
		return g.Empty
	}
	return "no moves yet"
}

// List is a list's scroll state: the first row shown, kept between frames
// so that the rows move only when the current move would leave the view.
// The zero value is ready to use.
type List struct {
	top int
}

// window moves the view of n rows, height at a time, so that row cur (-1:
// none) is in it, and returns its first row.
func (l *List) window(n, cur, height int) int {
	if cur >= 0 {
		if cur < l.top {
			l.top = cur
		}
		if cur >= l.top+height {
			l.top = cur - height + 1
		}
	}
	l.top = max(0, min(l.top, n-height))
	return l.top
}

// Number is the move number before the move played from game ply ply:
// "12." for White's move, "12…" for Black's.
func Number(ply int) string {
	if ply%2 == 1 {
		return fmt.Sprintf("%d…", ply/2+1)
	}
	return fmt.Sprintf("%d.", ply/2+1)
}

// Glyph is a Numeric Annotation Glyph the board sets and the lists draw:
// its NAG ($N in PGN), the symbol drawn after the move, the ASCII a player
// types for it (as PGN's suffix annotations write it) and what it says.
type Glyph struct {
	NAG    uint8
	Symbol string
	ASCII  string
	Name   string
}

// Glyphs are the move's assessments ($1-$6) and the position's ($10,
// $13-$19), in the order the board offers them.
var Glyphs = []Glyph{
	{1, "!", "!", "good move"},
	{2, "?", "?", "mistake"},
	{3, "!!", "!!", "brilliant move"},
	{4, "??", "??", "blunder"},
	{5, "!?", "!?", "interesting move"},
	{6, "?!", "?!", "dubious move"},
	{10, "=", "=", "equal position"},
	{13, "∞", "~", "unclear position"},
	{14, "⩲", "+=", "White slightly better"},
	{15, "⩱", "=+", "Black slightly better"},
	{16, "±", "+/-", "White is better"},
	{17, "∓", "-/+", "Black is better"},
	{18, "+−", "+-", "White is winning"},
	{19, "−+", "-+", "Black is winning"},
}

// NAGSymbol is the symbols of the glyphs among nags (Glyphs: "!?", "±"),
// in their order; "" for none. Other NAGs are not drawn.
func NAGSymbol(nags []uint8) string {
	var b strings.Builder
	for _, n := range nags {
		for _, g := range Glyphs {
			if g.NAG == n {
				b.WriteString(g.Symbol)
			}
		}
	}
	return b.String()
}

// FromSANs is a main line of moves in SAN as a tree, for the screens
// whose games are lists of moves (the server's): its root, whose
// Children[0] is the first move. The nodes carry no chess.Move.
func FromSANs(sans []string) *pgn.Node {
	root := &pgn.Node{}
	n := root
	for _, s := range sans {
		n = n.AddChild(chess.NullMove, s)
	}
	return root
}

// Line writes line, played from p, as the lists number it: "12. Nf3",
// "Nc6", "13. d4", or "12… Nc6", "13. d4" when Black moves first; one
// string per move, for the analysis panels that wrap or cut it. It stops
// at the first move that is not legal where it stands (a PV of another
// position). p is left as it was.
func Line(p *chess.Position, line []chess.Move) []string {
	return Numbered(p.GamePly(), p.SANs(line))
}

// Numbered numbers a line already in SAN (chess.Position.SANs) whose first
// move is played at ply, as Line does: for lines written once by a server
// and numbered by each screen that draws them (the rooms' analysis). sans
// is not changed.
func Numbered(ply int, sans []string) []string {
	out := slices.Clone(sans)
	for i, s := range out {
		if i == 0 || (ply+i)%2 == 0 {
			out[i] = Number(ply+i) + " " + s
		}
	}
	return out
}

// At is the node of root's main line after ply moves: root for 0, the
// last move for a ply past the end.
func At(root *pgn.Node, ply int) *pgn.Node {
	n := root
	for ; ply > 0 && len(n.Children) > 0; ply-- {
		n = n.Children[0]
	}
	return n
}
