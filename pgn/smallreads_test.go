package pgn

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"
	"testing/iotest"
)

// TestSmallReads: input that arrives a byte or a few at a time reads as it
// does whole. Tokens, comments and tag lines are then cut by the end of
// the buffer, where the reader leaves its in-buffer fast paths for copies.
func TestSmallReads(t *testing.T) {
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, errs := readWithErrors(data)
		for name, wrap := range map[string]func(io.Reader) io.Reader{
			"one byte": iotest.OneByteReader,
			"half":     iotest.HalfReader,
		} {
			r := NewReader(wrap(bytes.NewReader(data)), "fuzz")
			c := NewReader(wrap(bytes.NewReader(data)), "fuzz")
			for i := range games {
				g, err := r.Next()
				if fmt.Sprint(err) != fmt.Sprint(errs[i]) || !sameGame(g, games[i]) {
					t.Fatalf("%s, %s reads: game %d differs (%v, whole %v)", f, name, i, err, errs[i])
				}
				if err := c.CheckNext(); fmt.Sprint(err) != fmt.Sprint(errs[i]) {
					t.Fatalf("%s, %s reads: game %d: CheckNext says %v, whole %v", f, name, i, err, errs[i])
				}
			}
			if _, err := r.Next(); err != io.EOF {
				t.Fatalf("%s, %s reads: after the last game %v", f, name, err)
			}
		}
	}
}
