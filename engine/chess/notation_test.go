package chess

import (
	"errors"
	"strings"
	"testing"
)

// allSuitePositions parses every perft-suite position.
func allSuitePositions(t *testing.T) []*Position {
	t.Helper()
	var ps []*Position
	cases := append(loadEPDPerft(t, "testdata/perft/standard.epd"), loadEPDPerft(t, "testdata/perft/fischer960.epd")...)
	cases = append(cases, loadTrickyPerft(t, "testdata/perft/tricky.perft")...)
	for _, c := range cases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestSANRoundTrip formats every legal move of every suite position (and of
// the positions one ply later) and parses it back.
func TestSANRoundTrip(t *testing.T) {
	var ml, ml2 MoveList
	var u Undo
	check := func(p *Position, m Move) {
		san := p.SAN(m)
		got, err := p.ParseSAN(san)
		if err != nil || got != m {
			t.Fatalf("%s: SAN %q of %v parsed back as %v, %v", p.FEN(), san, m, got, err)
		}
		uci := m.UCI(p.Chess960())
		if got, err := p.ParseUCI(uci); err != nil || got != m {
			t.Fatalf("%s: UCI %q of %v parsed back as %v, %v", p.FEN(), uci, m, got, err)
		}
	}
	for _, p := range allSuitePositions(t) {
		p.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			check(p, m)
			p.MakeMove(m, &u)
			p.GenerateLegal(&ml2)
			for _, m2 := range ml2.Slice() {
				check(p, m2)
			}
			p.UnmakeMove(m, &u)
		}
	}
}

func TestSANFormat(t *testing.T) {
	cases := []struct{ fen, uci, san string }{
		{StartFEN, "g1f3", "Nf3"},
		{StartFEN, "e2e4", "e4"},
		// Knights on b1 and f3 can both reach d2: file disambiguation.
		{"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2"},
		// Rooks on a1 and a5 share a file: rank disambiguation.
		{"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
		// Three queens: full-square disambiguation.
		{"2k5/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1", "a4d4", "Qa4d4"},
		{"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"},
		{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8", "O-O-O"},
		{"7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "a8=Q+"},
		{"7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", "a8=N"},
		{"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6", "exd6"},
		{"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"},
	}
	for _, c := range cases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseUCI(c.uci)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.uci, err)
		}
		if got := p.SAN(m); got != c.san {
			t.Errorf("%s %s: SAN %q, want %q", c.fen, c.uci, got, c.san)
		}
	}
}

func TestParseSANLenient(t *testing.T) {
	cases := []struct{ fen, in, uci string }{
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "0-0", "e1g1"},
		{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "0-0-0", "e8c8"},
		{"7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a8Q", "a7a8q"},
		{"7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=Q+", "a7a8q"},
		{"7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "a7a8q"},
		{"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "exd6e.p.", "e5d6"},
		{"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "exd6 e.p.", "e5d6"},
		{StartFEN, "Ngf3", "g1f3"},
		{StartFEN, "Ng1-f3", "g1f3"},
		{StartFEN, "Ng1f3", "g1f3"},
		{StartFEN, "e2-e4", "e2e4"},
		{StartFEN, "e4!?", "e2e4"},
		{StartFEN, "Nf3!!", "g1f3"},
		{StartFEN, "e4??", "e2e4"},
	}
	for _, c := range cases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseSAN(c.in)
		if err != nil {
			t.Errorf("%s: ParseSAN(%q): %v", c.fen, c.in, err)
			continue
		}
		if got := m.UCI(false); got != c.uci {
			t.Errorf("%s: ParseSAN(%q) = %s, want %s", c.fen, c.in, got, c.uci)
		}
	}
}

func TestParseSANErrors(t *testing.T) {
	cases := []struct{ fen, in, words string }{
		{"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "ambiguous"},
		{StartFEN, "Nf6", "illegal"},
		{StartFEN, "O-O", "castling is not legal"},
		{StartFEN, "e5", "illegal"},
		{StartFEN, "", "empty"},
		{StartFEN, "Zz9", "destination"},
		{StartFEN, "Nbcde4", "not a move"},
		{"7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", "must promote"},
		{StartFEN, "exd5", "illegal"},
	}
	for _, c := range cases {
		p, _ := ParseFEN(c.fen)
		_, err := p.ParseSAN(c.in)
		var me *MoveError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), c.words) {
			t.Errorf("ParseSAN(%q) error %v, want one mentioning %q", c.in, err, c.words)
		}
	}
}

func TestParseUCIChess960Castling(t *testing.T) {
	// Standard chess: both e1g1 and e1h1 name castling.
	p, _ := ParseFEN("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	for _, s := range []string{"e1g1", "e1h1"} {
		m, err := p.ParseUCI(s)
		if err != nil || !m.IsCastle() {
			t.Errorf("ParseUCI(%q) = %v, %v; want castling", s, m, err)
		}
	}
	// Chess960: king f1, rook g1. "f1g1" is castling (king takes rook);
	// its UCI form must be the same in 960 mode.
	q, err := ParseFEN("4k3/8/8/8/8/8/8/5KR1 w G - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := q.ParseUCI("f1g1")
	if err != nil || !m.IsCastle() || m.UCI(true) != "f1g1" {
		t.Errorf("960 f1g1 = %v (castle %v), %v", m, m.IsCastle(), err)
	}
	if _, err := q.ParseUCI("e7e8x"); err == nil {
		t.Error("bad promotion letter accepted")
	}
}

func TestLineSAN(t *testing.T) {
	uci := func(p *Position, ss ...string) []Move {
		q := p.Clone()
		var ms []Move
		var u Undo
		for _, s := range ss {
			m, err := q.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
			q.MakeMove(m, &u)
		}
		return ms
	}
	start, _ := ParseFEN(StartFEN)
	line := uci(start, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5")
	if got := strings.Join(start.LineSAN(line), " "); got != "1. e4 e5 2. Nf3 Nc6 3. Bb5" {
		t.Errorf("from the start: %q", got)
	}
	if start.FEN() != StartFEN {
		t.Errorf("LineSAN changed the position: %s", start.FEN())
	}
	// Black first: the first move carries "N...".
	p, _ := ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	p.MakeMove(uci(p, "f1b5")[0], new(Undo))
	if got := strings.Join(p.LineSAN(uci(p, "a7a6", "b5a4")), " "); got != "3... a6 4. Ba4" {
		t.Errorf("black first: %q", got)
	}
	// A move that is not legal where it stands ends the line.
	stale := append(uci(start, "d2d4"), line...)
	if got := start.LineSAN(stale); len(got) != 1 || got[0] != "1. d4" {
		t.Errorf("stale PV: %q, want [1. d4] (e2e4 is not Black's move)", got)
	}
	// SANs is the same walk without numbers.
	if got := strings.Join(start.SANs(stale), " "); got != "d4" {
		t.Errorf("SANs of the stale PV: %q, want d4", got)
	}
	if got := strings.Join(start.SANs(line), " "); got != "e4 e5 Nf3 Nc6 Bb5" || start.FEN() != StartFEN {
		t.Errorf("SANs from the start: %q (position now %s)", got, start.FEN())
	}
}

// TestParseTyped: a person may type a piece letter in lower case (issue 32:
// "nf3" was refused), except b, which stays the b-file.
func TestParseTyped(t *testing.T) {
	p := NewPosition()
	for _, c := range []struct{ typed, want string }{
		{"nf3", "g1f3"}, {"Nf3", "g1f3"}, {"e4", "e2e4"}, {"g1f3", "g1f3"}, {"b4", "b2b4"}, {"nc3", "b1c3"},
	} {
		m, err := p.ParseTyped(c.typed)
		if err != nil || m.UCI(false) != c.want {
			t.Errorf("%q: %v, %v; want %s", c.typed, m.UCI(false), err, c.want)
		}
	}
	for _, bad := range []string{"bf4", "qd4", "kd2", "nf4", ""} {
		if m, err := p.ParseTyped(bad); err == nil {
			t.Errorf("%q read as %s", bad, m.UCI(false))
		}
	}
	// After 1. e4 e5 2. Bc4 … b: "bc4" is never the bishop.
	q, err := ParseFEN("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := q.ParseTyped("bc4"); err == nil {
		t.Errorf("bc4 read as %s", m.UCI(false))
	}
	if m, err := q.ParseTyped("qh5"); err != nil || m.UCI(false) != "d1h5" {
		t.Errorf("qh5: %v %v", m.UCI(false), err)
	}
}

// TestMovesIn: moves are counted by their numbers, not plies (issue 32, W3).
func TestMovesIn(t *testing.T) {
	black, err := ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		start       *Position
		plies, want int
	}{
		{NewPosition(), 0, 0}, {NewPosition(), 1, 1}, {NewPosition(), 3, 2}, {NewPosition(), 21, 11},
		{black, 1, 1}, {black, 2, 2}, {black, 3, 2},
	} {
		if got := c.start.MovesIn(c.plies); got != c.want {
			t.Errorf("MovesIn(%s, %d) = %d, want %d", c.start.SideToMove().Name(), c.plies, got, c.want)
		}
	}
}
