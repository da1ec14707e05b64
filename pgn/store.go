package pgn

import "bytes"

// The Reader carves the pieces of its game trees (nodes, NAG, comment and
// variation lists, Commands) out of chunks it allocates now and then, and
// makes all the SAN and comment text of a game one string. A move with its
// NAGs, comments and clock then costs no allocation of its own: reading is
// faster and the garbage collector has far fewer objects to trace.
//
// Every piece is handed out with its capacity equal to its length, so
// appending to it (when a program edits a game) copies instead of writing
// over a neighbour.
//
// A chunk that holds pointers serves one game only. Shared, it would chain
// the games together: the garbage collector keeps a chunk whole while any
// element is in use, so the chunk of the game being read would keep the
// previous game, whose first chunk would keep the game before, and so on,
// and memory would grow with the file. NAG chunks hold no pointers and are
// shared.

// slab hands out elements of T from chunks. Chunks are sized from what
// recent games used, so a typical game needs one or two.
type slab[T any] struct {
	chunk    []T   // current chunk; its length is what was handed out
	done     [][]T // this game's earlier chunks, as handed out
	used     int   // elements handed out for this game
	avg4     int   // moving average of used per game, times 4
	min, max int   // chunk size bounds
	shared   bool  // chunks serve many games: no done, no newGame
}

// take returns k zero elements.
func (s *slab[T]) take(k int) []T {
	if cap(s.chunk)-len(s.chunk) < k {
		// The first chunk of a game is what games use on average; a
		// game that needs more gets chunks of a quarter of that, or of
		// what it has used, whichever is more. Little is left unused
		// (a chunk is zeroed, and kept with the game, whole), and a
		// long game still needs few chunks.
		size := s.avg4 / 4
		if s.used > 0 {
			size = max(size, s.used) / 4
		}
		size = max(min(size, s.max), s.min, k)
		if s.chunk != nil && !s.shared {
			s.done = append(s.done, s.chunk)
		}
		s.chunk = make([]T, 0, size)
	}
	i := len(s.chunk)
	s.chunk = s.chunk[:i+k]
	s.used += k
	return s.chunk[i : i+k : i+k]
}

// newGame lets go of the chunks of the last game.
func (s *slab[T]) newGame() {
	s.avg4 += s.used - s.avg4/4
	clear(s.done)
	s.chunk, s.done, s.used = nil, s.done[:0], 0
}

// newNode returns a zero node. A game's nodes are handed out in order, the
// root first and then one for each move, whose SAN is in r.sans: see
// finishText.
func (r *Reader) newNode() *Node {
	return &r.nodes.take(1)[0]
}

func (r *Reader) newCommands() *Commands {
	return &r.commands.take(1)[0]
}

// variations is the room a move's list of children gets when a variation
// is added: the move and its first three alternatives.
const variations = 4

// addChild adds c to parent's children. The first child needs no
// allocation (Node.one); the second, a variation, moves the list to a
// chunk with room for more.
func (r *Reader) addChild(parent, c *Node) {
	if len(parent.Children) != 1 || cap(parent.Children) != 1 {
		parent.addChild(c)
		return
	}
	c.Parent = parent
	parent.Children = append(r.children.take(variations)[:0], parent.Children[0], c)
}

// appendNAG appends v to list, taking a fresh list from a chunk.
func (r *Reader) appendNAG(list []uint8, v uint8) []uint8 {
	if list != nil {
		return append(list, v)
	}
	l := r.nags.take(1)
	l[0] = v
	return l
}

// stringList returns a list of k empty strings for comments to be filled
// in by finishText.
func (r *Reader) stringList(k int) []string {
	return r.strs.take(k)
}

// newSlabs sets the chunk size bounds.
func (r *Reader) newSlabs() {
	r.nodes.min, r.nodes.max = 16, 1024
	r.children.min, r.children.max = 16, 1024
	r.strs.min, r.strs.max = 8, 1024
	r.commands.min, r.commands.max = 8, 256
	r.nags.min, r.nags.max, r.nags.shared = 256, 256, true
}

// textSpan is a comment's text in r.text.
type textSpan struct{ a, b int }

// A textFix says where a comment's text goes once the game is read.
type textFix struct {
	n    *Node
	list uint8 // fixAfter, fixBefore or fixOther
	i    int   // index in that list
	span textSpan
}

const (
	fixAfter = iota
	fixBefore
	fixOther
)

// addText appends text span s to one of n's lists.
func (r *Reader) addText(n *Node, list uint8, s textSpan) {
	var l *[]string
	switch list {
	case fixAfter:
		l = &n.After
	case fixBefore:
		l = &n.Before
	default:
		l = &n.Commands.Other
	}
	if *l == nil {
		*l = r.stringList(1)
	} else {
		*l = append(*l, "")
	}
	r.fixes = append(r.fixes, textFix{n, list, len(*l) - 1, s})
}

// setBefore gives the pending comments to n as the comments before it.
func (r *Reader) setBefore(n *Node) {
	n.Before = r.stringList(len(r.pending))
	for i, s := range r.pending {
		r.fixes = append(r.fixes, textFix{n, fixBefore, i, s})
	}
	r.pending = r.pending[:0]
}

