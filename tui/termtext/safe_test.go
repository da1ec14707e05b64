package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafe(t *testing.T) {
	for _, c := range []struct{ in, safe, line string }{
		{"Carlsen, Magnus", "Carlsen, Magnus", "Carlsen, Magnus"},
		{"", "", ""},
		{"two\nlines", "two\nlines", "two lines"},
		{"tab\there", "tab here", "tab here"},
		{"Evil\x1b[2J\x1b[31mRED", "Evil␛[2J␛[31mRED", "Evil␛[2J␛[31mRED"},
		{"e5\x1bc", "e5␛c", "e5␛c"},
		{"over\rwrite\b", "over␍write␈", "over␍write␈"},
		{"nul\x00del\x7f", "nul␀del␡", "nul␀del␡"},
		{"c1\u009b2J", "c1\ufffd2J", "c1\ufffd2J"},
		{"bad\xff\xfeutf8", "bad\ufffd\ufffdutf8", "bad\ufffd\ufffdutf8"},
		{"abc\u202edcba", "abc\ufffddcba", "abc\ufffddcba"},
		{"Müller – Šachy ♔ 象棋", "Müller – Šachy ♔ 象棋", "Müller – Šachy ♔ 象棋"},
		{"osc\x1b]52;c;aGk=\x07", "osc␛]52;c;aGk=␇", "osc␛]52;c;aGk=␇"},
	} {
		if got := Safe(c.in); got != c.safe {
			t.Errorf("Safe(%q) = %q, want %q", c.in, got, c.safe)
		}
		if got := SafeLine(c.in); got != c.line {
			t.Errorf("SafeLine(%q) = %q, want %q", c.in, got, c.line)
		}
	}
}

func TestUnsafe(t *testing.T) {
	if off, r, ok := Unsafe("ab\x1b[2J", false); ok || off != 2 || r != 0x1b {
		t.Errorf("Unsafe found (%d, %q, %v), want ESC at 2", off, r, ok)
	}
	if _, _, ok := Unsafe("a\nb", true); ok {
		t.Error("Unsafe accepted a line feed in one-line text")
	}
	if _, _, ok := Unsafe("a\nb ♔", false); !ok {
		t.Error("Unsafe refused plain text")
	}
}

// FuzzSafe: whatever goes in, nothing a terminal acts on comes out, the
// output is valid UTF-8, and safe text passes through unchanged.
func FuzzSafe(f *testing.F) {
	for _, s := range []string{"", "plain", "Evil\x1b[2J\x1b[31mRED", "\xff\u202e\u009b\r\n\t", "♔ Müller"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, oneLine := range []bool{false, true} {
			out := clean(s, oneLine)
			if off, r, ok := Unsafe(out, oneLine); !ok {
				t.Fatalf("clean(%q, %v) = %q keeps %q at %d", s, oneLine, out, r, off)
			}
			if !utf8.ValidString(out) {
				t.Fatalf("clean(%q) = %q is not valid UTF-8", s, out)
			}
			if clean(out, oneLine) != out {
				t.Fatalf("clean is not idempotent on %q", s)
			}
			if _, _, ok := Unsafe(s, oneLine); ok && !strings.Contains(s, "\t") && !strings.ContainsAny(s, "\u2028\u2029") && out != s {
				t.Fatalf("clean changed safe text %q to %q", s, out)
			}
		}
	})
}
