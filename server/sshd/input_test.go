package sshd

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTypedText: what a session's program reads of each read of its
// input. Keys pass unchanged; text of more than one character comes as one
// paste; control strings go; a paste is cut at maxPaste; a rune or an end
// marker a read cut in two is put together again.
func TestTypedText(t *testing.T) {
	const ps, pe = "\x1b[200~", "\x1b[201~"
	for _, c := range []struct {
		name  string
		reads []string
		want  string
	}{
		{"a key", []string{"n"}, "n"},
		{"keys", []string{"\r", "\x7f", "\x1b", "\x1b[A", "\x1bOP", "\x1bb", "\x03"}, "\r\x7f\x1b\x1b[A\x1bOP\x1bb\x03"},
		{"a word", []string{"say end"}, ps + "say end" + pe},
		{"a line and enter", []string{"e4\r"}, ps + "e4" + pe + "\r"},
		{"issue 33's chat line", []string{"hi \x1b[2J\x1b[31mRED\x07 bell \x1b]0;pwned\x07 end"},
			ps + "hi " + pe + "\x1b[2J\x1b[31m" + ps + "RED" + pe + "\x07" + ps + " bell " + pe + ps + " end" + pe},
		{"an OSC ended by ST", []string{"a\x1b]52;c;aGk=\x1b\\b"}, "ab"},
		{"DCS, APC", []string{"\x1bPq#0\x1b\\\x1b_x\x07"}, ""},
		{"an OSC never ended", []string{"\x1b]0;x"}, "\x1b]" + ps + "0;x" + pe},
		{"a rune cut in two", []string{"ab\xe2\x99", "\x94c"}, ps + "ab" + pe + ps + "♔c" + pe},
		{"the terminal's own paste", []string{ps + "x\x1b]0;t\x07y\x1b[31mz" + pe + "q"}, ps + "xyz" + pe + "q"},
		{"a paste's end cut in two", []string{ps + "xy\x1b[20", "1~ab"}, ps + "xy" + pe + ps + "ab" + pe},
		{"a huge paste", []string{ps + strings.Repeat("w", 3*maxPaste), strings.Repeat("w", maxPaste) + pe}, ps + strings.Repeat("w", maxPaste) + pe},
	} {
		var tt typedText
		var got strings.Builder
		for _, r := range c.reads {
			got.Write(tt.feed([]byte(r)))
		}
		if got.String() != c.want {
			t.Errorf("%s: %q reads as %q, want %q", c.name, c.reads, got.String(), c.want)
		}
	}
}

// FuzzTypedText: any input, in two reads cut anywhere, is rewritten
// without a hang or a panic, adds nothing but paste markers, and printable
// text comes through whole.
func FuzzTypedText(f *testing.F) {
	f.Add("say hi \x1b[2J\x1b[31mRED\x07 bell \x1b]0;pwned\x07 end", 7)
	f.Add("\x1b[200~xy\x1b[201~ab♔", 5)
	f.Add("ab\xe2\x99\x94c", 3)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		cut = min(max(cut, 0), len(s))
		var tt typedText
		out := string(tt.feed([]byte(s[:cut]))) + string(tt.feed([]byte(s[cut:])))
		bare := strings.NewReplacer("\x1b[200~", "", "\x1b[201~", "").Replace(out)
		if len(bare) > len(s) {
			t.Fatalf("%q (cut at %d) reads as %q: more than was sent", s, cut, out)
		}
		printable := utf8.ValidString(s)
		for _, r := range s {
			printable = printable && r >= 0x20 && r != 0x7f && !(r >= 0x80 && r <= 0x9f)
		}
		if printable && bare != s {
			t.Fatalf("text %q (cut at %d) reads as %q", s, cut, out)
		}
	})
}
