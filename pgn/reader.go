package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/squall-chess/squall/engine/chess"
)

// Limits that keep memory bounded on hostile input. Longer comments and
// tokens are errors; the reader still finds where they end.
const (
	maxComment = 1 << 20
	maxToken   = 256
	maxTagLine = 64 << 10
)

// Reader reads games one at a time from a PGN stream. Its memory use does
// not grow with the input, only with the largest game: once the next game
// has been read, the Reader keeps nothing of a game the caller dropped.
type Reader struct {
	// ParseCommands controls whether [%clk], [%eval] and other embedded
	// commands are taken out of comments into Node.Commands (the default)
	// or left in the comment text.
	ParseCommands bool

	name string
	src  source
	err  error // sticky: a read error, or io.EOF once input is done

	// Current token.
	tok          []byte // its text: in tokBuf, or in the source's buffer
	tokBuf       []byte
	tokOff       int64
	tokLine      int
	tokCol       int
	tokLong      bool // symbol or comment over its limit
	unterminated bool // brace comment cut off by a tag line or EOF
	nag          int  // value of a tNAG, -1 if malformed
	newlines     int  // line ends skipped before the token

	lineBuf []byte
	arena   []byte // tag names and values of the current game
	spans   []tagSpan

	// Move replay and tree building.
	ml       chess.MoveList
	line     []chess.Move // the moves from the start to the current position
	undos    []chess.Undo
	frames   []frame
	nodes    slab[Node]
	children slab[*Node]
	strs     slab[string]
	commands slab[Commands]
	nags     slab[uint8]
	sans     []textSpan      // of the game's moves, in the order of their nodes
	text     []byte          // SAN and comment text of the game being read
	fixes    []textFix       // where each comment's text goes
	pending  []textSpan      // comments waiting for the next move
	scratch  []byte          // a comment's text around its commands
	start    *chess.Position // parsed from startFEN; never moves
	startFEN string
	pos      chess.Position // the position of the game being read
	skimmed  int            // main-line moves of the game last skimmed
	checked  Game           // the game being read in check mode, which keeps none
}

type tagSpan struct{ n0, n1, v0, v1 int }

// frame is an open variation: where to resume the line it branched from.
type frame struct {
	move      chess.Move // the move the variation is an alternative to
	main      *Node      // its node; nil when no tree is built
	depth     int        // len(line) before move
	line, col int        // of its '(', for the error if it is never closed
}

// NewReader returns a Reader for r; name (usually the file name) prefixes
// error positions and may be "".
func NewReader(r io.Reader, name string) *Reader {
	rd := &Reader{ParseCommands: true, name: name}
	rd.newSlabs()
	rd.src.reset(r, 0, 1)
	return rd
}

// Games reads every game from r. It yields (game, nil) for good games,
// (partial game, *Error) for a game with an illegal move or other problem,
// and (nil, err) once if reading fails; reading goes on after an *Error.
func Games(r io.Reader) iter.Seq2[*Game, error] {
	return NewReader(r, "").All()
}

// All yields the remaining games as Games does.
func (r *Reader) All() iter.Seq2[*Game, error] {
	return func(yield func(*Game, error) bool) {
		for {
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(g, err) || g == nil {
				return
			}
		}
	}
}

// Next reads the next game. At the end of input it returns nil, io.EOF.
// A game with a problem comes back with an *Error and as much of the game
// as was read before the problem; the following call reads the next game.
// A read error is returned as (nil, err) by this and every later call.
func (r *Reader) Next() (*Game, error) {
	g, _, err := r.readGame(build)
	return g, err
}

// CheckNext reads the next game as Next does, checking every move, and
// returns what Next would: nil for a good game, the *Error of a game with
// a problem, io.EOF at the end of input, and a read error from this and
// every later call. It keeps nothing of the game, not even its tags: a
// program that only validates a file (squall pgn) reads it about twice as
// fast this way, with no allocation for most games.
func (r *Reader) CheckNext() error {
	_, _, err := r.readGame(check)
	return err
}

