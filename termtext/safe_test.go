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
		// A whole escape sequence is one mark; what follows it is kept.
		{"Evil\x1b[2J\x1b[31mRED", "Evil␛␛RED", "Evil␛␛RED"},
		{"e5\x1bc", "e5␛", "e5␛"},                   // ESC c (reset) is one sequence
		{"\x1b(B\x1b7x", "␛␛x", "␛␛x"},              // nF and Fp forms
		{"f1\x1bOPf2\x1bNa.", "f1␛f2␛.", "f1␛f2␛."}, // SS3, SS2 and the character they shift
		{"over\rwrite\b", "over␍write␈", "over␍write␈"},
		{"nul\x00del\x7f", "nul␀del␡", "nul␀del␡"},
		{"c1\u009b2J after", "c1␛ after", "c1␛ after"}, // the 8-bit CSI
		{"c1\u0085nel", "c1\ufffdnel", "c1\ufffdnel"},  // a C1 control alone
		{"bad\xff\xfeutf8", "bad\ufffd\ufffdutf8", "bad\ufffd\ufffdutf8"},
		{"abc\u202edcba", "abc\ufffddcba", "abc\ufffddcba"},
		{"Müller – Šachy ♔ 象棋", "Müller – Šachy ♔ 象棋", "Müller – Šachy ♔ 象棋"},
		// OSC up to BEL or ST, its payload included (here the clipboard
		// and the window title).
		{"osc\x1b]52;c;aGk=\x07 end", "osc␛ end", "osc␛ end"},
		{"hi \x1b[2J\x1b[31mRED\x07 bell \x1b]0;pwned\x07 end", "hi ␛␛RED␇ bell ␛ end", "hi ␛␛RED␇ bell ␛ end"},
		{"t\x1b]2;x\ny\x1b\\ end", "t␛ end", "t␛ end"},
		{"t\u009d0;x\u009c end", "t␛ end", "t␛ end"},
		// DCS, SOS, PM and APC up to ST.
		{"a\x1bP1$r\x1b\\b\x1bXs\x1b\\c\x1b^p\x1b\\d\x1b_a\x1b\\e", "a␛b␛c␛d␛e", "a␛b␛c␛d␛e"},
		{"a\u0090q\u009cb", "a␛b", "a␛b"},
		// Not a whole sequence: the introducer is marked and nothing
		// after it is lost.
		{"osc\x1b]0;never ended", "osc␛]0;never ended", "osc␛]0;never ended"},
		{"dcs\x1bPq\x07 end", "dcs␛Pq␇ end", "dcs␛Pq␇ end"},
		{"csi\x1b[31\nx", "csi␛[31\nx", "csi␛[31 x"},
		{"esc\x1b", "esc␛", "esc␛"},
		{"esc\x1b\x1b[0m.", "esc␛␛.", "esc␛␛."},
		{"esc\x1bé", "esc␛é", "esc␛é"},
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

// FuzzSafe: whatever goes in, nothing a terminal acts on comes out (no C0
// control but the line feed Safe keeps, no DEL, no C1 control), the output
// is valid UTF-8, safe text passes through unchanged, and printable text
// after any input survives at the end of the output (issue 33's G6): an
// escape sequence, whole or cut short, never takes the text after it. The
// text follows a BEL, which ends an OSC and is no part of any other
// sequence, so that the input cannot leave one open for it to complete.
func FuzzSafe(f *testing.F) {
	for _, s := range []string{"", "plain", "Evil\x1b[2J\x1b[31mRED", "\xff\u202e\u009b\r\n\t", "♔ Müller",
		"hi \x1b[2J\x1b[31mRED\x07 bell \x1b]0;pwned\x07", "\x1bP", "\x1b[", "\x1b]", "\u009d", "\x1b", "\x1b\x1b[", "\x1bN", "\xe2\x99"} {
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
			const after = " end of the line"
			if got := clean(s+"\x07"+after, oneLine); !strings.HasSuffix(got, after) {
				t.Fatalf("clean(%q + BEL + %q, %v) = %q lost the text after it", s, after, oneLine, got)
			}
			if seq, ok := wholeSequence(s); ok {
				if got := clean(seq+after, oneLine); got != "␛"+after {
					t.Fatalf("clean(%q, %v) = %q, want one mark and the text after it", seq+after, oneLine, got)
				}
			}
		}
	})
}

// wholeSequence makes a whole escape sequence of the fuzzer's s, its first
// byte choosing the kind and the rest its body, kept to the bytes that
// kind allows: every such sequence must be shown as one mark.
func wholeSequence(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	keep := func(body string, ok func(byte) bool) string {
		var b strings.Builder
		for i := 0; i < len(body); i++ {
			if ok(body[i]) {
				b.WriteByte(body[i])
			}
		}
		return b.String()
	}
	body := s[1:]
	param := func(c byte) bool { return c >= 0x30 && c <= 0x3f }
	text := func(c byte) bool { return c >= 0x20 && c < 0x7f } // an OSC's or a DCS's payload, kept printable
	switch s[0] % 8 {
	case 0:
		return "\x1b[" + keep(body, param) + "m", true
	case 1:
		return "\u009b" + keep(body, param) + "J", true
	case 2:
		return "\x1b]" + keep(body, text) + "\x07", true
	case 3:
		return "\x1b]" + keep(body, text) + "\x1b\\", true
	case 4:
		return "\x1bP" + keep(body, text) + "\x1b\\", true
	case 5:
		return "\u009d" + keep(body, text) + "\u009c", true
	case 6:
		return "\x1bO" + "A", true
	}
	final := byte(0x40 + int(s[0])%0x3f) // ESC and one final byte (ESC c, ESC M, …)
	if strings.IndexByte("NOPX[]^_", final) >= 0 {
		final = 'c' // these begin longer sequences, made above
	}
	return "\x1b" + string(final), true
}
