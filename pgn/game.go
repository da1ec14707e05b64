// Package pgn reads and writes chess games in Portable Game Notation.
//
// A Game is its tags (the Seven Tag Roster first, in order, then every other
// tag as read) and a move tree rooted at Game.Root. The reader streams: it
// holds one game in memory at a time, tolerates the sloppiness of real files
// (missing results, odd move numbers, 0-0, suffix annotations, ; comments,
// % lines, BOM, CRLF, unescaped quotes in tags) and is strict where it
// matters: an illegal or ambiguous move, a tag value whose quote is never
// closed or a variation never closed ends that game with an *Error naming
// file, line, column (and the move and SAN, for a move), and reading goes on
// with the next game. Text is UTF-8; a game that is not valid UTF-8 is read
// as Latin-1, the standard's own export encoding (see latin1.go).
//
//	for g, err := range pgn.Games(f) { ... }
//
// Reader.CheckNext checks a game as Next does, every move replayed, but
// keeps nothing of it: validating a file that way is about twice as fast.
// Index skims a file for the offsets and tags of its games without replaying
// moves, and ReadGameAt opens one of them. Write produces export format;
// WriteFile saves atomically and AppendFile adds games without rewriting the
// ones already in the file.
package pgn

import (
	"fmt"
	"time"

	"github.com/squall-chess/squall/engine/chess"
)

// Tag is one tag pair, e.g. {"White", "Carlsen, Magnus"}.
type Tag struct {
	Name, Value string
}

// sevenTagRoster lists the tags every exported game carries, in export order.
var sevenTagRoster = [7]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// Results that may end a game's movetext.
const (
	WhiteWins = "1-0"
	BlackWins = "0-1"
	Draw      = "1/2-1/2"
	Unknown   = "*"
)

// Game is one game: tags plus a move tree.
type Game struct {
	// Tags begins with the Seven Tag Roster in order (missing ones are
	// filled with "?", or "????.??.??" for Date) followed by every other
	// tag in file order.
	Tags []Tag
	// Root stands for the start position; it has no move. Root.Children[0]
	// is the first move of the main line. Comments before the first move
	// are Root.After.
	Root *Node
	// Result is the termination marker: "1-0", "0-1", "1/2-1/2" or "*".
	// The Result tag always equals it.
	Result string
	// Offset and Line locate the game's first byte in its source (0 and 1
	// for a game not read from a file).
	Offset int64
	Line   int
}

// NewGame returns an empty game from the standard start position, with the
// Seven Tag Roster set to unknowns.
func NewGame() *Game {
	g := &Game{Root: &Node{}, Result: Unknown, Line: 1}
	g.normalizeTags()
	return g
}

// Tag returns the value of the named tag ("" if absent).
func (g *Game) Tag(name string) string {
	if i := tagIndex(g.Tags, name); i >= 0 {
		return g.Tags[i].Value
	}
	return ""
}

// tagIndex returns the index of the named tag in tags, -1 if absent.
func tagIndex(tags []Tag, name string) int {
	for i := range tags {
		if tags[i].Name == name {
			return i
		}
	}
	return -1
}

// SetTag sets the named tag, keeping its place if present and appending it
// otherwise. Setting "Result" also sets g.Result.
func (g *Game) SetTag(name, value string) {
	if name == "Result" {
		g.Result = value
	}
	if i := tagIndex(g.Tags, name); i >= 0 {
		g.Tags[i].Value = value
		return
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// DeleteTag removes the named tag; a Seven Tag Roster tag, which every
// game has, is reset to unknown instead ("?", "????.??.??" for Date, "*"
// for Result).
func (g *Game) DeleteTag(name string) {
	i := tagIndex(g.Tags, name)
	switch {
	case i < 0:
	case name == "Result":
		g.SetTag(name, Unknown)
	case name == "Date":
		g.Tags[i].Value = "????.??.??"
	case isSTR(name):
		g.Tags[i].Value = "?"
	default:
		g.Tags = append(g.Tags[:i], g.Tags[i+1:]...)
	}
}

// normalizeTags puts the Seven Tag Roster first, in order, filling missing
// ones, and makes the Result tag agree with g.Result.
func (g *Game) normalizeTags() {
	// Built in scratch space, then copied back over g.Tags when it has
	// room (the reader leaves room for the roster): one allocation less
	// per game read.
	var scratch [24]Tag
	tags := scratch[:0]
	for _, name := range sevenTagRoster {
		v := ""
		i := tagIndex(g.Tags, name)
		if i >= 0 {
			v = g.Tags[i].Value
		}
		switch {
		case name == "Result":
			v = g.Result
		case i < 0 && name == "Date":
			v = "????.??.??"
		case i < 0:
			v = "?"
		}
		tags = append(tags, Tag{name, v})
	}
	for _, t := range g.Tags {
		if !isSTR(t.Name) {
			tags = append(tags, t)
		}
	}
	if cap(g.Tags) < len(tags) {
		g.Tags = make([]Tag, 0, len(tags))
	}
	g.Tags = append(g.Tags[:0], tags...)
}

func isSTR(name string) bool {
	for _, n := range sevenTagRoster {
		if n == name {
			return true
		}
	}
	return false
}

// Chess960 reports whether the Variant tag names Chess960 (or Fischer
// Random).
func (g *Game) Chess960() bool { return isChess960(g.Tag("Variant")) }

// StartPosition returns a fresh copy of the position before the first move:
// the FEN tag's position if there is one, else the standard start.
func (g *Game) StartPosition() (*chess.Position, error) {
	fen := g.Tag("FEN")
	if fen == "" {
		fen = chess.StartFEN
	}
	p, err := chess.ParseFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("FEN tag: %w", err)
	}
	if g.Chess960() {
		p.SetChess960(true)
	}
	return p, nil
}

// PositionAfter returns the position after node n's move (the start
// position for g.Root), replaying the moves from the root.
func (g *Game) PositionAfter(n *Node) (*chess.Position, error) {
	p, err := g.StartPosition()
	if err != nil {
		return nil, err
	}
	var path []chess.Move
	for ; n != nil && n.Parent != nil; n = n.Parent {
		path = append(path, n.Move)
	}
	var u chess.Undo
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == chess.NullMove {
			p.MakeNullMove(&u)
		} else {
			p.MakeMove(path[i], &u)
		}
	}
	return p, nil
}