// mode is how much of a game readGame makes.
type mode uint8

const (
	skim  mode = iota // tags, result and location; the moves are not replayed
	check             // and every move checked, nothing of the moves kept
	build             // and the move tree with its comments, NAGs and SAN
)

// token kinds.
type tokKind uint8

const (
	tEOF tokKind = iota
	tSymbol
	tComment
	tNAG
	tOpen
	tClose
	tTag // a '[' ahead, not consumed: a tag section begins
)

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// token reads the next movetext token. Comment text is kept in r.tok only
// when keep is set.
func (r *Reader) token(keep bool) tokKind {
	s := &r.src
	r.newlines = 0
	for {
		// Blanks, the bulk of the bytes between tokens, skipped in the
		// buffer. Stray closing brackets are dropped with them: there is
		// nothing to close.
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c == '\n' {
				r.newlines++
				s.pos++
				s.line++
				s.lineStart = s.base + int64(s.pos)
				continue
			}
			if !skipped[c] {
				break
			}
			s.pos++
		}
		c, ok := s.peek()
		if !ok {
			return tEOF
		}
		if c == '\n' || skipped[c] {
			continue // the buffer was refilled
		}
		r.tokOff, r.tokLine = s.offset(), s.line
		r.tokCol = int(r.tokOff-s.lineStart) + 1
		switch c {
		case '%':
			if s.atLineStart() {
				s.skipLine()
				continue
			}
			return r.symbol()
		case '{':
			s.advance()
			r.braceComment(keep)
			return tComment
		case ';':
			s.advance()
			r.lineComment(keep)
			return tComment
		case '(':
			s.advance()
			return tOpen
		case ')':
			s.advance()
			return tClose
		case '[':
			return tTag
		case '$':
			s.advance()
			r.nag = 0
			n := 0
			for {
				d, ok := s.peek()
				if !ok || d < '0' || d > '9' {
					break
				}
				s.advance()
				if r.nag >= 0 {
					r.nag = r.nag*10 + int(d-'0')
					if r.nag > 255 {
						r.nag = -1
					}
				}
				n++
			}
			if n == 0 {
				r.nag = -1
			}
			return tNAG
		default:
			r.symbol()
			if len(r.tok) == 3 && len(trimBOM(r.tok)) == 0 {
				continue // byte order mark
			}
			return tSymbol
		}
	}
}

// symbol reads a symbol into r.tok. One that ends inside the source's
// buffer, as nearly all do, is left there rather than copied: nothing reads
// on, and so moves the buffer, before the next token.
func (r *Reader) symbol() tokKind {
	s := &r.src
	chunk := s.buf[s.pos:s.end]
	for n, c := range chunk[:min(len(chunk), maxToken+1)] {
		if delims[c] {
			r.tok, r.tokLong = chunk[:n:n], false
			s.pos += n
			return tSymbol
		}
	}
	r.tok, r.tokLong = s.readWhile(r.tokBuf[:0], &delims, maxToken)
	r.tokBuf = r.tok
	return tSymbol
}

// skipped are the bytes token skips between tokens, besides '\n'.
var skipped = func() (d [256]bool) {
	for _, c := range []byte(" \t\r\v\f}]") {
		d[c] = true
	}
	return d
}()

// delims are the bytes that end a symbol.
var delims = func() (d [256]bool) {
	for _, c := range []byte(" \t\n\r\v\f{}()[];$") {
		d[c] = true
	}
	return d
}()

