package opening

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// play returns the position after SAN moves from the start (the test fails
// on an illegal move) and the moves themselves.
func play(t testing.TB, sans ...string) (*chess.Position, []chess.Move) {
	t.Helper()
	p := chess.NewPosition()
	var ms []chess.Move
	var u chess.Undo
	for _, s := range sans {
		m, err := p.ParseSAN(s)
		if err != nil {
			t.Fatalf("test move %q after %v: %v", s, sans, err)
		}
		ms = append(ms, m)
		p.MakeMove(m, &u)
	}
	return p, ms
}

// TestEveryLineLegal parses each embedded file on its own: every line's
// moves must be legal SAN from the start, and no line may be skipped (the
// count of parsed lines equals the file's lines less the header). The
// per-file counts are those of lichess-org/chess-openings@51b886249b9e.
func TestEveryLineLegal(t *testing.T) {
	total := 0
	for _, f := range []struct {
		name, text string
		want       int
	}{
		{"a.tsv", tsvA, 817}, {"b.tsv", tsvB, 769}, {"c.tsv", tsvC, 1250}, {"d.tsv", tsvD, 614}, {"e.tsv", tsvE, 357},
	} {
		lines, err := parse(f.name, f.text)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(f.text, "\n") - 1; got != f.want {
			t.Errorf("%s has %d data lines, want %d", f.name, got, f.want)
		}
		if len(lines) != f.want {
			t.Errorf("%s: parsed %d lines, want %d", f.name, len(lines), f.want)
		}
		for _, l := range lines {
			// Every line is filed in the volume of its ECO letter.
			if l.ECO[0] != f.name[0]-'a'+'A' {
				t.Errorf("%s: %s %q is in the wrong volume", f.name, l.ECO, l.Name)
			}
		}
		total += len(lines)
	}
	if total != 3807 {
		t.Errorf("%d lines in all, want 3807", total)
	}
	// Each line names a distinct position, so the index holds them all.
	if Len() != total {
		t.Errorf("index holds %d positions, want %d", Len(), total)
	}
}

// TestEveryLineFound replays each line independently of the index and
// looks its final position up: the index must give back that line's name.
func TestEveryLineFound(t *testing.T) {
	n := 0
	for _, text := range []string{tsvA, tsvB, tsvC, tsvD, tsvE} {
		lines, err := parse("list", text)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			var sans []string
			for _, tok := range strings.Fields(l.moves) {
				if !strings.HasSuffix(tok, ".") {
					sans = append(sans, tok)
				}
			}
			p, ms := play(t, sans...)
			if len(ms) != l.plies {
				t.Fatalf("%q: %d plies replayed, parser counted %d", l.Name, len(ms), l.plies)
			}
			got, ok := Lookup(p)
			if !ok || got != l.Opening {
				t.Errorf("after %s: Lookup = %v, %v; want %v", l.moves, got, ok, l.Opening)
			}
			n++
		}
	}
	if n != Len() {
		t.Errorf("checked %d lines, index has %d", n, Len())
	}
}

func TestLookupKnown(t *testing.T) {
	for _, c := range []struct {
		moves string
		want  Opening
	}{
		{"e4 e5 Nf3 Nc6 Bb5", Opening{"C60", "Ruy Lopez"}},
		{"e4 e5 Nf3 Nc6 Bb5 a6", Opening{"C70", "Ruy Lopez: Morphy Defense"}},
		{"e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7", Opening{"C84", "Ruy Lopez: Closed"}},
		{"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", Opening{"B90", "Sicilian Defense: Najdorf Variation"}},
		{"d4 d5 c4 e6", Opening{"D30", "Queen's Gambit Declined"}},
		{"d4 Nf6 c4 e6 Nc3 Bb4", Opening{"E20", "Nimzo-Indian Defense"}},
		{"Nf3 d5", Opening{"A06", "Zukertort Opening"}},
	} {
		p, _ := play(t, strings.Fields(c.moves)...)
		got, ok := Lookup(p)
		if !ok || got != c.want {
			t.Errorf("%s: Lookup = %v, %v; want %v", c.moves, got, ok, c.want)
		}
	}
}

