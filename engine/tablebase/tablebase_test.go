package tablebase

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// tablesDir holds the 3-4 piece Syzygy set bundled with the repository
// (docs/DATA.md).
var tablesDir = filepath.Join("testdata", "syzygy", "3-4")

func openTables(t testing.TB) *Tablebase {
	t.Helper()
	if _, err := os.Stat(filepath.Join(tablesDir, "KQvK.rtbw")); err != nil {
		t.Fatalf("bundled Syzygy tables missing at %s: %v", tablesDir, err)
	}
	tb, err := Open(tablesDir)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

type labelled struct {
	fen      string
	wdl, dtz int
	wdlTable int // the table's own value, before captures are tried
	line     int
}

func readLabels(t testing.TB) []labelled {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "endgame_wdl_dtz.epd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 {
			t.Fatalf("line %d: short EPD", n)
		}
		l := labelled{fen: strings.Join(fields[:4], " ") + " 0 1", line: n}
		ops := strings.Split(strings.Join(fields[4:], " "), ";")
		got := 0
		for _, op := range ops {
			kv := strings.Fields(op)
			if len(kv) != 2 {
				continue
			}
			v, err := strconv.Atoi(kv[1])
			if err != nil {
				t.Fatalf("line %d: %q: %v", n, op, err)
			}
			switch kv[0] {
			case "wdl":
				l.wdl = v
				got++
			case "dtz":
				l.dtz = v
				got++
			case "wdl_table":
				l.wdlTable = v
				got++
			}
		}
		if got != 3 {
			t.Fatalf("line %d: missing wdl_table, wdl or dtz", n)
		}
		out = append(out, l)
	}
	return out
}

// TestLabelledPositions probes all 200 labelled positions. The labels
// were made by python-chess's Syzygy prober, which reads DTZ the way the
// tables store it: where a table keeps moves rather than plies its DTZ can
// be one ply above the true distance (the package comment's caveat), and
// the label carries the same rounding. So the comparison is exact: a
// faithful reader of the format agrees with the labels on every position,
// and an off-by-one is a bug here, not rounding.
func TestLabelledPositions(t *testing.T) {
	tb := openTables(t)
	labels := readLabels(t)
	if len(labels) != 200 {
		t.Fatalf("read %d labelled positions, want 200", len(labels))
	}
	wdlOK, dtzOK, rawOK, offByOne := 0, 0, 0, 0
	for _, l := range labels {
		p, err := chess.ParseFEN(l.fen)
		if err != nil {
			t.Fatalf("line %d: %v", l.line, err)
		}
		wdl, ok := tb.ProbeWDL(p)
		dtz, ok2 := tb.ProbeDTZ(p)
		raw, st := tb.probeTable(p, false, 0)
		if ok && wdl == l.wdl {
			wdlOK++
		} else {
			t.Errorf("line %d %s: wdl %d (ok %v), label %d", l.line, l.fen, wdl, ok, l.wdl)
		}
		switch {
		case ok2 && dtz == l.dtz:
			dtzOK++
		case ok2 && (dtz-l.dtz == 1 || l.dtz-dtz == 1) && dtz*l.dtz > 0:
			offByOne++
			t.Errorf("line %d %s: dtz %d, label %d (off by one: rounding differs from the labeller's)", l.line, l.fen, dtz, l.dtz)
		default:
			t.Errorf("line %d %s: dtz %d (ok %v), label %d", l.line, l.fen, dtz, ok2, l.dtz)
		}
		if st != probeFail && raw == l.wdlTable {
			rawOK++
		} else {
			t.Errorf("line %d %s: table value %d (status %d), label wdl_table %d", l.line, l.fen, raw, st, l.wdlTable)
		}
		if p.FEN() != l.fen {
			t.Errorf("line %d: probing changed the position to %s", l.line, p.FEN())
		}
	}
	t.Logf("of %d labelled positions: wdl exact %d, dtz exact %d (off by one %d), raw table wdl exact %d",
		len(labels), wdlOK, dtzOK, offByOne, rawOK)
}

// labelledPositions parses the labelled positions for the benchmarks.
func labelledPositions(b *testing.B) []*chess.Position {
	labels := readLabels(b)
	ps := make([]*chess.Position, len(labels))
	for i, l := range labels {
		p, err := chess.ParseFEN(l.fen)
		if err != nil {
			b.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

// BenchmarkProbeWDL probes the 200 labelled positions in turn, tables
// already loaded (as inside a search), and reports probes per second.
func BenchmarkProbeWDL(b *testing.B) {
	tb := openTables(b)
	ps := labelledPositions(b)
	for _, p := range ps {
		tb.ProbeWDL(p) // map every table before timing
	}
	n := 0
	for b.Loop() {
		if _, ok := tb.ProbeWDL(ps[n%len(ps)]); !ok {
			b.Fatal("probe failed")
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeDTZ is BenchmarkProbeWDL for DTZ (which probes WDL first
// and may search one ply).
func BenchmarkProbeDTZ(b *testing.B) {
	tb := openTables(b)
	ps := labelledPositions(b)
	for _, p := range ps {
		tb.ProbeDTZ(p)
	}
	n := 0
	for b.Loop() {
		if _, ok := tb.ProbeDTZ(ps[n%len(ps)]); !ok {
			b.Fatal("probe failed")
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "probes/s")
}