// braceComment reads up to and including '}', keeping the text in r.tok
// if keep is set; r.tokLong is set either way for one over maxComment. A
// line that starts with '[' and a letter inside a comment means the brace
// was never closed and a new game's tags begin; the comment stops there,
// marked unterminated.
func (r *Reader) braceComment(keep bool) {
	s := &r.src
	r.tok = r.tokBuf[:0]
	r.unterminated = false
	n := 0 // the comment's length so far
	for {
		if s.pos >= s.end && !s.ensure(1) {
			r.unterminated = true
			break
		}
		// The run up to '}' or a line end, in the buffer.
		chunk := s.buf[s.pos:s.end]
		i := 0
		for i < len(chunk) && chunk[i] != '}' && chunk[i] != '\n' {
			i++
		}
		if keep {
			r.tok = append(r.tok, chunk[:min(i, max(maxComment-len(r.tok), 0))]...)
		}
		n += i
		s.pos += i
		if i == len(chunk) {
			continue // the buffer is refilled
		}
		if chunk[i] == '}' {
			s.pos++
			break
		}
		s.advance() // the line end, counted
		n++
		if keep && len(r.tok) < maxComment {
			r.tok = append(r.tok, '\n')
		}
		if c, ok := s.peek(); ok && c == '[' {
			if d, ok := s.peek2(); ok && isLetter(d) {
				r.unterminated = true
				break
			}
		}
	}
	r.tokBuf, r.tokLong = r.tok, n > maxComment
}

// lineComment reads the rest of the line, newline included; the comment is
// what stands before the newline, kept in r.tok if keep is set.
func (r *Reader) lineComment(keep bool) {
	r.unterminated = false
	n := 0
	if keep {
		r.tok, n = r.src.readLine(r.tokBuf[:0], maxComment)
		r.tokBuf = r.tok
	} else {
		r.tok, n = r.tokBuf[:0], r.src.skipLine()
	}
	r.tokLong = n > maxComment
}

// gameState is what readGame builds; in skim mode only the tags, result
// and location, in check mode only the location.
type gameState struct {
	g        *Game
	p        *chess.Position
	cur      *Node // the move the next one follows; nil in check mode
	startPly int
	// wantBefore: the next comment precedes a move (after '(' or ')')
	// rather than following cur.
	wantBefore bool
	err        *Error
	result     string
	content    bool // anything besides whitespace was read
	latin1     bool // the game is not UTF-8 (see latin1.go)
}

// readGame reads one game. In skim mode the game has only tags, Result,
// Offset and Line, in check mode only Offset and Line (and it is the
// Reader's, reused). Check mode finds every problem build mode does, skim
// mode only those outside the moves. Every mode ends games at exactly the
// same places.
func (r *Reader) readGame(m mode) (*Game, bool, error) {
	for {
		if r.err != nil {
			return nil, false, r.err
		}
		g, ok, err := r.readOne(m)
		if r.err == nil {
			if rerr := r.src.readErr(); rerr != nil {
				r.err = fmt.Errorf("pgn: reading %s: %w", r.nameOr("input"), rerr)
				return nil, false, r.err
			}
		}
		if ok {
			return g, true, err
		}
		if r.err == nil && !r.more() {
			r.err = io.EOF
		}
	}
}

func (r *Reader) nameOr(def string) string {
	if r.name == "" {
		return def
	}
	return r.name
}

// more reports whether input remains.
func (r *Reader) more() bool {
	_, ok := r.src.peek()
	return ok
}