func TestLookupUnnamed(t *testing.T) {
	for _, moves := range []string{
		"",                  // the start position has no name of its own
		"e4 e5 Ke2 Ke7 Ke1", // Bongcloud-ish shuffling: Black to move, rights lost
		"a3 h6 a4 h5 a5 h4",
	} {
		p, _ := play(t, strings.Fields(moves)...)
		if o, ok := Lookup(p); ok {
			t.Errorf("%q: Lookup = %v, want no name", moves, o)
		}
	}
}

// TestTransposition: a named position reached by another move order has
// the same name, and one reached with other castling rights or side to move
// does not.
func TestTransposition(t *testing.T) {
	for _, c := range []struct{ main, other string }{
		{"d4 d5 Nf3", "Nf3 d5 d4"},
		{"d4 Nf6 c4 e6 Nc3 Bb4", "c4 e6 Nc3 Nf6 d4 Bb4"},
		{"e4 e5 Nf3 Nc6 Bb5", "Nf3 Nc6 e4 e5 Bb5"},
		{"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", "Nf3 c5 e4 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"},
	} {
		p, _ := play(t, strings.Fields(c.main)...)
		q, _ := play(t, strings.Fields(c.other)...)
		want, ok := Lookup(p)
		if !ok {
			t.Fatalf("%s is not named", c.main)
		}
		if got, ok := Lookup(q); !ok || got != want {
			t.Errorf("%s: Lookup = %v, %v; want %v as for %s", c.other, got, ok, want, c.main)
		}
	}
	// Knights out and back lose no tempo for either side and no rights:
	// 1.Nf3 Nf6 2.Ng1 Ng8 3.e4 is the position after 1.e4.
	named, _ := play(t, "e4")
	if _, ok := Lookup(named); !ok {
		t.Fatal("1.e4 is not named")
	}
	p, _ := play(t, "Nf3", "Nf6", "Ng1", "Ng8", "e4")
	if got, ok := Lookup(p); !ok || got != mustLookup(t, named) {
		t.Errorf("1.e4 after knight shuffles: Lookup = %v, %v", got, ok)
	}
	// The king's walk loses castling rights: not the named position.
	p, _ = play(t, "e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8", "Nf3", "Nc6", "Bb5")
	if o, ok := Lookup(p); ok {
		t.Errorf("Ruy Lopez placement without castling rights named %v", o)
	}
}

func mustLookup(t *testing.T, p *chess.Position) Opening {
	t.Helper()
	o, ok := Lookup(p)
	if !ok {
		t.Fatalf("%s is not named", p.FEN())
	}
	return o
}

