//go:build unix

package gamelist

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/squall-chess/squall/pgn"
)

// The acceptance of issue 36's game list: a 200 MB file shows its first
// screen in under 2 s, and the list of all of it takes under 100 MB of
// memory (the process's peak RSS).
const (
	bigSize      = 200 << 20
	bigFirst     = 2 * time.Second
	bigMaxRSS    = 100 << 20
	bigFileEnv   = "SQUALL_GAMELIST_BIG_FILE"
	bigGamesEnv  = "SQUALL_GAMELIST_BIG_GAMES"
	bigScreenW   = 100
	bigScreenH   = 30
	bigTestdata  = "../../pgn/testdata/*/*.pgn"
	bigChildTest = "TestListBigFile"
)

// realGames is every game of pgn's test files that reads without a
// problem, in export format: tournament games, lichess games with clocks
// and evals, engine games with comments, variations.
func realGames(tb testing.TB) []byte {
	files, err := filepath.Glob(bigTestdata)
	if err != nil || len(files) == 0 {
		tb.Fatalf("no test files: %v", err)
	}
	var out bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var games []*pgn.Game
		bad := false
		for g, err := range pgn.Games(bytes.NewReader(data)) {
			if err != nil {
				bad = true
				break
			}
			games = append(games, g)
		}
		if bad {
			continue
		}
		if err := pgn.Write(&out, games...); err != nil {
			tb.Fatal(err)
		}
	}
	return out.Bytes()
}

// writeBig writes a file of at least bigSize bytes into dir from the real
// games, each copy varied (its players' and event's names carry the copy's
// number, so that the list holds many distinct names, as a real database
// does, not a few repeated), and returns its path and number of games.
func writeBig(tb testing.TB, dir string) (string, int) {
	unit := realGames(tb)
	per := bytes.Count(unit, []byte("\n[Event "))
	if bytes.HasPrefix(unit, []byte("[Event ")) {
		per++
	}
	path := filepath.Join(dir, "big.pgn")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	size, games := 0, 0
	for k := 1; size < bigSize; k++ {
		tag := func(name string) ([]byte, []byte) {
			return []byte("[" + name + " \""), []byte(fmt.Sprintf("[%s \"%d ", name, k))
		}
		copy := unit
		for _, name := range []string{"White", "Black", "Event"} {
			old, new := tag(name)
			copy = bytes.ReplaceAll(copy, old, new)
		}
		n, err := w.Write(copy)
		if err != nil {
			tb.Fatal(err)
		}
		size += n
		games += per
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path, games
}

// openBig lists the file as the board does and returns how long the first
// screen took (the list made, the first batch taken, the screen drawn) and
// the whole file.
func openBig(tb testing.TB, path string, games int) (first, all time.Duration) {
	start := time.Now()
	l := New(testEnv(), path)
	cmd := l.Init()
	_, cmd = l.Update(cmd())
	screen := l.View(bigScreenW, bigScreenH)
	first = time.Since(start)
	if len(l.shown) < bigScreenH-7 || !strings.Contains(screen, "reading") {
		tb.Fatalf("first screen with %d games:\n%s", len(l.shown), screen)
	}
	for cmd != nil {
		_, cmd = l.Update(cmd())
	}
	all = time.Since(start)
	if len(l.rows) != games || l.loading || l.err != nil {
		tb.Fatalf("listed %d games of %d, loading %v, %v", len(l.rows), games, l.loading, l.err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	tb.Logf("%d names; heap in use %.1f MB, %d rows of %d bytes", len(l.names), float64(ms.HeapInuse)/(1<<20), len(l.rows), unsafe.Sizeof(row{}))
	runtime.KeepAlive(l)
	return first, all
}

// TestListBigFile is the child's side of BenchmarkList200MB: it lists the
// file named by bigFileEnv in a process of its own, whose peak RSS the
// parent reads. Without it, it is skipped.
func TestListBigFile(t *testing.T) {
	path := os.Getenv(bigFileEnv)
	if path == "" {
		t.Skip("the child of BenchmarkList200MB")
	}
	var games int
	fmt.Sscan(os.Getenv(bigGamesEnv), &games)
	first, all := openBig(t, path, games)
	t.Logf("first screen %v, all %d games %v", first.Round(time.Millisecond), games, all.Round(time.Millisecond))
}

// BenchmarkList200MB (issue 36, acceptance 4) writes a file of 200 MB of
// real games, varied, and opens its game list: the first screen's time
// and the whole file's are reported per open; the peak RSS is that of a
// fresh process (this binary again, TestListBigFile) listing the whole
// file. Over 2 s to the first screen, or over 100 MB, is an error.
func BenchmarkList200MB(b *testing.B) {
	path, games := writeBig(b, b.TempDir())
	fi, _ := os.Stat(path)
	var first, all time.Duration
	for b.Loop() {
		f, a := openBig(b, path, games)
		first, all = first+f, all+a
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms/first-screen")
	b.ReportMetric(all.Seconds()/float64(b.N), "s/whole-file")
	b.ReportMetric(float64(games), "games")
	b.ReportMetric(float64(fi.Size())/1e6, "MB")
	cmd := exec.Command(os.Args[0], "-test.run=^"+bigChildTest+"$", "-test.v", "-test.count=1", "-test.bench=^$")
	cmd.Env = append(os.Environ(), bigFileEnv+"="+path, fmt.Sprintf("%s=%d", bigGamesEnv, games))
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: "+bigChildTest)) {
		b.Fatalf("the child: %v\n%s", err, out)
	}
	peak, err := peakRSS(cmd.ProcessState)
	if err != nil {
		b.Logf("no peak RSS: %v", err)
	} else {
		b.ReportMetric(float64(peak)/(1<<20), "MB-peak-RSS")
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "bench_test.go") {
			b.Log(strings.TrimSpace(l))
		}
	}
	if d := first / time.Duration(b.N); d > bigFirst {
		b.Errorf("first screen in %v, want under %v", d, bigFirst)
	}
	if err == nil && peak > bigMaxRSS {
		b.Errorf("peak RSS %.1f MB, want under %d MB", float64(peak)/(1<<20), bigMaxRSS>>20)
	}
}

// peakRSS is a finished process's peak resident set, in bytes.
func peakRSS(ps *os.ProcessState) (int64, error) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru.Maxrss <= 0 {
		return 0, errors.New("the system gives no peak RSS")
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss, nil // bytes there, kilobytes elsewhere
	}
	return ru.Maxrss << 10, nil
}
