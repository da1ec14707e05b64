package pgn

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

const twic = "testdata/pgn-parser/twic-01-232games.pgn"

func TestParseFilter(t *testing.T) {
	good := []struct {
		specs []string
		want  Filter
	}{
		{nil, Filter{}},
		{[]string{"player=Carlsen", "PLAYER = naka "}, Filter{Players: []string{"Carlsen", "naka"}}},
		{[]string{"eco=B90"}, Filter{ECOFrom: "B90", ECOTo: "B90"}},
		{[]string{"eco=b9"}, Filter{ECOFrom: "B90", ECOTo: "B99"}},
		{[]string{"eco=C"}, Filter{ECOFrom: "C00", ECOTo: "C99"}},
		{[]string{"eco=A00-B1"}, Filter{ECOFrom: "A00", ECOTo: "B19"}},
		{[]string{"result=1/2-1/2"}, Filter{Result: Draw}},
		{[]string{"year=2020"}, Filter{YearFrom: 2020, YearTo: 2020}},
		{[]string{"year=2000-2010"}, Filter{YearFrom: 2000, YearTo: 2010}},
		{[]string{"year=-1999"}, Filter{YearTo: 1999}},
		{[]string{"year=2000-"}, Filter{YearFrom: 2000}},
		{[]string{"elo=2500"}, Filter{EloFrom: 2500}},
		{[]string{"elo=2400-2600"}, Filter{EloFrom: 2400, EloTo: 2600}},
		{[]string{"elo=-2000"}, Filter{EloTo: 2000}},
		{[]string{"opening=Sicilian", "event=Olympiad"}, Filter{Opening: "Sicilian", Event: "Olympiad"}},
	}
	for _, c := range good {
		got, err := ParseFilter(c.specs)
		if err != nil {
			t.Errorf("ParseFilter(%q): %v", c.specs, err)
			continue
		}
		if strings.Join(got.Players, "|") != strings.Join(c.want.Players, "|") || got.ECOFrom != c.want.ECOFrom ||
			got.ECOTo != c.want.ECOTo || got.Result != c.want.Result || got.YearFrom != c.want.YearFrom ||
			got.YearTo != c.want.YearTo || got.Position != nil {
			t.Errorf("ParseFilter(%q) = %+v, want %+v", c.specs, got, c.want)
		}
	}
	bad := map[string]string{
		"player":            "want key=value",
		"player=":           "want key=value",
		"colour=white":      `unknown key "colour"`,
		"eco=F00":           "want an ECO code",
		"eco=B100":          "want an ECO code",
		"eco=C00-B99":       "first code is after its last",
		"result=white":      "want 1-0",
		"year=20x0":         "want a year",
		"year=2010-2000":    "want a year",
		"year=-":            "want a year",
		"elo=strong":        "want a rating",
		"elo=2600-2400":     "want a rating",
		"elo=-":             "want a rating",
		"fen=not a fen":     "fen",
		"fen=8/8/8/8 w - -": "fen",
	}
	for spec, want := range bad {
		if _, err := ParseFilter([]string{spec}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFilter(%q) = %v, want an error with %q", spec, err, want)
		}
	}
	if _, err := ParseFilter([]string{"eco=B90", "eco=B91"}); err == nil || !strings.Contains(err.Error(), "eco given twice") {
		t.Errorf("eco twice: %v", err)
	}
}

// rawGame is a game's tags read straight from the file's text, without the
// reader: the independent side of the tag tests.
type rawGame map[string]string

var rawTag = regexp.MustCompile(`(?m)^\[(\w+) "(.*)"\]\s*$`)

func rawGames(t *testing.T, file string) []rawGame {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []rawGame
	for _, chunk := range strings.Split("\n"+string(data), "\n[Event ")[1:] {
		g := rawGame{}
		for _, m := range rawTag.FindAllStringSubmatch("[Event "+chunk, -1) {
			g[m[1]] = m[2]
		}
		out = append(out, g)
	}
	return out
}

// filtered returns the games of file that f selects, by Match and, for the
// tag criteria, by MatchEntry on the skimmed entries too (they must agree).
func filtered(t *testing.T, file string, f Filter) []*Game {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	games, errs := readAll(t, file, data)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", file, errs)
	}
	entries, err := Index(strings.NewReader(string(data)))
	if err != nil || len(entries) != len(games) {
		t.Fatalf("%s: %d entries, %v; %d games", file, len(entries), err, len(games))
	}
	var out []*Game
	for i, g := range games {
		m := f.Match(g)
		if !f.NeedsMoves() && f.MatchEntry(&entries[i]) != m {
			t.Errorf("%s:%d: MatchEntry %v, Match %v", file, g.Line, !m, m)
		}
		if m {
			out = append(out, g)
		}
	}
	return out
}

