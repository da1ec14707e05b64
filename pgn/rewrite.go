package pgn

import (
	"fmt"
	"io"
	"os"
)

// A Piece is part of a PGN file being rewritten by RewriteFile: the bytes
// [From, To) of the file as it is, copied unchanged, or (Game set) a game
// written in export format.
type Piece struct {
	From, To int64
	Game     *Game
}

// Span is the piece of the file that is the bytes [from, to).
func Span(from, to int64) Piece { return Piece{From: from, To: to} }

// RewriteFile replaces the file at path with pieces, in order: a game
// list's delete, move and insert are each a new order of the games' bytes
// (an Entry's Offset up to the next one's), so every game not changed
// stays byte for byte. The file is streamed, never held whole, into a new
// version that replaces it only once complete (package atomicfile, through
// writeFileAtomic), so a failure leaves the file as it was. A piece that
// does not end in a blank line gets one before the next piece: the last
// game of a file often ends without, and moved up it must still end
// where the next game begins.
func RewriteFile(path string, pieces []Piece) error {
	src, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("pgn: rewriting %s: %w", path, err)
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return fmt.Errorf("pgn: rewriting %s: %w", path, err)
	}
	return writeFileAtomic(path, func(w io.Writer) error {
		var tail [2]byte // the last two bytes written, for the separator
		wrote := false
		for i, p := range pieces {
			if i > 0 && wrote && (tail[0] != '\n' || tail[1] != '\n') {
				sep := "\n\n"
				if tail[1] == '\n' {
					sep = "\n"
				}
				if _, err := io.WriteString(w, sep); err != nil {
					return err
				}
				tail = [2]byte{'\n', '\n'}
			}
			var b []byte
			if p.Game != nil {
				var err error
				if b, err = AppendGame(nil, p.Game); err != nil {
					return err
				}
				if _, err := w.Write(b); err != nil {
					return err
				}
			} else {
				if p.From < 0 || p.From > p.To || p.To > fi.Size() {
					return fmt.Errorf("bytes %d–%d are outside the file's %d", p.From, p.To, fi.Size())
				}
				if _, err := io.Copy(w, io.NewSectionReader(src, p.From, p.To-p.From)); err != nil {
					return err
				}
				n := min(p.To-p.From, 2)
				b = make([]byte, n)
				if _, err := src.ReadAt(b, p.To-n); err != nil {
					return err
				}
			}
			wrote = wrote || len(b) > 0
			switch len(b) {
			case 0:
			case 1:
				tail = [2]byte{tail[1], b[0]}
			default:
				tail = [2]byte{b[len(b)-2], b[len(b)-1]}
			}
		}
		return nil
	})
}