func TestName(t *testing.T) {
	// A Ruy Lopez that leaves the list keeps the deepest name on the way.
	_, ms := play(t, "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "h3", "h6", "a3", "a5")
	got, ok := Name(nil, ms)
	if want := (Opening{"C84", "Ruy Lopez: Closed"}); !ok || got != want {
		t.Errorf("Name = %v, %v; want %v", got, ok, want)
	}
	// A game reaching a named position by transposition is named by it.
	_, ms = play(t, "Nf3", "Nc6", "e4", "e5", "Bb5")
	if got, ok := Name(nil, ms); !ok || got != (Opening{"C60", "Ruy Lopez"}) {
		t.Errorf("transposed Ruy Lopez: Name = %v, %v", got, ok)
	}
	// No moves: the start position has no name.
	if got, ok := Name(nil, nil); ok {
		t.Errorf("Name of no moves = %v", got)
	}
	// From a given start, which is left unchanged.
	start, _ := play(t, "e4", "e5")
	fen := start.FEN()
	_, ms = play(t, "e4", "e5", "Nf3", "Nc6", "Bb5")
	if got, ok := Name(start, ms[2:]); !ok || got.ECO != "C60" {
		t.Errorf("Name from 1.e4 e5 = %v, %v; want C60", got, ok)
	}
	if start.FEN() != fen {
		t.Errorf("Name changed start: %s, was %s", start.FEN(), fen)
	}
	// An illegal move ends the walk: what came before still names it.
	_, ms = play(t, "d4", "d5", "c4", "e6")
	if got, ok := Name(nil, append(ms[:4:4], ms[0], ms[1])); !ok || got.ECO != "D30" {
		t.Errorf("Name with illegal moves after 1.d4 d5 2.c4 e6 = %v, %v; want D30", got, ok)
	}
}

func TestOpeningString(t *testing.T) {
	o := Opening{"C84", "Ruy Lopez: Closed"}
	if o.String() != "C84 Ruy Lopez: Closed" || o.Family() != "Ruy Lopez" {
		t.Errorf("String %q, Family %q", o.String(), o.Family())
	}
	if o := (Opening{"A40", "Horwitz Defense"}); o.Family() != "Horwitz Defense" {
		t.Errorf("Family of a name without variation = %q", o.Family())
	}
	if (Opening{Name: "x"}).String() != "x" {
		t.Errorf("String without ECO")
	}
}

func TestParseErrors(t *testing.T) {
	const head = "eco\tname\tpgn\n"
	for _, c := range []struct{ text, want string }{
		{"", "empty"},
		{"eco\tname\n", "header"},
		{head + "A00\tAmar Opening\t1. Nh3\nZ00\tBad\t1. e4\n", "t.tsv:3: bad ECO code"},
		{head + "A0\tShort\t1. e4\n", "t.tsv:2: bad ECO code"},
		{head + "A00\tTwo fields\n", "t.tsv:2: want 3"},
		{head + "A00\tFour\t1. e4\textra\n", "t.tsv:2: want 3"},
		{head + "A00\t\t1. e4\n", "t.tsv:2: empty name"},
		{head + "A00\tNo moves\t\n", "t.tsv:2: No moves: no moves"},
		{head + "A00\tIllegal\t1. e4 e5 2. Ke3\n", "t.tsv:2: Illegal, ply 3"},
	} {
		_, err := parse("t.tsv", c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parse(%q) = %v, want an error with %q", c.text, err, c.want)
		}
	}
	// A well-formed file with CRLF endings, move numbers attached to moves
	// and Black's "1..." numbers parses.
	ls, err := parse("t.tsv", head+"C60\tRuy Lopez\t1.e4 e5 2. Nf3 2... Nc6 3. Bb5\r\n\n")
	if err != nil || len(ls) != 1 || ls[0].plies != 5 {
		t.Fatalf("parse = %+v, %v", ls, err)
	}
	p, _ := play(t, "e4", "e5", "Nf3", "Nc6", "Bb5")
	if ls[0].key != p.Key() {
		t.Errorf("parsed key %x, want %x", ls[0].key, p.Key())
	}
}

func TestDuplicatePosition(t *testing.T) {
	p, _ := play(t, "d4", "d5", "Nf3")
	es := []entry{
		{key: 1, Opening: Opening{"A00", "One"}},
		{key: p.Key(), Opening: Opening{"D02", "Zukertort"}},
		{key: p.Key(), Opening: Opening{"A06", "Reti"}},
	}
	if _, err := sortIndex(es); err == nil || !strings.Contains(err.Error(), "same position") {
		t.Errorf("duplicate position: err = %v", err)
	}
	es, err := sortIndex(es[:2])
	if err != nil || es[0].key > es[1].key {
		t.Errorf("sortIndex = %v, %v", es, err)
	}
}

// TestLookupAllocs: a display calls Lookup on every move.
func TestLookupAllocs(t *testing.T) {
	p, _ := play(t, "e4", "e5", "Nf3", "Nc6", "Bb5")
	miss, _ := play(t, "a3", "h6", "a4")
	Len() // build outside the measurement
	if n := testing.AllocsPerRun(100, func() {
		Lookup(p)
		Lookup(miss)
	}); n != 0 {
		t.Errorf("Lookup allocates %v times", n)
	}
}

func BenchmarkLookup(b *testing.B) {
	hit, _ := play(b, "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6")
	miss, _ := play(b, "a3", "h6", "a4")
	Len()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i&1 == 0 {
			Lookup(hit)
		} else {
			Lookup(miss)
		}
	}
}

