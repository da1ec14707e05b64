package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/opening"
)

// TestBookCommands builds a book with `squall book build`, lists the start
// position with `squall book probe` and teaches it with `squall book learn`,
// checking the printed moves against the book file read back.
func TestBookCommands(t *testing.T) {
	games := filepath.Join("..", "..", "pgn", "testdata", "pgn-parser", "twic-01-232games.pgn")
	out := filepath.Join(t.TempDir(), "twic.bin")
	sh := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("squall %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String()
	}
	got := sh("book", "build", "--pgn", games, "--out", out, "--max-ply", "16", "--min-games", "2")
	if !strings.Contains(got, "232 games read") {
		t.Errorf("build printed %q", got)
	}
	bk, err := book.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	start := chess.NewPosition()
	cs := bk.Candidates(start, nil)
	if len(cs) < 2 {
		t.Fatalf("start position: %d book moves", len(cs))
	}
	listing := sh("book", "probe", out)
	named := 0
	for _, c := range cs {
		// Each move's line ends with the opening it leads to, if named.
		var name string
		q := start.Clone()
		var u chess.Undo
		q.MakeMove(c.Move, &u)
		if o, ok := opening.Lookup(q); ok {
			name = `\s+` + regexp.QuoteMeta(o.String())
			named++
		}
		re := regexp.MustCompile(fmt.Sprintf(`(?m)^%s\s+%s\s+%d\s.*%%%s$`, regexp.QuoteMeta(start.SAN(c.Move)), c.Move.UCI(false), c.Weight, name))
		if !re.MatchString(listing) {
			t.Errorf("probe listing lacks %s %s weight %d%s:\n%s", start.SAN(c.Move), c.Move.UCI(false), c.Weight, name, listing)
		}
	}
	if named == 0 {
		t.Errorf("no first move of the book leads to a named opening")
	}
	// A named position says so.
	ruy := "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
	if got := sh("book", "probe", "--fen", ruy, out); !strings.Contains(got, "\nopening: C60 Ruy Lopez\n") {
		t.Errorf("probe of the Ruy Lopez printed:\n%s", got)
	}

	sh("book", "learn", "--pgn", games, "--player", "Aronian,L", out)
	l, err := book.LoadLearning(book.LearnPath(out))
	if err != nil {
		t.Fatal(err)
	}
	learned := 0
	for _, c := range bk.Candidates(start, l) {
		if c.Score != 0 {
			learned++
		}
	}
	if learned == 0 {
		t.Errorf("learning from Aronian's games changed no first move")
	}
	if after, err := os.ReadFile(out); err != nil || !bytes.Equal(after, book.Marshal(bk.Entries())) {
		t.Errorf("learn rewrote the book (err %v)", err)
	}
}
