package epd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
)

// Every standard opcode, with SAN and long-algebraic operands.
const allOps = `r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; am Nxe5; pm Bf1-b5; sm d4; ` +
	`pv Bb5 a6 Ba4; sv d2-d4 exd4; id "test.1"; c0 "Bb5=10, Bc4=8, d4=5"; c1 "a comment; with semicolon"; ` +
	`c9 "last"; v0 "var"; dm 12; acd 20; acs 3; acn 123456789012; ce -35; hmvc 2; fmvn 3; eco "C60"; noop;`

func TestParseAllOpcodes(t *testing.T) {
	r, err := ParseLine(allOps)
	if err != nil {
		t.Fatal(err)
	}
	p := r.Position
	san := func(op string) []string {
		var out []string
		q := p.Clone()
		for _, m := range r.Moves(op) {
			out = append(out, q.SAN(m))
		}
		return out
	}
	if got := strings.Join(san("bm"), " "); got != "Bb5 Bc4" {
		t.Errorf("bm = %q", got)
	}
	if got := strings.Join(san("am"), " "); got != "Nxe5" {
		t.Errorf("am = %q", got)
	}
	if got := strings.Join(san("pm"), " "); got != "Bb5" {
		t.Errorf("pm (long algebraic) = %q", got)
	}
	if len(r.Moves("sm")) != 1 || len(r.Moves("pv")) != 3 || len(r.Moves("sv")) != 2 {
		t.Errorf("sm/pv/sv lengths %d %d %d", len(r.Moves("sm")), len(r.Moves("pv")), len(r.Moves("sv")))
	}
	if r.ID() != "test.1" || r.String("c1") != "a comment; with semicolon" || r.String("c9") != "last" ||
		r.String("v0") != "var" || r.String("eco") != "C60" {
		t.Errorf("strings: id %q c1 %q c9 %q v0 %q eco %q", r.ID(), r.String("c1"), r.String("c9"), r.String("v0"), r.String("eco"))
	}
	for op, want := range map[string]int{"dm": 12, "acd": 20, "acs": 3, "ce": -35, "hmvc": 2, "fmvn": 3} {
		if got, ok := r.Int(op); !ok || got != want {
			t.Errorf("%s = %d, %v; want %d", op, got, ok, want)
		}
	}
	if v, ok := r.Get("acn"); !ok || v[0] != "123456789012" {
		t.Errorf("acn = %v", v)
	}
	if v, ok := r.Get("noop"); !ok || len(v) != 0 {
		t.Errorf("noop = %v, %v", v, ok)
	}
	pts, err := r.Points()
	if err != nil || len(pts) != 3 {
		t.Fatalf("points %v, %v", pts, err)
	}
	for m, n := range pts {
		want := map[string]int{"Bb5": 10, "Bc4": 8, "d4": 5}[p.SAN(m)]
		if n != want {
			t.Errorf("points for %s = %d, want %d", p.SAN(m), n, want)
		}
	}
	bm := r.BestMoves()
	if !r.Solves(bm[0]) || !r.Solves(bm[1]) || r.Solves(r.Moves("sm")[0]) {
		t.Error("Solves disagrees with bm")
	}
}

func TestWriteRoundTrip(t *testing.T) {
	r, err := ParseLine(allOps)
	if err != nil {
		t.Fatal(err)
	}
	line := r.EPD()
	r2, err := ParseLine(line)
	if err != nil {
		t.Fatalf("re-reading %q: %v", line, err)
	}
	if r2.EPD() != line {
		t.Errorf("round trip changed:\n%s\n%s", line, r2.EPD())
	}
	if !strings.Contains(line, `c1 "a comment; with semicolon";`) || !strings.Contains(line, "dm 12;") || !strings.Contains(line, "noop;") {
		t.Errorf("written line: %s", line)
	}
	// Set then write: the annotation a runner adds.
	r2.Set("acd", "7")
	r2.Set("ce", "+40")
	if !strings.Contains(r2.EPD(), "acd 7;") {
		t.Errorf("Set acd: %s", r2.EPD())
	}
	var buf bytes.Buffer
	if err := Write(&buf, []*Record{r, r2}); err != nil {
		t.Fatal(err)
	}
	recs, errs := Read(&buf)
	if len(recs) != 2 || len(errs) != 0 {
		t.Fatalf("Write/Read: %d records, %v", len(recs), errs)
	}
}