// readOne reads from the current position to the end of a game; ok is false
// when it found nothing worth reporting (only whitespace, or a stray result).
func (r *Reader) readOne(m mode) (*Game, bool, error) {
	// The first token's text is kept: a game without tags may begin with
	// a comment, which is the game's own (it was read and dropped).
	keep := m == build
	k := r.token(keep)
	if k == tEOF {
		// readGame tells a read error (a directory opened as a file
		// fails on its first read) from the end of input.
		return nil, false, nil
	}
	st := gameState{g: &r.checked}
	if m != check {
		st.g = &Game{}
	}
	*st.g = Game{Offset: r.tokOff, Line: r.tokLine}
	r.arena, r.spans = r.arena[:0], r.spans[:0]
	// Tag section. A blank line ends it: tags after one belong to the
	// next game (this one has no movetext).
	for k == tTag {
		st.content = true
		r.tagLine(&st)
		if k = r.token(keep); k == tTag && r.newlines > 0 {
			k = tEOF
		}
	}
	st.latin1 = !utf8.Valid(r.arena)
	if m != check {
		r.finishTags(&st)
	}
	if m != skim {
		r.startMoves(&st, keep)
	}
	// Movetext. replay: the moves are played; keep: they, their comments
	// and NAGs are kept in the tree. A problem ends both. Skimming, the
	// main line's moves are counted (depth: the variations open), not
	// checked.
	replay := m != skim
	depth, plies := 0, 0
loop:
	for ; k != tEOF && k != tTag; k = r.token(keep) {
		if st.err != nil {
			replay, keep = false, false
		}
		switch k {
		case tSymbol:
			if res := resultOf(r.tok); res != "" {
				st.result = res
				break loop
			}
			st.content = true
			if replay && st.err == nil {
				r.symbolToken(&st, keep)
			} else if m == skim && depth == 0 && skimmedMove(r.tok) {
				plies++
			}
		case tComment:
			st.content = true
			if r.unterminated {
				r.fail(&st, "", errors.New("comment not closed by '}'"))
			} else if r.tokLong {
				r.fail(&st, "", errors.New("comment longer than 1 MiB"))
			} else if keep && st.err == nil {
				r.comment(&st)
			}
		case tNAG:
			st.content = true
			if r.nag < 0 {
				r.fail(&st, "", errors.New("malformed NAG (want $0 to $255)"))
			} else if keep && st.err == nil {
				st.cur.NAGs = r.appendNAG(st.cur.NAGs, uint8(r.nag))
			}
		case tOpen:
			st.content = true
			depth++
			if replay && st.err == nil {
				r.openVariation(&st)
			}
		case tClose:
			depth = max(depth-1, 0)
			if replay && st.err == nil {
				r.closeVariation(&st)
			}
		}
	}
	if !st.content && len(r.spans) == 0 {
		return nil, false, nil // a lone result between games, say
	}
	r.skimmed = plies
	if m != skim && len(r.frames) > 0 {
		// The innermost: the one a ')' would have closed first.
		f := r.frames[len(r.frames)-1]
		r.failAt(&st, f.line, f.col, errors.New("variation '(' not closed by ')'"))
	}
	g := st.g
	if m == build {
		r.finishMoves(&st)
	}
	switch {
	case st.result != "":
		g.Result = st.result
	case isResult(g.Tag("Result")):
		g.Result = g.Tag("Result")
	default:
		g.Result = Unknown
	}
	if m == build {
		g.normalizeTags()
	}
	if st.err != nil {
		return g, true, st.err
	}
	return g, true, nil
}

func isResult(s string) bool {
	return s == WhiteWins || s == BlackWins || s == Draw || s == Unknown
}

func resultOf(tok []byte) string {
	switch string(tok) {
	case "1-0":
		return WhiteWins
	case "0-1":
		return BlackWins
	case "1/2-1/2":
		return Draw
	case "*":
		return Unknown
	}
	return ""
}

// fail records the game's first error, at the current token; the rest of
// the game is skimmed.
func (r *Reader) fail(st *gameState, move string, err error) {
	if st.err == nil {
		st.err = &Error{File: r.name, Line: r.tokLine, Col: r.tokCol, Move: move, Err: err}
	}
}

// failAt records the game's first error at line and col.
func (r *Reader) failAt(st *gameState, line, col int, err error) {
	if st.err == nil {
		st.err = &Error{File: r.name, Line: line, Col: col, Err: err}
	}
}

