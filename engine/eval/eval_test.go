package eval

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

func TestScorePacking(t *testing.T) {
	for _, mg := range []int{-3000, -1, 0, 1, 77, 3000} {
		for _, eg := range []int{-3000, -1, 0, 1, -55, 3000} {
			s := S(mg, eg)
			if s.MG() != mg || s.EG() != eg {
				t.Fatalf("S(%d,%d) unpacks to (%d,%d)", mg, eg, s.MG(), s.EG())
			}
			d := s + S(5, -7) - S(2, 3)
			if d.MG() != mg+3 || d.EG() != eg-10 {
				t.Fatalf("arithmetic on S(%d,%d) gives (%d,%d)", mg, eg, d.MG(), d.EG())
			}
			if m := s.Times(-3); m.MG() != -3*mg || m.EG() != -3*eg {
				t.Fatalf("S(%d,%d)*-3 gives (%d,%d)", mg, eg, m.MG(), m.EG())
			}
		}
	}
}

// flipFEN returns the colour-flipped mirror of fen: ranks reversed, piece
// colours and side to move swapped. Its evaluation must be the same.
func flipFEN(t testing.TB, fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			switch {
			case c >= 'a' && c <= 'z':
				b[i] = c - 32
			case c >= 'A' && c <= 'Z':
				b[i] = c + 32
			}
		}
		return string(b)
	}
	out := []string{swap(strings.Join(ranks, "/")), "w", "-", "-"}
	if f[1] == "w" {
		out[1] = "b"
	}
	if len(f) > 2 && f[2] != "-" {
		out[2] = swap(f[2])
	}
	if len(f) > 3 && f[3] != "-" {
		r := byte('3')
		if f[3][1] == '3' {
			r = '6'
		}
		out[3] = string([]byte{f[3][0], r})
	}
	return strings.Join(out, " ")
}

// suiteFENs reads the positions of the shared perft and test suites.
func suiteFENs(t testing.TB) []string {
	var fens []string
	for _, name := range []string{"../chess/testdata/perft/standard.epd", "../chess/testdata/perft/fischer960.epd",
		"testdata/suites/wac.epd", "testdata/suites/ecm.epd", "testdata/suites/bk.epd", "testdata/suites/wcsac.epd",
		"testdata/endgame_wdl_dtz.epd"} {
		f, err := os.Open(name)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || line[0] == '#' {
				continue
			}
			fs := strings.Fields(strings.SplitN(line, ";", 2)[0])
			if len(fs) < 4 {
				continue
			}
			fens = append(fens, strings.Join(fs[:4], " "))
		}
		f.Close()
	}
	if len(fens) == 0 {
		t.Fatal("no positions found")
	}
	return fens
}

// walk calls fn on fens and on positions reached from them by a few legal
// moves, to widen coverage beyond the suites' opening-like positions.
func walk(t testing.TB, fens []string, fn func(fen string)) {
	for i, fen := range fens {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		fn(p.FEN())
		var ml chess.MoveList
		seed := uint32(i*7919 + 1)
		for ply := 0; ply < 12; ply++ {
			ml.N = 0
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			seed = seed*1103515245 + 12345
			var u chess.Undo
			p.MakeMove(ml.Moves[int(seed>>8)%ml.N], &u)
			fn(p.FEN())
		}
	}
}

func TestSymmetry(t *testing.T) {
	e := New()
	n := 0
	walk(t, suiteFENs(t), func(fen string) {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		flipped := flipFEN(t, fen)
		q, err := chess.ParseFEN(flipped)
		if err != nil {
			t.Fatalf("flip of %s = %s: %v", fen, flipped, err)
		}
		a, b := e.Evaluate(p), e.Evaluate(q)
		if a != b {
			t.Errorf("eval(%s) = %d but eval(%s) = %d", fen, a, flipped, b)
		}
		n++
	})
	t.Logf("%d positions and their mirrors agree", n)
}

func TestMaterialSense(t *testing.T) {
	e := New()
	for _, c := range []struct {
		fen  string
		sign int // expected sign for the side to move
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", -1}, // White is a queen down
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1", 1},
		{"4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1", 1},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if v := e.Evaluate(p); v*c.sign <= 100 {
			t.Errorf("%s: eval %d, want clearly of sign %d", c.fen, v, c.sign)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	e := New()
	var ps []*chess.Position
	walk(b, suiteFENs(b), func(fen string) {
		p, _ := chess.ParseFEN(fen)
		ps = append(ps, p)
	})
	b.ReportAllocs()
	b.ResetTimer()
	s := 0
	for i := 0; i < b.N; i++ {
		s += e.Evaluate(ps[i%len(ps)])
	}
	_ = s
}

// mirrorFiles reflects a FEN's placement a↔h (only for positions without
// castling rights, where that is a legal, equivalent position).
func mirrorFiles(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, r := range ranks {
		b := []byte(r)
		for x, y := 0, len(b)-1; x < y; x, y = x+1, y-1 {
			b[x], b[y] = b[y], b[x]
		}
		ranks[i] = string(b)
	}
	ep := f[3]
	if ep != "-" {
		ep = string([]byte{'h' - (ep[0] - 'a'), ep[1]})
	}
	return strings.Join([]string{strings.Join(ranks, "/"), f[1], f[2], ep}, " ")
}

func TestFileMirrorSymmetry(t *testing.T) {
	e := New()
	n := 0
	walk(t, suiteFENs(t), func(fen string) {
		if strings.Fields(fen)[2] != "-" {
			return
		}
		p, _ := chess.ParseFEN(fen)
		m := mirrorFiles(fen)
		q, err := chess.ParseFEN(m)
		if err != nil {
			t.Fatalf("mirror of %s = %s: %v", fen, m, err)
		}
		if a, b := e.Evaluate(p), e.Evaluate(q); a != b {
			t.Errorf("eval(%s) = %d but eval(%s) = %d", fen, a, m, b)
		}
		n++
	})
	t.Logf("%d positions without castling rights agree with their a↔h mirrors", n)
}
