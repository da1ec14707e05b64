package view

import (
	"strings"
	"testing"
)

// TestWrapWordsBreaksLongWords: a word longer than the line (a path in an
// error) is broken where the line ends, never left to overflow it, and no
// text is lost.
func TestWrapWordsBreaksLongWords(t *testing.T) {
	s := "at /home/someone/very/long/directory/name/games.pgn:23:13: move 2. Ke3: illegal"
	for _, w := range []int{1, 5, 10, 20, 31} {
		lines := WrapWords(s, w)
		for _, l := range lines {
			if n := len([]rune(l)); n > w {
				t.Errorf("width %d: line %q is %d cells", w, l, n)
			}
		}
		if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != strings.ReplaceAll(s, " ", "") {
			t.Errorf("width %d lost text: %q", w, got)
		}
	}
	if got := Wrap("one two\nthree", 20); len(got) != 2 || got[1] != "three" {
		t.Errorf("paragraphs: %q", got)
	}
}