// tagLine reads one line of tag pairs into the arena. The line is parsed
// where it stands in the source's buffer when it ends there, as nearly
// all do, else from a copy.
func (r *Reader) tagLine(st *gameState) {
	line := r.src.bufferedLine(maxTagLine)
	if line == nil {
		var n int
		r.lineBuf, n = r.src.readLine(r.lineBuf[:0], maxTagLine)
		if n > maxTagLine {
			r.fail(st, "", errors.New("tag line longer than 64 KiB"))
			return
		}
		line = r.lineBuf
	}
	// The line was read from its '[' at the token's column.
	switch at, name := r.parseTags(line); {
	case at < 0:
	case name == "":
		r.fail(st, "", fmt.Errorf("malformed tag line %q", truncate(line, 60)))
	default:
		r.failAt(st, r.tokLine, r.tokCol+at, fmt.Errorf("tag %s: value not closed by '\"'", name))
	}
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// parseTags reads `[Name "value"]` pairs from one line. It is tolerant: a
// value's closing quote is the first unescaped '"' followed by ']' and then
// the end of the line or another '['; failing that, any such '"' (so
// `[Event "C:\"]` reads as `C:\`); an unquoted value runs to the ']'.
//
// at is -1 for a good line. For a malformed one it is where the problem
// is, and name is "" or, for a value whose quote is never closed (the
// value is kept, up to the line's last ']'), the tag's name and at is
// the opening quote: a value cannot run on to the next line, and taking
// the line as it is would silently mend a broken file.
func (r *Reader) parseTags(line []byte) (at int, name string) {
	i, n := 0, len(line)
	at = -1
	for {
		for i < n && isBlank(line[i]) {
			i++
		}
		if i >= n {
			return at, name
		}
		if line[i] != '[' {
			return i, ""
		}
		i++
		for i < n && isBlank(line[i]) {
			i++
		}
		j := i
		for j < n && !isBlank(line[j]) && line[j] != '"' && line[j] != ']' && line[j] != '[' {
			j++
		}
		if j == i {
			return i, ""
		}
		n0 := len(r.arena)
		r.arena = append(r.arena, line[i:j]...)
		n1 := len(r.arena)
		i = j
		for i < n && isBlank(line[i]) {
			i++
		}
		v0 := len(r.arena)
		if i < n && line[i] == '"' {
			i++
			end := closingQuote(line, i, true)
			if end < 0 {
				end = closingQuote(line, i, false)
			}
			if end < 0 { // no closing quote: take the rest up to the last ']'
				if at < 0 {
					at, name = i-1, string(r.arena[n0:n1])
				}
				end = n
				if j := lastIndex(line[i:], ']'); j >= 0 {
					end = i + j
				}
				r.arena = append(r.arena, line[i:end]...)
				i = end
			} else {
				for j := i; j < end; {
					// Runs without a backslash are copied whole.
					k := bytes.IndexByte(line[j:end], '\\')
					if k < 0 {
						r.arena = append(r.arena, line[j:end]...)
						break
					}
					r.arena = append(r.arena, line[j:j+k]...)
					j += k
					if j+1 < end && (line[j+1] == '"' || line[j+1] == '\\') {
						j++ // an escape: keep what it escapes
					}
					r.arena = append(r.arena, line[j])
					j++
				}
				i = end + 1
			}
		} else {
			j := i
			for j < n && line[j] != ']' {
				j++
			}
			e := j
			for e > i && isBlank(line[e-1]) {
				e--
			}
			r.arena = append(r.arena, line[i:e]...)
			i = j
		}
		v1 := len(r.arena)
		// A tab or form feed inside a value is a space to the standard (and
		// to the writer), so the tree is the same after a write. Those
		// blanks ('\t', '\v', '\f', '\r'; a line has no '\n') are below
		// '\r' + 1: one comparison passes every other byte.
		for k := v0; k < v1; k++ {
			if c := r.arena[k]; c <= '\r' && isBlank(c) {
				r.arena[k] = ' '
			}
		}
		r.spans = append(r.spans, tagSpan{n0, n1, v0, v1})
		for i < n && isBlank(line[i]) {
			i++
		}
		if i < n && line[i] == ']' {
			i++
		}
	}
}

func lastIndex(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// closingQuote finds the index of the quote that ends a tag value starting
// at i, honouring backslash escapes if escapes is set; -1 if none.
func closingQuote(line []byte, i int, escapes bool) int {
	for ; i < len(line); i++ {
		switch line[i] {
		case '\\':
			if escapes {
				i++
			}
		case '"':
			j := i + 1
			for j < len(line) && isBlank(line[j]) {
				j++
			}
			if j < len(line) && line[j] == ']' {
				j++
				for j < len(line) && isBlank(line[j]) {
					j++
				}
				if j == len(line) || line[j] == '[' {
					return i
				}
			}
		}
	}
	return -1
}

// finishTags turns the arena into the game's tags with one allocation for
// all their text, decoded from Latin-1 if st.latin1 is set.
func (r *Reader) finishTags(st *gameState) {
	if len(r.spans) == 0 {
		return
	}
	text, spans := string(r.arena), r.spans
	if st.latin1 {
		var b []byte
		spans = make([]tagSpan, len(r.spans))
		for i, sp := range r.spans {
			n0 := len(b)
			b = appendLatin1(b, r.arena[sp.n0:sp.n1])
			n1 := len(b)
			b = appendLatin1(b, r.arena[sp.v0:sp.v1])
			spans[i] = tagSpan{n0, n1, n1, len(b)}
		}
		text = string(b)
	}
	tags := make([]Tag, 0, len(spans)+7)
	for _, sp := range spans {
		tags = append(tags, Tag{text[sp.n0:sp.n1], text[sp.v0:sp.v1]})
	}
	// A repeated tag keeps its first place and its last value.
	for i := 1; i < len(tags); i++ {
		for j := 0; j < i; j++ {
			if tags[j].Name == tags[i].Name {
				tags[j].Value = tags[i].Value
				tags = append(tags[:i], tags[i+1:]...)
				i--
				break
			}
		}
	}
	st.g.Tags = tags
}

// variantOK reports whether moves of this Variant tag can be checked by
// standard chess rules.
func variantOK(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "standard", "chess", "normal", "from position", "fromposition":
		return true
	}
	return isChess960(v)
}

// startMoves readies the replay of g's moves from its start position, and
// the tree if keep is set (st.cur is then its root, else nil).
func (r *Reader) startMoves(st *gameState, keep bool) {
	g := st.g
	if keep {
		r.startText()
		g.Root = r.newNode()
		st.cur = g.Root
	}
	// Cleared to its capacity: stale pointers past the length would keep
	// earlier games alive.
	clear(r.frames[:cap(r.frames)])
	r.line, r.undos, r.frames = r.line[:0], r.undos[:0], r.frames[:0]
	variant := string(r.tagValue(st, "Variant"))
	if !variantOK(variant) {
		r.fail(st, "", fmt.Errorf("%w %q", ErrVariant, variant))
		return
	}
	p, err := r.startPosition(r.tagValue(st, "FEN"), isChess960(variant))
	if err != nil {
		r.fail(st, "", err)
		return
	}
	st.p = p
	st.startPly = 2*(p.FullmoveNumber()-1) + int(p.SideToMove())
}

// finishMoves attaches comments still waiting for a move and fills in the
// text of every comment.
func (r *Reader) finishMoves(st *gameState) {
	if st.cur != nil {
		r.attachPending(st.cur)
	}
	// One encoding for the whole game: a Latin-1 comment makes its tags
	// Latin-1 too (read again from the arena, which holds them still).
	if !st.latin1 && !utf8.Valid(r.text) {
		st.latin1 = true
		if !isASCII(r.arena) {
			r.finishTags(st)
		}
	}
	r.finishText(st.latin1)
}

// tagValue is the value of the game's named tag as Game.Tag would return
// it (empty if absent), from the tags as read: those of a game read in
// check mode are never made strings.
func (r *Reader) tagValue(st *gameState, name string) []byte {
	for i := len(r.spans) - 1; i >= 0; i-- { // a repeated tag's last value is kept
		sp := r.spans[i]
		if string(r.arena[sp.n0:sp.n1]) != name {
			continue
		}
		v := r.arena[sp.v0:sp.v1]
		if st.latin1 {
			return appendLatin1(nil, v)
		}
		return v
	}
	return nil
}

// startPosition is Game.StartPosition without its allocations in the
// common case: the position is r.pos, set by copying the last start
// position parsed when the FEN tag repeats (always, for games from the
// standard start). Only r.pos makes moves, so sharing history storage with
// r.start by assignment is safe.
func (r *Reader) startPosition(tag []byte, chess960 bool) (*chess.Position, error) {
	// string(tag) compared is not allocated.
	if r.start == nil || len(tag) == 0 && r.startFEN != chess.StartFEN || len(tag) > 0 && string(tag) != r.startFEN {
		fen := chess.StartFEN
		if len(tag) > 0 {
			fen = string(tag)
		}
		p, err := chess.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("FEN tag: %w", err)
		}
		r.start, r.startFEN = p, fen
	}
	r.pos = *r.start
	if chess960 {
		r.pos.SetChess960(true)
	}
	return &r.pos, nil
}

