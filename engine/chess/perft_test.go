package chess

import (
	"bufio"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"
)

var deepPerft = flag.Bool("deep", false, "run every listed perft depth (slow); also SQUALL_PERFT_DEEP=1")

// perftLimit is the largest count the default test run checks per position:
// enough depth to exercise everything while keeping CI well within budget.
const perftLimit = 2_000_000

type perftCase struct {
	name   string
	fen    string
	counts map[int]uint64
}

// loadEPDPerft reads ";D1 n ;D2 n …" lines.
func loadEPDPerft(t testing.TB, path string) []perftCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		parts := strings.Split(sc.Text(), ";")
		if strings.TrimSpace(parts[0]) == "" {
			continue
		}
		c := perftCase{name: path + ":" + strconv.Itoa(n), fen: strings.TrimSpace(parts[0]), counts: map[int]uint64{}}
		for _, d := range parts[1:] {
			var depth int
			var count uint64
			fields := strings.Fields(d)
			if len(fields) != 2 || !strings.HasPrefix(fields[0], "D") {
				t.Fatalf("%s: bad depth field %q", c.name, d)
			}
			depth, err1 := strconv.Atoi(fields[0][1:])
			count, err2 := strconv.ParseUint(fields[1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: bad depth field %q", c.name, d)
			}
			c.counts[depth] = count
		}
		cases = append(cases, c)
	}
	return cases
}

// loadTrickyPerft reads python-chess style "id/epd/perft d n" blocks.
func loadTrickyPerft(t testing.TB, path string) []perftCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []perftCase
	for _, ln := range strings.Split(string(data), "\n") {
		f := strings.Fields(ln)
		switch {
		case len(f) >= 2 && f[0] == "id":
			cases = append(cases, perftCase{name: f[1], counts: map[int]uint64{}})
		case len(f) >= 2 && f[0] == "epd":
			cases[len(cases)-1].fen = strings.Join(f[1:], " ")
		case len(f) == 3 && f[0] == "perft":
			d, _ := strconv.Atoi(f[1])
			n, _ := strconv.ParseUint(f[2], 10, 64)
			cases[len(cases)-1].counts[d] = n
		}
	}
	return cases
}

func runPerftCases(t *testing.T, cases []perftCase) {
	deep := *deepPerft || os.Getenv("SQUALL_PERFT_DEEP") != ""
	for _, c := range cases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for d := 1; d <= 8; d++ {
			want, ok := c.counts[d]
			if !ok {
				continue
			}
			if !deep && want > perftLimit && d > 1 {
				break
			}
			if got := p.Perft(d); got != want {
				t.Errorf("%s: %s perft(%d) = %d, want %d", c.name, c.fen, d, got, want)
			}
		}
	}
}

func TestPerftStandard(t *testing.T) {
	runPerftCases(t, loadEPDPerft(t, "testdata/perft/standard.epd"))
}

func TestPerftFischer960(t *testing.T) {
	cases := loadEPDPerft(t, "testdata/perft/fischer960.epd")
	if len(cases) != 960 {
		t.Fatalf("loaded %d Chess960 positions, want 960", len(cases))
	}
	runPerftCases(t, cases)
}

func TestPerftTricky(t *testing.T) {
	runPerftCases(t, loadTrickyPerft(t, "testdata/perft/tricky.perft"))
}
