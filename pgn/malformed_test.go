package pgn

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// TestMalformedReported: a tag value whose quote is never closed and a
// variation whose '(' is never closed are errors at the place they begin,
// with the game as read, and the games around them are still read whole.
func TestMalformedReported(t *testing.T) {
	const after = "\n\n[Event \"After\"]\n\n1. d4 d5 *\n"
	for _, tc := range []struct{ name, in, want string }{
		{"unclosed tag", "[Event \"Unclosed tag\n[White \"C\"]\n\n1. e4 *" + after,
			`x.pgn:1:8: tag Event: value not closed by '"'`},
		{"unclosed tag, second on its line", "[White \"C\"] [Black \"D\n\n1. e4 *" + after,
			`x.pgn:1:20: tag Black: value not closed by '"'`},
		{"unclosed variation", "[Event \"V\"]\n\n1. e4 (1. d4 *" + after,
			"x.pgn:3:7: variation '(' not closed by ')'"},
		{"unclosed variation at the end of a line", "1. e4 e5\n2. Nf3 (2. f4 exf4\n3. Nf3" + after,
			"x.pgn:2:8: variation '(' not closed by ')'"},
		{"one of two nested variations unclosed", "1. e4 (1. d4 (1. c4) e5 *" + after,
			"x.pgn:1:7: variation '(' not closed by ')'"},
	} {
		games, errs := readWithErrors([]byte(tc.in))
		for i := range errs {
			if errs[i] != nil {
				errs[i] = relabel(errs[i])
			}
		}
		if len(games) != 2 || errs[0] == nil || errs[0].Error() != tc.want || errs[1] != nil {
			t.Errorf("%s: %d games, errors %v; want 2 games, the first with %q", tc.name, len(games), errs, tc.want)
			continue
		}
		// As much of the game as was read before the problem: its tags
		// (all of them, the broken one as the line gave it), and for a
		// variation its moves.
		if g := games[0]; g == nil || g.Tag("White") != "C" && len(g.Mainline()) == 0 {
			t.Errorf("%s: the game before the problem is lost: %v", tc.name, g)
		}
		if g := games[1]; g.Tag("Event") != "After" || len(g.Mainline()) != 2 {
			t.Errorf("%s: the next game reads as %v", tc.name, g)
		}
	}
	// Index, which skims, still finds the two games.
	entries, err := Index(strings.NewReader("[Event \"Unclosed\n\n1. e4 *" + after))
	if err != nil || len(entries) != 2 {
		t.Errorf("Index: %d entries, %v", len(entries), err)
	}
}

// relabel gives a fuzz-named error the file name x.pgn.
func relabel(err error) error {
	var pe *Error
	if !errors.As(err, &pe) {
		return err
	}
	c := *pe
	c.File = "x.pgn"
	return &c
}

// TestReadErrorAtStart: input that fails on its first read (a directory
// opened as a file, say) is a read error, not an empty file.
func TestReadErrorAtStart(t *testing.T) {
	boom := errors.New("boom")
	if g, err := NewReader(&failReader{boom}, "f.pgn").Next(); g != nil || !errors.Is(err, boom) {
		t.Errorf("failing reader: got %v, %v; want the read error", g, err)
	}
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	var n int
	var last error
	for g, err := range NewReader(dir, "dir").All() {
		n++
		if g != nil {
			t.Errorf("a game from a directory: %v", g)
		}
		last = err
	}
	if n != 1 || last == nil || last == io.EOF {
		t.Errorf("directory: %d results, last error %v; want one read error", n, last)
	}
	if _, err := Index(&failReader{boom}); !errors.Is(err, boom) {
		t.Errorf("Index of a failing reader: %v", err)
	}
}

// TestLatin1: a game that is not valid UTF-8 is read as Latin-1 (Windows
// 1252), its tags and comments alike; a valid UTF-8 game is left as it is,
// and each game of a file is judged by its own bytes.
func TestLatin1(t *testing.T) {
	data, err := os.ReadFile("testdata/encoding/latin1.pgn")
	if err != nil {
		t.Fatal(err)
	}
	utf := "[Event \"Café\"]\n\n1. e4 {déjà vu} *\n\n"
	// The UTF-8 game's tag bytes, read as Latin-1, would be "CafÃ©": they
	// stay UTF-8 although the games around them are Latin-1.
	games, errs := readAll(t, "latin1.pgn", append(append(append([]byte(nil), data...), "\n"+utf...), data...))
	if len(errs) != 0 || len(games) != 3 {
		t.Fatalf("%d games, errors %v", len(games), errs)
	}
	for _, i := range []int{0, 2} {
		g := games[i]
		if got := g.Tag("Event") + "|" + g.Tag("Site") + "|" + g.Tag("White") + "|" + g.Tag("Black"); got != "Café championship|Zürich|Müller, Jörg|Niño" {
			t.Errorf("game %d tags %q", i+1, got)
		}
		if got := g.Root.Next().After; len(got) != 1 || got[0] != "Le café est servi “très chaud”" {
			t.Errorf("game %d comment %q", i+1, got)
		}
	}
	if g := games[1]; g.Tag("Event") != "Café" || g.Root.Next().After[0] != "déjà vu" {
		t.Errorf("UTF-8 game read as %q, %q", g.Tag("Event"), g.Root.Next().After)
	}
	// A game whose tags are plain ASCII but whose comment is Latin-1, and
	// one the other way round, both read as Latin-1 throughout.
	for _, tc := range []struct{ in, event, comment string }{
		{"[Event \"x\"]\n\n1. e4 {caf\xe9} *\n", "x", "café"},
		{"[Event \"caf\xe9\"]\n\n1. e4 {\xc3\xa9} *\n", "café", "Ã©"},
	} {
		games, errs := readAll(t, "x", []byte(tc.in))
		if len(games) != 1 || len(errs) != 0 {
			t.Fatalf("%q: %d games, %v", tc.in, len(games), errs)
		}
		if ev, c := games[0].Tag("Event"), games[0].Root.Next().After[0]; ev != tc.event || c != tc.comment {
			t.Errorf("%q: Event %q, comment %q; want %q, %q", tc.in, ev, c, tc.event, tc.comment)
		}
	}
	// A control byte that Windows 1252 leaves undefined (0x81) is the
	// Latin-1 character, never U+FFFD.
	games, _ = readAll(t, "x", []byte("[Event \"a\x81\xe9\"]\n\n*\n"))
	if ev := games[0].Tag("Event"); ev != "a\u0081é" {
		t.Errorf("Event %q", ev)
	}
}