// TestFilterTags checks each tag criterion on the TWIC games against a
// count made from the file's text.
func TestFilterTags(t *testing.T) {
	raw := rawGames(t, twic)
	if len(raw) != 232 {
		t.Fatalf("%d raw games, want 232", len(raw))
	}
	count := func(pred func(rawGame) bool) int {
		n := 0
		for _, g := range raw {
			if pred(g) {
				n++
			}
		}
		return n
	}
	has := func(g rawGame, tag, sub string) bool {
		return strings.Contains(strings.ToLower(g[tag]), sub)
	}
	cases := []struct {
		specs []string
		want  int
	}{
		{[]string{"player=NAKAMURA"}, count(func(g rawGame) bool { return has(g, "White", "nakamura") || has(g, "Black", "nakamura") })},
		{[]string{"player=nakamura", "player=ding"}, count(func(g rawGame) bool {
			return has(g, "White", "nakamura") && has(g, "Black", "ding") || has(g, "White", "ding") && has(g, "Black", "nakamura")
		})},
		{[]string{"eco=C42"}, count(func(g rawGame) bool { return g["ECO"] == "C42" })},
		{[]string{"eco=B"}, count(func(g rawGame) bool { return strings.HasPrefix(g["ECO"], "B") })},
		{[]string{"eco=C50-D09"}, count(func(g rawGame) bool { return g["ECO"] >= "C50" && g["ECO"] <= "D09" })},
		{[]string{"result=1-0"}, 98},
		{[]string{"result=0-1"}, 68},
		{[]string{"result=1/2-1/2"}, 66},
		{[]string{"result=*"}, 0},
		{[]string{"year=2020"}, count(func(g rawGame) bool { return strings.HasPrefix(g["Date"], "2020.") })},
		{[]string{"year=2021-"}, count(func(g rawGame) bool { return g["Date"] >= "2021" })},
		{[]string{"result=1-0", "eco=C4"}, count(func(g rawGame) bool { return g["Result"] == "1-0" && strings.HasPrefix(g["ECO"], "C4") })},
		{[]string{"elo=2750"}, count(func(g rawGame) bool { return elo(g["WhiteElo"]) >= 2750 && elo(g["BlackElo"]) >= 2750 })},
		{[]string{"elo=2600-2700"}, count(func(g rawGame) bool {
			w, b := elo(g["WhiteElo"]), elo(g["BlackElo"])
			return w >= 2600 && w <= 2700 && b >= 2600 && b <= 2700
		})},
		{[]string{"opening=berlin"}, count(func(g rawGame) bool { return has(g, "Opening", "berlin") || has(g, "Variation", "berlin") })},
		{[]string{"event=LINDORES"}, count(func(g rawGame) bool { return has(g, "Event", "lindores") })},
	}
	for _, c := range cases {
		f, err := ParseFilter(c.specs)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(filtered(t, twic, f)); got != c.want {
			t.Errorf("%q: %d games, want %d", c.specs, got, c.want)
		}
	}
	// The counts mean something: not all or none.
	for _, spec := range []string{"player=nakamura", "elo=2750", "opening=berlin", "event=lindores"} {
		if f, _ := ParseFilter([]string{spec}); len(filtered(t, twic, f)) < 5 || len(filtered(t, twic, f)) > 200 {
			t.Errorf("%s: too few or too many games to test with", spec)
		}
	}
}

// elo is a rating tag's value as a number, 0 when there is none: the
// test's own reading, independent of Elo.
func elo(v string) int {
	e, _ := strconv.Atoi(v)
	return e
}

// fenFields is the part of a FEN that names a position: placement, side,
// castling.
func fenFields(fen string) string {
	f := strings.Fields(fen)
	return strings.Join(f[:3], " ")
}

