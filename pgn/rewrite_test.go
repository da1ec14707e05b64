package pgn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewriteFile deletes, moves and inserts games in a file of the TWIC
// games whose last game ends without a newline: each game kept is its
// bytes exactly (an Entry's Offset up to the next one's), the new game is
// written in export format, and the file reads back as the new order.
func TestRewriteFile(t *testing.T) {
	data, err := os.ReadFile(twic)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Index(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	entries = entries[:5]
	data = bytes.TrimRight(data[:entries[4].Offset+300], "\n ")
	data = data[:bytes.LastIndex(data, []byte("\n"))] // game 5 cut to a few moves
	data = append([]byte("% a file's comment line\n\n"), data...)
	if entries, err = Index(bytes.NewReader(data)); err != nil || len(entries) != 5 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	span := func(i int) []byte {
		end := int64(len(data))
		if i+1 < len(entries) {
			end = entries[i+1].Offset
		}
		return data[entries[i].Offset:end]
	}
	added := NewGame()
	added.SetTag("White", "Added")
	added.Root.AddChild(0, "e4") // no move check in the writer: SAN is written as given

	path := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// New order: preamble, game 5 (last, no newline) moved first, 1, the
	// new game, 3, 2; game 4 deleted.
	piece := func(i int) Piece {
		end := int64(len(data))
		if i+1 < len(entries) {
			end = entries[i+1].Offset
		}
		return Span(entries[i].Offset, end)
	}
	pieces := []Piece{Span(0, entries[0].Offset), piece(4), piece(0), {Game: added}, piece(2), piece(1)}
	if err := RewriteFile(path, pieces); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]byte(nil), data[:entries[0].Offset]...)
	want = append(want, span(4)...)
	want = append(want, "\n\n"...) // the separator the last game lacked
	want = append(want, span(0)...)
	want = append(want, added.String()...)
	want = append(want, span(2)...)
	want = append(want, span(1)...)
	if !bytes.Equal(out, want) {
		t.Fatalf("rewritten file differs:\n%s\nwant\n%s", out, want)
	}
	got, err := Index(bytes.NewReader(out))
	if err != nil || len(got) != 5 {
		t.Fatalf("%d games read back, %v", len(got), err)
	}
	for i, w := range []string{entries[4].Tag("White"), entries[0].Tag("White"), "Added", entries[2].Tag("White"), entries[1].Tag("White")} {
		if got[i].Tag("White") != w {
			t.Errorf("game %d: White %q, want %q", i+1, got[i].Tag("White"), w)
		}
	}
	// A piece outside the file is refused and the file left as it was.
	if err := RewriteFile(path, []Piece{Span(0, int64(len(out))+1)}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("span past the end: %v", err)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, out) {
		t.Errorf("a failed rewrite changed the file")
	}
}