func TestAvoidOnly(t *testing.T) {
	r, err := ParseLine(`4k3/8/8/8/8/8/4P3/4K3 w - - am Kd1; id "am"`)
	if err != nil {
		t.Fatal(err)
	}
	kd1, _ := r.Position.ParseSAN("Kd1")
	e4, _ := r.Position.ParseSAN("e4")
	if r.Solves(kd1) || !r.Solves(e4) {
		t.Error("am-only record: Kd1 must fail, e4 must solve")
	}
}

func TestLineErrors(t *testing.T) {
	cases := map[string]string{
		"":                                         "want 4 position fields",
		"8/8/8/8/8/8/8/8 w - - bm e4;":             "position",
		"4k3/8/8/8/8/8/4P3/4K3 w - - bm e5;":       "bm e5",
		"4k3/8/8/8/8/8/4P3/4K3 w - - bm;":          "bm: no moves",
		"4k3/8/8/8/8/8/4P3/4K3 w - - pv e4 e5;":    "pv: move 2",
		"4k3/8/8/8/8/8/4P3/4K3 w - - acd x;":       "acd",
		"4k3/8/8/8/8/8/4P3/4K3 w - - acn -5;":      "acn",
		"4k3/8/8/8/8/8/4P3/4K3 w - - id \"x;":      "unterminated",
		"4k3/8/8/8/8/8/4P3/4K3 w - - = 1 bm e4;":   `bad opcode "="`,
		"4k3/8/8/8/8/8/4P3/4K3 w - - c0 \"e4=x\";": "points are not a number",
		"4k3/8/8/8/8/8/4P3/4K3 w - - c0 \"e5=3\";": "c0",
		"4k3/8/8/8/8/8/4P3/4K3 w - - id a; id b;":  "twice",
		"4k3/8/8/8/8/8/4P3/4K3 w - - ; bm e4;":     "empty operation",
		"4k3/8/8/3p4/8/8/4P3/4K3 w - d6 bm e4;":    "en passant",
	}
	for line, want := range cases {
		_, err := ParseLine(line)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLine(%q) = %v, want error containing %q", line, err, want)
		}
	}
	// A full FEN's clocks, even with a stray ';', are accepted.
	r, err := ParseLine("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1; bm e4; id \"clocks\";")
	if err != nil || r.ID() != "clocks" {
		t.Errorf("clocks: %v", err)
	}
}

// The broken lines of the shared zurichess mate files: each is a clear
// error naming its line, and every other line loads.
func TestBrokenMateFiles(t *testing.T) {
	cases := []struct {
		file      string
		lines     int // records in the file
		badLines  []int
		badReason []string
	}{
		{"testdata/mateIn4.epd", 983, []int{232}, []string{"en passant): bad square"}},
		{"testdata/mateIn6.epd", 563, []int{53, 349, 462}, []string{`bad opcode "="`, "bad piece letter '['", "castling"}},
		{"testdata/mateIn7.epd", 343, []int{13}, []string{"no en passant capture is possible"}},
		// Not in the shared README's list: c6 is given as the en passant
		// square though no white pawn can take there.
		{"testdata/gaviota_endgame-dm-4.epd", 48, []int{6}, []string{"en passant square c6, but no en passant capture"}},
		// Every line is good once "bm #N" is read as a mate distance.
		{"testdata/mates2000.epd", 2000, nil, nil},
	}
	for _, c := range cases {
		s, err := Load(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Records)+len(s.Errors) != c.lines {
			t.Errorf("%s: %d records + %d errors, want %d lines", c.file, len(s.Records), len(s.Errors), c.lines)
		}
		if len(s.Errors) != len(c.badLines) {
			t.Errorf("%s: errors %v, want lines %v", c.file, s.Errors, c.badLines)
			continue
		}
		for i, e := range s.Errors {
			var le *LineError
			if !errors.As(e, &le) || le.Line != c.badLines[i] || !strings.Contains(e.Error(), c.badReason[i]) {
				t.Errorf("%s: error %d = %v, want line %d: …%s…", c.file, i, e, c.badLines[i], c.badReason[i])
			}
		}
	}
}