// BenchmarkBuild measures the first-use cost: parsing and replaying every
// line and sorting the index.
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := build(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkName(b *testing.B) {
	_, ms := play(b, "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7")
	Len()
	b.ReportAllocs()
	for b.Loop() {
		Name(nil, ms)
	}
}

func TestReadStarts(t *testing.T) {
	in := "# comment\n\n" +
		"rnbqkb1r/pp1pnp1p/6p1/2p1p3/2P1P3/3P4/PP2NPPP/RNBQKB1R w KQkq - 0 5\n" +
		"4k3/8/8/8/8/8/8/4K2R b K - 7 40\n" +
		"r1bqkbnr/1ppn1ppp/p2pp3/8/3PPB2/8/PPP2PPP/RN1QKBNR w KQkq - id \"x\"; c0 \"y\";\n"
	ps, err := ReadStarts(strings.NewReader(in), "test.epd")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rnbqkb1r/pp1pnp1p/6p1/2p1p3/2P1P3/3P4/PP2NPPP/RNBQKB1R w KQkq - 0 5",
		"4k3/8/8/8/8/8/8/4K2R b K - 7 40",
		"r1bqkbnr/1ppn1ppp/p2pp3/8/3PPB2/8/PPP2PPP/RN1QKBNR w KQkq - 0 1",
	}
	if len(ps) != len(want) {
		t.Fatalf("%d positions", len(ps))
	}
	for i, p := range ps {
		if p.FEN() != want[i] {
			t.Errorf("position %d: %s, want %s", i, p.FEN(), want[i])
		}
	}
	for _, bad := range []string{"", "# only\n", "8/8/8 w\n", "8/8/8/8/8/8/8/8 w - -\n"} {
		if _, err := ReadStarts(strings.NewReader(bad), "bad.epd"); err == nil || !strings.Contains(err.Error(), "bad.epd") {
			t.Errorf("ReadStarts(%q): %v", bad, err)
		}
	}
}

// TestBalancedStarts: the embedded set holds its 1,000 positions, all
// distinct, each 8 plies in (White to move at move 5) with both kings.
func TestBalancedStarts(t *testing.T) {
	ps := BalancedStarts()
	if len(ps) != 1000 {
		t.Fatalf("%d balanced starts, want 1000", len(ps))
	}
	seen := map[string]bool{}
	for i, p := range ps {
		fen := p.FEN()
		if seen[fen] {
			t.Errorf("start %d repeats %s", i+1, fen)
		}
		seen[fen] = true
		if p.SideToMove() != chess.White || !p.HasLegalMoves() {
			t.Errorf("start %d (%s): not White to move with moves", i+1, fen)
		}
	}
}

// TestLoadStartsRange: "NAME:FROM-TO" keeps positions FROM to TO of the
// embedded set or of a file, counted from 1 ("balanced:201-400" is the 200
// openings after the first 200); a name whose colon is not followed by a
// range is a plain file name; a range outside the set is an error.
func TestLoadStartsRange(t *testing.T) {
	all := BalancedStarts()
	ps, err := LoadStarts("balanced:201-400")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 200 {
		t.Fatalf("balanced:201-400 gave %d positions, want 200", len(ps))
	}
	for i, p := range ps {
		if p.FEN() != all[200+i].FEN() {
			t.Fatalf("balanced:201-400 position %d is %s, want balanced start %d %s", i+1, p.FEN(), 201+i, all[200+i].FEN())
		}
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "odd:name.epd") // a colon, but no range after it
	fens := "4k3/8/8/8/8/8/8/4K2R w K - 0 1\n4k3/8/8/8/8/8/8/4K2Q w - - 0 1\n4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\n"
	if err := os.WriteFile(file, []byte(fens), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := LoadStarts(file)
	if err != nil || len(whole) != 3 {
		t.Fatalf("LoadStarts(%q): %d positions, %v; want 3", file, len(whole), err)
	}
	two, err := LoadStarts(file + ":2-3")
	if err != nil {
		t.Fatal(err)
	}
	if len(two) != 2 || two[0].FEN() != whole[1].FEN() || two[1].FEN() != whole[2].FEN() {
		t.Errorf("%s:2-3 gave %d positions, want the file's second and third", file, len(two))
	}

	for _, bad := range []string{"balanced:0-5", "balanced:5-4", "balanced:990-1001", file + ":1-4"} {
		if _, err := LoadStarts(bad); err == nil {
			t.Errorf("LoadStarts(%q): no error", bad)
		}
	}
}
