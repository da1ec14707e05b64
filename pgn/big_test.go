package pgn

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// The big-file check streams this much PGN; it runs only with
// SQUALL_PGN_BIG=1 since it takes several CPU seconds.
const (
	bigSize   = 200 << 20
	bigMaxRSS = 50 << 20
)

// repeatReader yields unit reps times without holding more than one copy,
// so a file of any size can be read without writing it to disk.
type repeatReader struct {
	unit []byte
	off  int // into unit
	reps int // whole or partial copies still to yield
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.reps > 0 {
		k := copy(p[n:], r.unit[r.off:])
		n += k
		if r.off += k; r.off == len(r.unit) {
			r.off = 0
			r.reps--
		}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// bigInput returns a reader of at least bigSize bytes of repeated shared
// games, its exact size and its number of games.
func bigInput(t testing.TB) (io.Reader, int64, int) {
	if os.Getenv("SQUALL_PGN_BIG") == "" {
		t.Skip("set SQUALL_PGN_BIG=1 to stream a 200 MB file")
	}
	unit, games := sharedGames(t)
	reps := (bigSize + len(unit) - 1) / len(unit)
	return &repeatReader{unit: unit, reps: reps}, int64(reps) * int64(len(unit)), reps * games
}

// peakRSS is the process's peak resident set size (VmHWM), in bytes.
func peakRSS(t testing.TB) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmHWM in /proc/self/status")
	return 0
}

// resetPeakRSS makes VmHWM start again from the current RSS (Linux 4.0+),
// after returning freed memory to the system, so that setup and earlier
// tests in the same process do not count; failure is ignored, which can
// only make the check stricter.
func resetPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// readBig parses the whole stream with full move validation and checks
// every game came back without error.
func readBig(t testing.TB, in io.Reader, wantGames int) {
	r := NewReader(in, "big.pgn")
	n := 0
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("game %d: %v", n+1, err)
		}
		if len(g.Root.Children) == 0 && g.Tag("White") == "" {
			t.Fatalf("game %d is empty", n+1)
		}
		n++
	}
	if n != wantGames {
		t.Fatalf("read %d games, want %d", n, wantGames)
	}
}

// TestBigFileMemory streams a file of over 200 MB through the reader and
// the index skim: memory must stay flat (peak RSS at most 50 MB), since the
// reader holds one game at a time.
func TestBigFileMemory(t *testing.T) {
	in, size, games := bigInput(t)
	resetPeakRSS()
	readBig(t, in, games)
	afterParse := peakRSS(t)

	in, _, _ = bigInput(t)
	n := 0
	for _, err := range NewReader(in, "big.pgn").Entries() {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != games {
		t.Fatalf("index found %d games, want %d", n, games)
	}
	peak := peakRSS(t)
	t.Logf("%d MB, %d games: peak RSS %.1f MB after parsing, %.1f MB after indexing",
		size>>20, games, float64(afterParse)/(1<<20), float64(peak)/(1<<20))
	if peak > bigMaxRSS {
		t.Errorf("peak RSS %d MB, want at most %d MB", peak>>20, bigMaxRSS>>20)
	}
}

// BenchmarkParseBig is BenchmarkParse on a streamed 200 MB file, reporting
// peak RSS too.
func BenchmarkParseBig(b *testing.B) {
	_, size, _ := bigInput(b)
	b.SetBytes(size)
	resetPeakRSS()
	start := cpuTime()
	for b.Loop() {
		in, _, games := bigInput(b)
		readBig(b, in, games)
	}
	reportCPU(b, int(size), start)
	b.ReportMetric(float64(peakRSS(b))/(1<<20), "peak-RSS-MB")
}

// TestRepeatReader checks the generator itself: exact size and content.
func TestRepeatReader(t *testing.T) {
	r := &repeatReader{unit: []byte("abc"), reps: 4}
	got, err := io.ReadAll(io.LimitReader(r, 100))
	if err != nil || !bytes.Equal(got, []byte("abcabcabcabc")) {
		t.Fatalf("got %q, %v", got, err)
	}
}
