package epd

import (
	"strings"
	"testing"
)

// FuzzParseLine: no input panics, and whatever parses writes out as a line
// that parses again to the same text.
func FuzzParseLine(f *testing.F) {
	f.Add(allOps)
	f.Add(`1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";`)
	f.Add(`1B2K3/4b3/3pk3/5R2/8/7B/8/8 w - - bm Bb8-c7; id "001";`)
	f.Add(`4k3/8/8/8/8/8/4P3/4K3 w - - 0 1; bm e4; c0 "e4=10, e3=5";`)
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseLine(line)
		if err != nil {
			return
		}
		_, _ = r.Points()
		for _, op := range []string{"bm", "am", "pv", "sv"} {
			r.Moves(op)
		}
		out := r.EPD()
		r2, err := ParseLine(out)
		if err != nil {
			if strings.Contains(line, `"`) || strings.Contains(line, "'") {
				return // quotes inside operands are rewritten
			}
			t.Fatalf("written %q does not re-read: %v", out, err)
		}
		if r2.EPD() != out {
			t.Fatalf("round trip: %q -> %q", out, r2.EPD())
		}
	})
}
