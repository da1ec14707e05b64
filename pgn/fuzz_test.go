package pgn

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// FuzzReader feeds arbitrary bytes to the reader (and so to SAN parsing):
// it must not panic, must agree with Index on where games are and with
// NextChecked on every problem, and every game it reads must write out and
// read back as the same tree.
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
		sameAsChecked(t, "fuzz", data, games, errs)
		entries, err := Index(bytes.NewReader(data))
		if err != nil || len(entries) != len(games) {
			t.Fatalf("Index found %d games, reader %d (%v)", len(entries), len(games), err)
		}
		for i, g := range games {
			checkSAN(t, "fuzz", g)
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

// sameTagProblem reports whether a written game rereads with a problem
// its tags had (an unsupported Variant, say, which leaves the game without
// moves): the writer keeps every tag, so such a game keeps its reason,
// though not its place. A malformed tag line, or a tag value whose quote
// is never closed, hides the problems of the tags read after it
// ([Variant "x"] followed by junk), and the writer mends the line, so they
// show afterwards. A problem in the movetext must not survive writing,
// which drops what follows it.
func sameTagProblem(orig, back error) bool {
	var a, b *Error
	if !errors.As(orig, &a) || !errors.As(back, &b) || a.Move != "" || b.Move != "" || a.Err == nil || b.Err == nil {
		return false
	}
	was, is := a.Err.Error(), b.Err.Error()
	mended := strings.HasPrefix(was, "malformed tag line") || strings.HasSuffix(was, `value not closed by '"'`)
	return was == is || mended &&
		(strings.HasPrefix(is, "unsupported variant") || strings.HasPrefix(is, "FEN tag"))
}

// FuzzResolve checks the reader's own SAN code against the chess package:
// a move the fast path (fastSAN) finds must be the move chess.ParseSAN
// finds, and the SAN the reader writes for a legal move (sanBody, and the
// check or mate suffix from hasLegalMoves) must be chess.Position.SAN's.
// Positions are those of the test games, picked by pos.
func FuzzResolve(f *testing.F) {
	positions := gamePositions(f)
	for i := 0; i < len(positions); i += 97 {
		p := positions[i]
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		for j, m := range ml.Moves[:ml.N] {
			if j%5 == 0 {
				f.Add(uint16(i), p.SAN(m))
			}
		}
	}
	for _, s := range []string{"O-O", "0-0-0", "exd6", "a8=Q+", "a8Q", "Nbd2", "R1e1", "Qh4#", "Kg1", "e8=K", "Ng1xf3", "bxc8=N#"} {
		f.Add(uint16(0), s)
	}
	f.Fuzz(func(t *testing.T, pos uint16, san string) {
		p := positions[int(pos)%len(positions)].Clone()
		r := NewReader(nil, "")
		m, fast, err := r.resolve(p, []byte(san))
		if err != nil {
			return
		}
		if m == chess.NullMove {
			if fast || p.InCheck() {
				t.Fatalf("%q: null move (fast %v) in %s", san, fast, p.FEN())
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("%q: illegal %v in %s", san, m, p.FEN())
		}
		if fast {
			if want, err := p.ParseSAN(san); err != nil || want != m {
				t.Fatalf("%q: fast path found %v, ParseSAN %v (%v) in %s", san, m, want, err, p.FEN())
			}
		}
		// What symbolToken writes: sanBody needs r.ml as fastSAN leaves it.
		if _, ok := r.fastSAN(p, []byte(p.SAN(m))); !ok {
			return
		}
		got := string(r.sanBody(nil, m))
		var u chess.Undo
		p.MakeMove(m, &u)
		if p.InCheck() {
			if hasLegalMoves(p) != p.HasLegalMoves() {
				t.Fatalf("hasLegalMoves wrong after %v in %s", m, p.FEN())
			}
			got += map[bool]string{true: "+", false: "#"}[p.HasLegalMoves()]
		}
		p.UnmakeMove(m, &u)
		if want := p.SAN(m); got != want {
			t.Fatalf("reader writes %q, want %q in %s", got, want, p.FEN())
		}
	})
}

// gamePositions returns every position of the test games, variations
// included, Chess960 ones too.
func gamePositions(t testing.TB) []*chess.Position {
	var out []*chess.Position
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, _ := readWithErrors(data)
		for _, g := range games {
			p, err := g.StartPosition()
			if err != nil {
				continue
			}
			var walk func(*Node)
			walk = func(n *Node) {
				out = append(out, p.Clone())
				for _, c := range n.Children {
					var u chess.Undo
					if c.Move == chess.NullMove {
						p.MakeNullMove(&u)
						walk(c)
						p.UnmakeNullMove(&u)
						continue
					}
					p.MakeMove(c.Move, &u)
					walk(c)
					p.UnmakeMove(c.Move, &u)
				}
			}
			walk(g.Root)
		}
	}
	if len(out) < 1000 {
		t.Fatalf("only %d positions", len(out))
	}
	return out
}
