package account

import (
	"strings"
	"testing"
)

func TestValidHandle(t *testing.T) {
	for _, ok := range []string{"ann", "Bob_2", "x-y", "Magnus", "ab", strings.Repeat("a", 20)} {
		if err := ValidHandle(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a", strings.Repeat("a", 21), "1abc", "_ab", "ab c", "ab\x1b[2J", "Mаgnus" /* Cyrillic а */, "ab\u200b", "é1", "a\x00b", "ab\n", "Squall-L4", "squall", "5quall_fan", "SQUAL1"} {
		err := ValidHandle(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		// The message never quotes the input, which may be hostile.
		if strings.ContainsAny(err.Error(), "\x1b\x00\n\u200b") {
			t.Errorf("%q: the error quotes it: %q", bad, err)
		}
	}
}

// TestKey: handles that read alike in a terminal are one handle.
func TestKey(t *testing.T) {
	same := [][2]string{{"Magnus", "magnu5"}, {"MAGNUS", "magnus"}, {"bob_1", "BOB-l"}, {"Oil", "0I1"}, {"zeb8", "2EBB"}}
	for _, p := range same {
		if Key(p[0]) != Key(p[1]) {
			t.Errorf("%q and %q are different handles (%q, %q)", p[0], p[1], Key(p[0]), Key(p[1]))
		}
	}
	if Key("ann") == Key("anna") || Key("bob") == Key("rob") {
		t.Error("different handles share a key")
	}
}