// TestFilterPosition counts the TWIC games reaching positions of the
// Petrov and the Queen's Gambit against a brute-force count comparing FEN
// text at every ply, and checks that a transposition is found.
func TestFilterPosition(t *testing.T) {
	data, err := os.ReadFile(twic)
	if err != nil {
		t.Fatal(err)
	}
	games, _ := readAll(t, twic, data)
	for _, line := range []string{"e4 e5 Nf3 Nf6", "d4 d5 c4 e6 Nc3 Nf6", "e4 c5", ""} {
		p := positionOf(t, line)
		want := 0
		for _, g := range games {
			nodes := append([]*Node{g.Root}, g.Mainline()...)
			for _, n := range nodes {
				q, err := g.PositionAfter(n)
				if err != nil {
					t.Fatal(err)
				}
				if fenFields(q.FEN()) == fenFields(p.FEN()) {
					want++
					break
				}
			}
		}
		f, err := ParseFilter([]string{"fen=" + p.FEN()})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(filtered(t, twic, f)); got != want || want == 0 {
			t.Errorf("%q: %d games, want %d (and more than none)", line, got, want)
		}
	}

	// 1. Nf3 Nf6 2. e4 e5 reaches the position of 1. e4 e5 2. Nf3 Nf6.
	g := gameOf(t, "1. Nf3 Nf6 2. e4 e5 *")
	petrov := positionOf(t, "e4 e5 Nf3 Nf6")
	if !g.Reaches(petrov) {
		t.Errorf("the transposition to the Petrov is not found")
	}
	if g.Reaches(positionOf(t, "e4 e5 Nf3")) {
		t.Errorf("a position the game never had is found")
	}

	// ReachesAt gives the move played next from the position, nil at the
	// line's end; the same rule as Reaches.
	g = gameOf(t, "1. Nf3 Nf6 2. e4 e5 3. Nxe5 *")
	if next, ok := g.ReachesAt(petrov); !ok || next == nil || next.SAN != "Nxe5" {
		t.Errorf("ReachesAt(Petrov) = %v, %v; want Nxe5, true", next, ok)
	}
	if next, ok := g.ReachesAt(positionOf(t, "e4 e5 Nf3 Nf6 Nxe5")); !ok || next != nil {
		t.Errorf("ReachesAt(the last position) = %v, %v; want nil, true", next, ok)
	}
	if next, ok := g.ReachesAt(positionOf(t, "d4")); ok || next != nil {
		t.Errorf("ReachesAt(1. d4) = %v, %v; want nil, false", next, ok)
	}
}

// TestFilterEnPassant: a FEN's en passant square counts only when a pawn
// can take there, as for repetitions.
func TestFilterEnPassant(t *testing.T) {
	g := gameOf(t, "1. e4 Nf6 2. e5 d5 3. Nc3 *")
	for fen, want := range map[string]bool{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1":    true, // nothing can take on e3
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1":     true,
		"rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3": true, // exd6 possible
		"rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3":  false,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kkq - 0 1":      false, // castling rights differ
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1":     false, // side to move differs
	} {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Reaches(p); got != want {
			t.Errorf("%s: Reaches %v, want %v", fen, got, want)
		}
	}
}

// TestFilterPinnedEnPassant: after 1... h5 in chess-library's
// threefold_repetition.pgn, gxh6 would expose the king on the g-file, so
// the position is the one without an en passant square, reached again
// after 3... Rg7 — one position, as FIDE's rules on repetition see it.
func TestFilterPinnedEnPassant(t *testing.T) {
	g := gameOf(t, "[FEN \"6k1/1p2p1rp/rP1pR3/2pP1pP1/p1P2P1P/R5K1/8/8 b - - 0 1\"]\n\n1... h5 2. Rh6 Rh7 3. Re6 Rg7 *")
	for _, fen := range []string{
		"6k1/1p2p1r1/rP1pR3/2pP1pPp/p1P2P1P/R5K1/8/8 w - h6 0 2",
		"6k1/1p2p1r1/rP1pR3/2pP1pPp/p1P2P1P/R5K1/8/8 w - - 0 4",
	} {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := g.PositionAfter(g.Mainline()[0]) // after 1... h5
		if !g.Reaches(p) || !SamePosition(p, q) {
			t.Errorf("%s: Reaches %v, the same as after 1... h5: %v; want both", fen, g.Reaches(p), SamePosition(p, q))
		}
	}
}

func gameOf(t *testing.T, movetext string) *Game {
	t.Helper()
	games, errs := readAll(t, "game", []byte(movetext))
	if len(errs) > 0 || len(games) != 1 {
		t.Fatalf("%q: %d games, %v", movetext, len(games), errs)
	}
	return games[0]
}

func positionOf(t *testing.T, sans string) *chess.Position {
	t.Helper()
	p := chess.NewPosition()
	for _, san := range strings.Fields(sans) {
		m, err := p.ParseSAN(san)
		if err != nil {
			t.Fatal(err)
		}
		var u chess.Undo
		p.MakeMove(m, &u)
	}
	return p
}