func TestBundled(t *testing.T) {
	want := map[string]int{"wac": 300, "ecm": 879, "wcsac": 1001, "bk": 24}
	if got := strings.Join(Bundled(), ","); got != "bk,ecm,wac,wcsac" {
		t.Errorf("Bundled() = %s", got)
	}
	for name, n := range want {
		s, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Records) != n || len(s.Errors) != 0 {
			t.Errorf("%s: %d records, errors %v; want %d", name, len(s.Records), s.Errors, n)
		}
		for _, r := range s.Records {
			if len(r.BestMoves()) == 0 && len(r.AvoidMoves()) == 0 {
				t.Errorf("%s line %d (%s): nothing to solve", name, r.Line, r.ID())
			}
		}
	}
	if _, err := Load("no-such-suite"); err == nil {
		t.Error("Load of a missing suite succeeded")
	}
}

func TestLongAlgebraicInFile(t *testing.T) {
	data, err := os.ReadFile("testdata/mateIn4.epd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	recs, _ := Read(bytes.NewReader(data))
	for _, r := range recs {
		if v, _ := r.Get("bm"); len(v) > 0 && strings.Contains(v[0], "-") && len(r.BestMoves()) == 1 {
			n++
		}
	}
	if n == 0 {
		t.Error("no long-algebraic bm operand read from mateIn4.epd")
	}
}

// Every string opcode c0–c9 reads and writes back; the issue lists them as
// a range, so each one is checked, not a sample.
func TestCommentOpcodes(t *testing.T) {
	line := "4k3/8/8/8/8/8/4P3/4K3 w - -"
	for i := 0; i <= 9; i++ {
		line += fmt.Sprintf(` c%d "comment %d; x";`, i, i)
	}
	r, err := ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= 9; i++ {
		op := fmt.Sprintf("c%d", i)
		if got, want := r.String(op), fmt.Sprintf("comment %d; x", i); got != want {
			t.Errorf("%s = %q, want %q", op, got, want)
		}
		if !strings.Contains(r.EPD(), fmt.Sprintf(`%s "comment %d; x";`, op, i)) {
			t.Errorf("%s not written back: %s", op, r.EPD())
		}
	}
}

// matetrack's files write the mate distance as the bm operand ("bm #-3").
func TestMateOperand(t *testing.T) {
	r, err := ParseLine(`7n/BBP2P1P/8/P1PpK3/P5RR/5k2/Pn2NPN1/3Q2b1 w - d6 bm #1;`)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := r.Mate(); !ok || n != 1 || len(r.BestMoves()) != 0 {
		t.Errorf("Mate() = %d, %v; bm moves %v", n, ok, r.BestMoves())
	}
	for _, c := range []struct {
		s    engine.Score
		want bool
	}{
		{engine.Score{Mate: 1}, true},
		{engine.Score{Mate: 2}, false},
		{engine.Score{Mate: -1}, false},
		{engine.Score{CP: 900}, false},
		{engine.Score{Mate: 1, Bound: engine.Lower}, false},
	} {
		if got := r.SolvesScore(c.s); got != c.want {
			t.Errorf("bm #1, score %v: solved %v, want %v", c.s, got, c.want)
		}
	}
	mated, err := ParseLine(`6Qk/PP1PP1np/1N1BN2P/7R/4B3/2Q5/P3KP2/6R1 b - - bm #-1;`)
	if err != nil {
		t.Fatal(err)
	}
	if !mated.SolvesScore(engine.Score{Mate: -1}) || mated.SolvesScore(engine.Score{Mate: 1}) {
		t.Error("bm #-1: being mated in 1 must solve it, anything else not")
	}
	for _, bad := range []string{"#0", "#x", "#", "#1 e4"} {
		if _, err := ParseLine("4k3/8/8/8/8/8/4P3/4K3 w - - bm " + bad + ";"); err == nil {
			t.Errorf("bm %s accepted", bad)
		}
	}
	s, err := Load("testdata/mates2000.epd")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Records) != 2000 || len(s.Errors) != 0 {
		t.Errorf("mates2000: %d records, errors %v", len(s.Records), s.Errors)
	}
	for _, r := range s.Records {
		if n, ok := r.Mate(); !ok || n < -27 || n > 27 {
			t.Fatalf("line %d: mate %d, %v", r.Line, n, ok)
		}
	}
}
