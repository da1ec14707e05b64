package pgn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/internal/atomicfile"
)

const lineWidth = 80

// AppendGame appends g in PGN export format to b: the Seven Tag Roster in
// order, the other tags, a blank line, movetext wrapped at 80 columns with
// move numbers, comments, NAGs ($n) and variations, the result, and a blank
// line. Embedded commands are written back into the comment after their
// move. The output reads back as the same tree.
func AppendGame(b []byte, g *Game) ([]byte, error) {
	start, err := g.StartPosition()
	if err != nil {
		return b, err
	}
	gg := *g
	gg.Tags = append([]Tag(nil), g.Tags...)
	if !isResult(gg.Result) {
		gg.Result = Unknown
	}
	gg.normalizeTags()
	for _, t := range gg.Tags {
		b = append(b, '[')
		b = append(b, t.Name...)
		b = append(b, " \""...)
		for i := 0; i < len(t.Value); i++ {
			switch c := t.Value[i]; c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\n', '\r', '\t', '\v', '\f':
				b = append(b, ' ')
			default:
				b = append(b, c)
			}
		}
		b = append(b, "\"]\n"...)
	}
	b = append(b, '\n')
	w := movetext{b: b, lineStart: len(b)}
	root := g.Root
	if root == nil {
		root = &Node{}
	}
	ply := 2*(start.FullmoveNumber()-1) + int(start.SideToMove())
	w.annotations(root)
	if err := w.line(root, ply, true); err != nil {
		return b, err
	}
	w.token(gg.Result)
	w.b = append(w.b, "\n\n"...)
	return w.b, nil
}