// suffixNAG returns the NAG of a suffix annotation ("!?", "+-", "±"). A
// cheap test of the first byte keeps moves away from the map lookup.
func suffixNAG(tok []byte) (uint8, bool) {
	switch tok[0] {
	case '!', '?', '=', '+', '-', 0xC2, 0xE2:
		nag, ok := suffixNAGs[string(tok)]
		return nag, ok
	}
	return 0, false
}

// Suffix annotations and their NAGs.
var suffixNAGs = map[string]uint8{
	"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6,
	"=": 10, "∞": 13, "+=": 14, "=+": 15, "+/-": 16, "-/+": 17, "+-": 18, "-+": 19,
	"⩲": 14, "⩱": 15, "±": 16, "∓": 17,
}

// symbolToken reads the symbol in r.tok: a move number, a suffix
// annotation or a move, which is checked and played, and added to the tree
// if keep is set.
func (r *Reader) symbolToken(st *gameState, keep bool) {
	tok := r.tok
	if r.tokLong {
		r.fail(st, "", fmt.Errorf("token %q… too long", tok[:20]))
		return
	}
	tok = moveText(tok)
	if len(tok) == 0 {
		return
	}
	if nag, ok := suffixNAG(tok); ok {
		if keep {
			st.cur.NAGs = r.appendNAG(st.cur.NAGs, nag)
		}
		return
	}
	if string(tok) == "e.p." || string(tok) == "ep" {
		return
	}
	if st.p == nil {
		return // the start position was bad; already reported
	}
	// Suffix annotation glued to the move.
	san := tok
	var nag uint8
	if j := annotationStart(san); j < len(san) {
		nag = suffixNAGs[string(san[j:])]
		san = san[:j]
	}
	m, fast, err := r.resolve(st.p, san)
	if err != nil {
		r.tokCol += len(r.tok) - len(tok) // point at the move, not its number
		r.fail(st, r.moveLabel(st, tok), err)
		return
	}
	if !keep {
		r.play(st.p, m)
		return
	}
	n := r.newNode()
	n.Move = m
	// The canonical SAN goes with the comments into the game's text
	// (finishText sets n.SAN).
	a := len(r.text)
	switch {
	case fast:
		// From the moves fastSAN generated, and the suffix from the
		// position after the move: cheaper than AppendSAN, which makes
		// the move again.
		r.text = r.sanBody(r.text, m)
		r.play(st.p, m)
		if st.p.InCheck() {
			if hasLegalMoves(st.p) {
				r.text = append(r.text, '+')
			} else {
				r.text = append(r.text, '#')
			}
		}
	case m == chess.NullMove:
		r.text = append(r.text, "--"...)
		r.play(st.p, m)
	default:
		r.text = st.p.AppendSAN(r.text, m)
		r.play(st.p, m)
	}
	r.sans = append(r.sans, textSpan{a, len(r.text)})
	if nag != 0 {
		n.NAGs = r.appendNAG(n.NAGs, nag)
	}
	if len(r.pending) > 0 {
		r.setBefore(n)
	}
	r.addChild(st.cur, n)
	st.cur = n
	st.wantBefore = false
}