// attachPending gives comments that found no following move to n, the last
// move of the line, as comments after it.
func (r *Reader) attachPending(n *Node) {
	for _, s := range r.pending {
		// A comment meant to precede a move that never came follows n
		// instead, and so holds commands like any other such comment
		// (as it will when the game is written and read again).
		if raw := r.text[s.a:s.b]; r.ParseCommands && bytes.Contains(raw, cmdOpen) {
			r.afterComment(n, raw)
		} else {
			r.addText(n, fixAfter, s)
		}
	}
	r.pending = r.pending[:0]
}

// collapsedText appends s to r.text trimmed and with each run of
// whitespace made one space; ok is false if nothing is left.
func (r *Reader) collapsedText(s []byte) (_ textSpan, ok bool) {
	a := len(r.text)
	r.text = appendCollapsed(r.text, s)
	return textSpan{a, len(r.text)}, len(r.text) > a
}

// startText readies the Reader for a new game, whose root is the next
// node newNode returns.
func (r *Reader) startText() {
	r.nodes.newGame()
	r.children.newGame()
	r.strs.newGame()
	r.commands.newGame()
	clear(r.fixes)
	r.text, r.fixes, r.pending, r.sans = r.text[:0], r.fixes[:0], r.pending[:0], r.sans[:0]
}

// finishText makes the game's text (its moves' SAN and its comments) one
// string, decoded from Latin-1 if latin1 is set, and puts each piece, a
// substring of it, where it belongs.
func (r *Reader) finishText(latin1 bool) {
	if len(r.text) == 0 && len(r.fixes) == 0 {
		return
	}
	var text string
	if latin1 {
		text = r.latin1Text()
	} else {
		text = string(r.text)
	}
	// Moves: positional, which spares a pointer per move.
	sans := r.sans
	root := true
	for i := 0; i <= len(r.nodes.done); i++ {
		run := r.nodes.chunk
		if i < len(r.nodes.done) {
			run = r.nodes.done[i]
		}
		for j := range run {
			if root {
				root = false
				continue
			}
			run[j].SAN = text[sans[0].a:sans[0].b]
			sans = sans[1:]
		}
	}
	for _, f := range r.fixes {
		s := text[f.span.a:f.span.b]
		switch f.list {
		case fixAfter:
			f.n.After[f.i] = s
		case fixBefore:
			f.n.Before[f.i] = s
		default:
			f.n.Commands.Other[f.i] = s
		}
	}
	clear(r.fixes) // let the nodes go
	r.text, r.fixes, r.sans = r.text[:0], r.fixes[:0], r.sans[:0]
}

// comment records the comment in r.tok: before the next move when one is
// expected (after '(' or ')'), else after st.cur's move, with embedded
// commands ([%clk 0:01:02]) taken into st.cur.Commands when
// r.ParseCommands is set.
func (r *Reader) comment(st *gameState) {
	raw := r.tok
	if st.wantBefore {
		s, _ := r.collapsedText(raw)
		r.pending = append(r.pending, s)
		return
	}
	r.afterComment(st.cur, raw)
}

// afterComment adds a comment that follows n's move, its embedded commands
// taken out into n.Commands.
func (r *Reader) afterComment(n *Node, raw []byte) {
	if !r.ParseCommands || !bytes.Contains(raw, cmdOpen) {
		s, _ := r.collapsedText(raw) // an empty comment is kept, as {}
		r.addText(n, fixAfter, s)
		return
	}
	// The text around the commands, a space where each one was; a
	// comment that held only commands adds no text.
	rest := r.scratch[:0]
	for {
		i := bytes.Index(raw, cmdOpen)
		if i < 0 {
			break
		}
		j := bytes.IndexByte(raw[i:], ']')
		if j < 0 {
			break
		}
		rest = append(rest, raw[:i]...)
		rest = append(rest, ' ')
		r.command(n, raw[i:i+j+1])
		raw = raw[i+j+1:]
	}
	rest = append(rest, raw...)
	r.scratch = rest
	if s, ok := r.collapsedText(rest); ok {
		r.addText(n, fixAfter, s)
	}
}

var cmdOpen = []byte("[%")

// knownCommand reports whether cmd is named as one Commands.set may
// understand. Others (lichess's [%cal Ra1a8,Rb2b4,...], say) go to
// Commands.Other without becoming a string twice: converting a command of
// more than 32 bytes for set would allocate.
func knownCommand(cmd []byte) bool {
	body := cmd[2 : len(cmd)-1]
	for len(body) > 0 && isSpace(body[0]) {
		body = body[1:]
	}
	i := 0
	for i < len(body) && !isSpace(body[i]) {
		i++
	}
	switch string(body[:i]) {
	case "clk", "emt", "eval":
		return true
	}
	return false
}

// command records one embedded command "[%name args]" of n's comment.
func (r *Reader) command(n *Node, cmd []byte) {
	if n.Commands == nil {
		n.Commands = r.newCommands()
	}
	if !knownCommand(cmd) || !n.Commands.set(string(cmd)) {
		s, _ := r.collapsedText(cmd)
		r.addText(n, fixOther, s)
	}
}