// Write writes the games to w in export format.
func Write(w io.Writer, games ...*Game) error {
	var b []byte
	for _, g := range games {
		var err error
		if b, err = AppendGame(b[:0], g); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// String returns the game in export format (or the error's text).
func (g *Game) String() string {
	b, err := AppendGame(nil, g)
	if err != nil {
		return "pgn: " + err.Error()
	}
	return string(b)
}

// movetext builds wrapped movetext.
type movetext struct {
	b         []byte
	lineStart int    // index in b where the current line starts
	open      string // "(" waiting to be glued to the next token
}

func (w *movetext) lineLen() int { return len(w.b) - w.lineStart }

// token adds a space-separated token, starting a new line if it would pass
// the width. A token starting with '%' or with '[' and a letter never
// starts a line: there it would read as an escape line or a tag.
func (w *movetext) token(t string) {
	if w.open != "" {
		t = w.open + t
		w.open = ""
	}
	if n := w.lineLen(); n > 0 {
		if n+1+len(t) > lineWidth && canStartLine(t) {
			w.newline()
		} else {
			w.b = append(w.b, ' ')
		}
	}
	w.b = append(w.b, t...)
}

// canStartLine reports whether token t may begin a line: one starting
// with '%', or with '[' and a letter, would read as an escape line or a
// tag.
func canStartLine[T ~string | ~[]byte](t T) bool {
	return len(t) > 0 && t[0] != '%' && !(t[0] == '[' && len(t) > 1 && isLetter(t[1]))
}

// glue appends t to the previous token (")" after a move, say). When the
// line has no room for it, the token before goes to the next line with it:
// a line never starts with a lone ")". If no token of the line may start
// one, the line runs long instead.
func (w *movetext) glue(t string) {
	if w.lineLen() > 0 && w.lineLen()+len(t) > lineWidth {
		line := w.b[w.lineStart:]
		for i := len(line) - 1; i > 0; i-- {
			if line[i] == ' ' && canStartLine(line[i+1:]) {
				w.b[w.lineStart+i] = '\n'
				w.lineStart += i + 1
				break
			}
		}
	}
	w.b = append(w.b, t...)
}

func (w *movetext) newline() {
	w.b = append(w.b, '\n')
	w.lineStart = len(w.b)
}

// comment writes one comment. Brace comments cannot contain '}', so such
// a comment is written as a ';' comment, which runs to the end of its line.
func (w *movetext) comment(text string) {
	text = collapse(text)
	if strings.IndexByte(text, '}') >= 0 {
		if n := w.lineLen(); n > 0 && n+2+len(text) > lineWidth {
			w.newline()
		}
		if w.lineLen() > 0 {
			w.b = append(w.b, ' ')
		}
		w.b = append(w.b, ';')
		w.b = append(w.b, text...)
		w.newline()
		return
	}
	if text == "" {
		w.token("{}")
		return
	}
	words := strings.Split(text, " ")
	for i, word := range words {
		if i == 0 {
			word = "{" + word
		}
		if i == len(words)-1 {
			word += "}"
		}
		w.token(word)
	}
}

// annotations writes n's NAGs, commands and comments after its move.
func (w *movetext) annotations(n *Node) {
	for _, nag := range n.NAGs {
		w.token("$" + strconv.Itoa(int(nag)))
	}
	after := n.After
	if cmds := n.Commands.text(); len(cmds) > 0 {
		first := strings.Join(cmds, " ")
		if len(after) > 0 && after[0] != "" {
			first += " " + after[0]
			after = after[1:]
		}
		w.comment(first)
	}
	for _, c := range after {
		w.comment(c)
	}
}

func (w *movetext) move(n *Node, ply int, number bool) error {
	if n.SAN == "" {
		return errors.New("pgn: node without SAN")
	}
	for _, c := range n.Before {
		w.comment(c)
		number = true
	}
	switch {
	case ply%2 == 0:
		w.token(strconv.Itoa(ply/2+1) + ".")
	case number:
		w.token(strconv.Itoa(ply/2+1) + "...")
	}
	w.token(n.SAN)
	w.annotations(n)
	return nil
}

// line writes the continuation after node from: its main child, that
// child's alternatives as variations, and so on.
func (w *movetext) line(from *Node, ply int, number bool) error {
	for n := from; len(n.Children) > 0; ply++ {
		main := n.Children[0]
		if err := w.move(main, ply, number); err != nil {
			return err
		}
		number = len(main.After) > 0 || len(main.Commands.text()) > 0
		for _, v := range n.Children[1:] {
			w.open = "("
			if err := w.move(v, ply, true); err != nil {
				return err
			}
			after := len(v.After) > 0 || len(v.Commands.text()) > 0
			if err := w.line(v, ply+1, after); err != nil {
				return err
			}
			w.glue(")")
			number = true
		}
		n = main
	}
	return nil
}

// WriteFile saves the games to path atomically: they are written to a
// temporary file in the same directory, synced, and renamed over path, so
// a crash or error leaves either the old file or the new one, never a mix.
func WriteFile(path string, games []*Game) error {
	return writeFileAtomic(path, func(w io.Writer) error { return Write(w, games...) })
}

// writeFileAtomic streams write's output, buffered, into a new version of
// path; an error from write leaves path as it was.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("pgn: %w", err)
	}
	defer f.Discard()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return fmt.Errorf("pgn: saving %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("pgn: %w", err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("pgn: %w", err)
	}
	return nil
}

// AppendFile adds the games at the end of path (creating it if needed)
// without rewriting the games already there. If writing fails the file is
// cut back to its old length.
func AppendFile(path string, games ...*Game) (err error) {
	var b []byte
	for _, g := range games {
		if b, err = AppendGame(b, g); err != nil {
			return fmt.Errorf("pgn: appending to %s: %w", path, err)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("pgn: appending to %s: %w", path, err)
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err == nil {
		b, err = separate(f, size, b)
	}
	if err == nil {
		_, err = f.Write(b)
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			f.Truncate(size)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("pgn: appending to %s: %w", path, err)
	}
	return nil
}

// separate prefixes b with the newlines needed for a blank line between
// the file's last game and the new ones.
func separate(f *os.File, size int64, b []byte) ([]byte, error) {
	if size == 0 {
		return b, nil
	}
	var tail [2]byte
	n := int64(len(tail))
	if size < n {
		n = size
	}
	if _, err := f.ReadAt(tail[:n], size-n); err != nil {
		return nil, err
	}
	want := "\n\n"
	switch {
	case n == 2 && tail[0] == '\n' && tail[1] == '\n':
		want = ""
	case tail[n-1] == '\n':
		want = "\n"
	}
	return append([]byte(want), b...), nil
}