// Mainline returns the main line's nodes after the root, in order.
func (g *Game) Mainline() []*Node {
	var line []*Node
	for n := g.Root.Next(); n != nil; n = n.Next() {
		line = append(line, n)
	}
	return line
}

// Node is a move in the tree (or, for Game.Root, the start position).
//
// A large file has millions of nodes, so the rarely used parts cost a
// pointer or an empty slice when absent.
type Node struct {
	Parent *Node
	// Children are the moves that may follow this one: Children[0] is the
	// main continuation, the rest are variations (RAV) in file order.
	Children []*Node
	// SAN is the move played in canonical form (O-O, not 0-0; minimal
	// disambiguation; + and #), whatever the file had; "--" for a null
	// move ("--" or "Z0" in the file).
	SAN string
	// NAGs are Numeric Annotation Glyphs ($1 = !, $2 = ?, ...); suffix
	// annotations such as "!?" are read as their NAG.
	NAGs []uint8
	// Before are comments written before the move (only possible at the
	// start of a variation); After are comments after it, with embedded
	// commands taken out into Commands and whitespace collapsed.
	Before, After []string
	// Commands are the embedded commands of After's comments; nil when
	// there are none.
	Commands *Commands
	// Move is the move played (chess.NullMove for a null move).
	Move chess.Move

	one [1]*Node // backing store for Children's common single-element case
}

// Ply is the node's distance from the root (0 for the root).
func (n *Node) Ply() int {
	p := 0
	for ; n.Parent != nil; n = n.Parent {
		p++
	}
	return p
}

// Next returns the main continuation, or nil at the end of the line.
func (n *Node) Next() *Node {
	if len(n.Children) == 0 {
		return nil
	}
	return n.Children[0]
}

// AddChild appends a new child node for move m (with its SAN) and returns it;
// the first child becomes the main continuation.
func (n *Node) AddChild(m chess.Move, san string) *Node {
	c := &Node{Move: m, SAN: san}
	n.addChild(c)
	return c
}

func (n *Node) addChild(c *Node) {
	c.Parent = n
	if n.Children == nil {
		n.one[0] = c
		n.Children = n.one[:1:1]
		return
	}
	n.Children = append(n.Children, c)
}

// Commands are the embedded commands of a move's comments, as used by
// lichess, chess.com and most GUIs.
type Commands struct {
	// Clock is the mover's remaining time ([%clk 1:02:03.4]).
	Clock    time.Duration
	HasClock bool
	// EMT is the time the move took ([%emt 0:00:05]).
	EMT    time.Duration
	HasEMT bool
	// Eval is an engine evaluation ([%eval 0.35], [%eval #-3,20]).
	Eval Eval
	// Other are the commands not understood (or malformed), verbatim,
	// e.g. "[%cal Ra1a8]".
	Other []string
}

// Eval is an evaluation from White's point of view.
type Eval struct {
	Kind EvalKind
	// Value is centipawns for Centipawns and moves to mate (negative when
	// Black mates) for Mate.
	Value int
	// Depth is the search depth given after a comma, 0 if none.
	Depth int
}

// EvalKind says whether an Eval is present and what its Value means.
type EvalKind uint8

// Kinds of Eval.
const (
	NoEval EvalKind = iota
	Centipawns
	Mate
)
