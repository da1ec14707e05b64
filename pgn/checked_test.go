package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// sameAsChecked fails t unless CheckNext reads data as Next did (games
// and errs, from readWithErrors): as many games, each with the same
// problem, word for word.
func sameAsChecked(t *testing.T, name string, data []byte, games []*Game, errs []error) {
	t.Helper()
	r := NewReader(bytes.NewReader(data), "fuzz")
	for i := 0; ; i++ {
		err := r.CheckNext()
		if err == io.EOF {
			if i != len(games) {
				t.Fatalf("%s: CheckNext read %d games, Next %d", name, i, len(games))
			}
			return
		}
		if i >= len(games) {
			t.Fatalf("%s: CheckNext read more than Next's %d games (%v)", name, len(games), err)
		}
		if fmt.Sprint(err) != fmt.Sprint(errs[i]) {
			t.Fatalf("%s: game %d: CheckNext says %v, Next %v", name, i, err, errs[i])
		}
		if games[i] == nil { // a read error, which ends reading
			return
		}
	}
}

// TestCheckNextAgrees: every test file, the malformed ones included,
// reads with CheckNext as with Next.
func TestCheckNextAgrees(t *testing.T) {
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, errs := readWithErrors(data)
		sameAsChecked(t, f, data, games, errs)
	}
}

// TestCheckNextFindsProblems: CheckNext, which keeps no comment, still
// finds every problem Next does, in the moves, in variations and in
// comments (one over 1 MiB, one never closed), and reads on after each.
func TestCheckNextFindsProblems(t *testing.T) {
	long := strings.Repeat("x", maxComment)
	for _, tc := range []struct{ name, in, want string }{
		{"illegal move", "1. e4 e5 2. Ke3 *", "x.pgn:1:13: move 2. Ke3: "},
		{"ambiguous move", "[FEN \"4k3/8/8/8/8/8/4N3/4K2N w - - 0 1\"]\n\n1. Ng3 *", "x.pgn:3:4: move 1. Ng3: "},
		{"illegal move in a variation", "1. e4 (1. d4 d5 2. Bb5) e5 *", "x.pgn:1:20: move 2. Bb5: "},
		{"illegal move after a variation", "1. e4 (1. d4) 1... e5 2. e5 *", "x.pgn:1:26: move 2. e5: "},
		{"variation before a move", "( 1. e4 ) *", "x.pgn:1:1: variation '(' before any move it could replace"},
		{"unclosed variation", "1. e4 (1. d4 (1. c4) e5 *", "x.pgn:1:7: variation '(' not closed by ')'"},
		{"long brace comment", "1. e4 {" + long + "} e5 {" + long + "x} *", "x.pgn:1:1048589: comment longer than 1 MiB"},
		{"long line comment", "1. e4 ;" + long + "x\n e5 *", "x.pgn:1:7: comment longer than 1 MiB"},
		{"unclosed comment", "1. e4 {open\n", "x.pgn:1:7: comment not closed by '}'"},
		{"bad NAG", "1. e4 $256 *", "x.pgn:1:7: malformed NAG (want $0 to $255)"},
		{"bad FEN", "[FEN \"8/8 w\"]\n\n1. e4 *", "x.pgn:3:1: FEN tag: "},
		{"Latin-1 variant", "[Variant \"Sch\xe4ch\"]\n\n1. e4 *", `x.pgn:3:1: unsupported variant "Schäch"`},
		{"Chess960", "[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. O-O O-O 2. Kg1 *",
			"x.pgn:4:15: move 2. Kg1: "},
		{"repeated FEN tag, the last kept", "[FEN \"8/8 w\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 2. Rh2 *",
			"x.pgn:4:15: move 2. Rh2: "},
	} {
		in := tc.in + "\n\n[Event \"After\"]\n\n1. d4 d5 *\n"
		games, errs := readWithErrors([]byte(in))
		sameAsChecked(t, tc.name, []byte(in), games, errs)
		r := NewReader(strings.NewReader(in), "x.pgn")
		if err := r.CheckNext(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: CheckNext says %v, want %q…", tc.name, err, tc.want)
		}
		if err := r.CheckNext(); err != nil {
			t.Errorf("%s: the next game reads with %v", tc.name, err)
		}
		if err := r.CheckNext(); err != io.EOF {
			t.Errorf("%s: after the last game CheckNext says %v, want io.EOF", tc.name, err)
		}
	}
}

// TestCheckNextReadError: a read error comes back from every call.
func TestCheckNextReadError(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(&failReader{boom}, "f.pgn")
	for range 2 {
		if err := r.CheckNext(); !errors.Is(err, boom) {
			t.Fatalf("CheckNext: %v, want %v", err, boom)
		}
	}
}

// TestCheckNextMixed: one Reader may check some games and read others
// whole; each reads as it would alone.
func TestCheckNextMixed(t *testing.T) {
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, errs := readWithErrors(data)
		r := NewReader(bytes.NewReader(data), "fuzz")
		for i := range games {
			if i%2 == 0 {
				if err := r.CheckNext(); fmt.Sprint(err) != fmt.Sprint(errs[i]) {
					t.Fatalf("%s: game %d: CheckNext says %v, Next alone %v", f, i, err, errs[i])
				}
				continue
			}
			g, err := r.Next()
			if fmt.Sprint(err) != fmt.Sprint(errs[i]) || !sameGame(g, games[i]) {
				t.Fatalf("%s: game %d after a checked one reads differently (%v, alone %v)", f, i, err, errs[i])
			}
		}
		if err := r.CheckNext(); err != io.EOF {
			t.Fatalf("%s: after the last game: %v", f, err)
		}
	}
}