// moveText is a symbol without its byte order mark and move number
// ("12.", "12...", glued "12.Nf3"): empty for a bare number.
func moveText(tok []byte) []byte {
	tok = trimBOM(tok)
	if len(tok) > 0 && tok[0] >= '0' && tok[0] <= '9' {
		i := 0
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		if i == len(tok) {
			return nil
		}
		if tok[i] == '.' {
			for i < len(tok) && tok[i] == '.' {
				i++
			}
			tok = tok[i:]
		}
	}
	for len(tok) > 0 && tok[0] == '.' {
		tok = tok[1:]
	}
	return tok
}

// skimmedMove reports whether a symbol skimmed in movetext is a move (not
// a number, a glyph or "e.p."): what NextEntry counts as a ply, unchecked.
func skimmedMove(tok []byte) bool {
	tok = moveText(tok)
	if len(tok) == 0 || string(tok) == "e.p." || string(tok) == "ep" {
		return false
	}
	_, nag := suffixNAG(tok)
	return !nag
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// annotationStart returns where a trailing run of '!' and '?' begins.
func annotationStart(s []byte) int {
	j := len(s)
	for j > 0 && (s[j-1] == '!' || s[j-1] == '?') {
		j--
	}
	return j
}

// play makes m, the next move of the line.
func (r *Reader) play(p *chess.Position, m chess.Move) {
	r.line = append(r.line, m)
	r.undos = append(r.undos, chess.Undo{})
	u := &r.undos[len(r.undos)-1]
	if m == chess.NullMove {
		p.MakeNullMove(u)
	} else {
		p.MakeMove(m, u)
	}
}

// unplay takes back the last move of the line.
func (r *Reader) unplay(p *chess.Position) {
	i := len(r.line) - 1
	m := r.line[i]
	if m == chess.NullMove {
		p.UnmakeNullMove(&r.undos[i])
	} else {
		p.UnmakeMove(m, &r.undos[i])
	}
	r.line = r.line[:i]
	r.undos = r.undos[:i]
}

// moveLabel is "12. e4" or "12... e5" for the move about to be played.
func (r *Reader) moveLabel(st *gameState, tok []byte) string {
	ply := st.startPly + len(r.line)
	dots := "."
	if ply%2 == 1 {
		dots = "..."
	}
	return strconv.Itoa(ply/2+1) + dots + " " + string(tok)
}

// hasLegalMoves is p.HasLegalMoves, called after a check: a king with a
// safe square to go to is the common answer and much cheaper to find than
// counting every legal move.
func hasLegalMoves(p *chess.Position) bool {
	us := p.SideToMove()
	ksq := p.KingSquare(us)
	occ := p.Occupied() &^ chess.SquareBB(ksq) // the king does not block its own attackers
	for b := chess.KingAttacks(ksq) &^ p.ByColor(us); b != 0; {
		if !p.Attacked(b.PopLSB(), us, occ) {
			return true
		}
	}
	return p.HasLegalMoves()
}

func (r *Reader) openVariation(st *gameState) {
	base := 0
	if len(r.frames) > 0 {
		base = r.frames[len(r.frames)-1].depth
	}
	if len(r.line) <= base || st.p == nil {
		r.fail(st, "", errors.New("variation '(' before any move it could replace"))
		return
	}
	depth := len(r.line) - 1
	r.frames = append(r.frames, frame{move: r.line[depth], main: st.cur, depth: depth, line: r.tokLine, col: r.tokCol})
	r.unplay(st.p)
	if st.cur != nil { // the tree is kept
		r.attachPending(st.cur)
		st.cur = st.cur.Parent
		st.wantBefore = true
	}
}

func (r *Reader) closeVariation(st *gameState) {
	if len(r.frames) == 0 {
		return // stray ')': nothing to close
	}
	f := r.frames[len(r.frames)-1]
	r.frames = r.frames[:len(r.frames)-1]
	for len(r.line) > f.depth {
		r.unplay(st.p)
	}
	r.play(st.p, f.move)
	if st.cur != nil { // the tree is kept
		r.attachPending(st.cur)
		st.cur = f.main
		st.wantBefore = true
	}
}
