package eval

import (
	"strings"
	"testing"
)

// TestBreakdownPrintGolden: the table is in pawns with two decimals, as
// every score the program shows (it was centipawns, beside the network's
// pawns), and each header stands over its column ("white mg  eg" stood
// over two columns of six).
func TestBreakdownPrintGolden(t *testing.T) {
	var b Breakdown
	b.FEN = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	b.Terms[TermMaterial] = [2]Score{S(3704, 4277), S(3604, 4177)}
	b.Terms[TermMobility] = [2]Score{S(-104, -289), S(-4, 11)}
	b.Terms[TermTempo] = [2]Score{S(14, 12), 0}
	b.Phase, b.Scale, b.Total = 20, ScaleNormal, 17
	b.PawnProbes, b.PawnHits = 4, 1
	var out strings.Builder
	b.Print(&out)
	want := `position  4k3/8/8/8/8/8/4P3/4K3 w - - 0 1
term (pawns)    white mg  white eg  black mg  black eg  total mg  total eg
material           37.04     42.77     36.04     41.77     +1.00     +1.00
piece-square        0.00      0.00      0.00      0.00     +0.00     +0.00
imbalance           0.00      0.00      0.00      0.00     +0.00     +0.00
mobility           -1.04     -2.89     -0.04      0.11     -1.00     -3.00
pawns               0.00      0.00      0.00      0.00     +0.00     +0.00
passed pawns        0.00      0.00      0.00      0.00     +0.00     +0.00
king safety         0.00      0.00      0.00      0.00     +0.00     +0.00
pieces              0.00      0.00      0.00      0.00     +0.00     +0.00
threats             0.00      0.00      0.00      0.00     +0.00     +0.00
space               0.00      0.00      0.00      0.00     +0.00     +0.00
tempo               0.14      0.12      0.00      0.00     +0.14     +0.12
sum                36.14     40.00     36.00     41.88     +0.14     -1.88
phase 20/24 (24 = middlegame, 0 = pawn ending), scale 64/64
pawn hash 4 probes, 1 hit (25.0%)
total +0.17
`
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Each header ends where its column's numbers end.
	lines := strings.Split(want, "\n")
	header, row := lines[1], lines[2]
	for _, h := range []string{"white mg", "white eg", "black mg", "black eg", "total mg", "total eg"} {
		end := strings.Index(header, h) + len(h)
		if end > len(row) || row[end-1] == ' ' || (end < len(row) && row[end] != ' ') {
			t.Errorf("%q does not end over its column:\n%s\n%s", h, header, row)
		}
	}
}
