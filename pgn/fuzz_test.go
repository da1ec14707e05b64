package pgn

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader (and so to SAN parsing):
// it must not panic, must agree with Index on where games are, and every
// game it reads must write out and read back as the same tree.
func FuzzReader(f *testing.F) {
	for _, name := range testFiles(f) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 8<<10 {
			data = data[:8<<10] // a cut game is a good seed too
		}
		f.Add(data)
	}
	for _, s := range []string{
		"1. e4 {unclosed\n[Event \"x\"]\n1. d4 *",
		"\xEF\xBB\xBF[Event \"a\\\"]\r\n\r\n1.e4!! e5?! 2.Nf3 $300 *",
		"1. e4 ( 1. d4 ( 1. c4 ) ) ) ( e5 *",
		"[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8Q+ Kd7 2. Qb7+ *",
		"[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. O-O O-O *",
		"% x\n;y\n1. -- e5 2. Z0 *",
		"1. e4 {[%clk 1:2:3.4] [%eval #-3,20] [%emt x]} *",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, errs := readWithErrors(data)
		for i, g := range games {
			if g == nil {
				t.Fatalf("nil game (err %v)", errs[i])
			}
		}
		entries, err := Index(bytes.NewReader(data))
		if err != nil || len(entries) != len(games) {
			t.Fatalf("Index found %d games, reader %d (%v)", len(entries), len(games), err)
		}
		for i, g := range games {
			if entries[i].Offset != g.Offset {
				t.Fatalf("game %d at %d, Index says %d", i, g.Offset, entries[i].Offset)
			}
			out, err := AppendGame(nil, g)
			if err != nil {
				continue // a bad FEN tag cannot be written
			}
			back, backErrs := readWithErrors(out)
			if len(back) != 1 || (backErrs[0] != nil && !(len(g.Root.Children) == 0 && sameTagProblem(errs[i], backErrs[0]))) {
				t.Fatalf("written game rereads as %d games, %v (read with %v):\n%s", len(back), backErrs, errs[i], out)
			}
			back[0].Offset, back[0].Line = g.Offset, g.Line
			if !sameGame(g, back[0]) {
				t.Fatalf("tree changed by write:\n%s", out)
			}
			if out2, _ := AppendGame(nil, back[0]); !bytes.Equal(out, out2) {
				t.Fatalf("second write differs:\n%s\n---\n%s", out, out2)
			}
		}
	})
}

// readWithErrors reads every game of data, keeping each game's error
// (nil for a good game) alongside it.
func readWithErrors(data []byte) (games []*Game, errs []error) {
	for g, err := range NewReader(bytes.NewReader(data), "fuzz").All() {
		games = append(games, g)
		errs = append(errs, err)
	}
	return games, errs
}

// sameTagProblem reports whether a written game rereads with the problem
// the original had in its tags (an unsupported Variant, say, which leaves
// the game without moves): the writer keeps every tag, so such a game
// keeps its reason, though not its place. A problem in the movetext must
// not survive writing, which drops what follows it.
func sameTagProblem(orig, back error) bool {
	var a, b *Error
	return errors.As(orig, &a) && errors.As(back, &b) && a.Move == "" && b.Move == "" &&
		a.Err != nil && b.Err != nil && a.Err.Error() == b.Err.Error()
}
