package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The big-file check: a PGN file of at least bigSize bytes, made by
// repeating the shared games, must be read (moves validated, then skimmed
// for the index) with a peak RSS of at most bigMaxRSS, whatever its size.
const (
	bigSize   = 200 << 20
	bigMaxRSS = 50 << 20

	// bigFileEnv tells the re-executed test binary to read this file and
	// bigGamesEnv how many games it must find there.
	bigFileEnv  = "SQUALL_PGN_BIG_FILE"
	bigGamesEnv = "SQUALL_PGN_BIG_GAMES" // "games moves"
)

// repeatReader yields unit reps times without holding more than one copy,
// so a stream of any size can be read without writing it to disk.
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

// bigInput describes the big input: its size and how many games and moves
// a reader must find in it.
type bigInput struct {
	size         int64
	games, moves int
}

// bigStream returns a stream of at least bigSize bytes of repeated shared
// games and what it holds.
func bigStream(t testing.TB) (*repeatReader, bigInput) {
	unit, _ := sharedGames(t)
	games, moves := readBig(t, bytes.NewReader(unit))
	reps := (bigSize + len(unit) - 1) / len(unit)
	return &repeatReader{unit: unit, reps: reps}, bigInput{int64(reps) * int64(len(unit)), reps * games, reps * moves}
}

// readBig parses every game of in with full move validation, checks each
// came back without error and returns the number of games and of moves
// (variations included).
func readBig(t testing.TB, in io.Reader) (games, moves int) {
	r := NewReader(in, "big.pgn")
	var count func(*Node)
	count = func(n *Node) {
		for _, c := range n.Children {
			moves++
			count(c)
		}
	}
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return games, moves
		}
		if err != nil {
			t.Fatalf("game %d: %v", games+1, err)
		}
		count(g.Root)
		games++
	}
}

// TestBigFileMemory writes a file of over 200 MB and has a fresh process
// (this test binary again) read it twice, once with full move validation
// and once skimming for the index; the child's peak RSS must stay at most
// 50 MB, since the reader holds one game at a time. The parent's memory
// does not count: it never reads the file.
func TestBigFileMemory(t *testing.T) {
	if path := os.Getenv(bigFileEnv); path != "" {
		readBigFile(t, path)
		return
	}
	if testing.Short() {
		t.Skip("writes and reads a 200 MB file")
	}
	path, big := writeBigFile(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestBigFileMemory$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), bigFileEnv+"="+path, fmt.Sprintf("%s=%d %d", bigGamesEnv, big.games, big.moves))
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reading in a child process: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: TestBigFileMemory")) {
		t.Fatalf("the child did not run the test:\n%s", out)
	}
	peak, ok := childPeakRSS(cmd.ProcessState)
	if !ok {
		t.Skip("no peak RSS for child processes on this system")
	}
	t.Logf("%d MB, %d games, %d moves; the child ran %v:\n%s", big.size>>20, big.games, big.moves,
		time.Since(start).Round(time.Millisecond), childLog(out))
	t.Logf("child peak RSS %.1f MB (limit %d MB)", float64(peak)/(1<<20), bigMaxRSS>>20)
	if raceBuild {
		t.Logf("race detector on: its shadow memory makes the RSS bound meaningless, not checked")
		return
	}
	if peak > bigMaxRSS {
		t.Errorf("peak RSS %.1f MB reading a %d MB file, want at most %d MB", float64(peak)/(1<<20), big.size>>20, bigMaxRSS>>20)
	}
}

// writeBigFile writes the big file into a temporary directory and returns
// its path and what it holds.
func writeBigFile(t *testing.T) (string, bigInput) {
	in, big := bigStream(t)
	path := filepath.Join(t.TempDir(), "big.pgn")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(f, in); err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
	return path, big
}

// readBigFile is the child's side of TestBigFileMemory.
func readBigFile(t *testing.T, path string) {
	var want bigInput
	if _, err := fmt.Sscan(os.Getenv(bigGamesEnv), &want.games, &want.moves); err != nil {
		t.Fatalf("%s: %v", bigGamesEnv, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, skim := range []bool{false, true} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		games, moves := 0, 0
		if skim {
			for _, err := range NewReader(f, path).Entries() {
				if err != nil {
					t.Fatal(err)
				}
				games++
			}
		} else {
			games, moves = readBig(t, f)
		}
		d := time.Since(start)
		f.Close()
		if games != want.games || !skim && moves != want.moves {
			t.Fatalf("read %d games, %d moves (skim %v), want %d, %d", games, moves, skim, want.games, want.moves)
		}
		what := "parsed with move validation"
		if skim {
			what = "skimmed for the index"
		}
		t.Logf("%s: %d games in %v, %.0f MB/s", what, games, d.Round(time.Millisecond), float64(info.Size())/1e6/d.Seconds())
	}
}

// childLog picks the child's own log lines out of its output.
func childLog(out []byte) string {
	var b bytes.Buffer
	for _, l := range bytes.Split(out, []byte("\n")) {
		if bytes.Contains(l, []byte("big_test.go")) {
			fmt.Fprintf(&b, "\t%s\n", bytes.TrimSpace(l))
		}
	}
	return b.String()
}

// BenchmarkParseBig is BenchmarkParse on a 200 MB stream generated on the
// fly, so the input takes no memory.
func BenchmarkParseBig(b *testing.B) {
	_, big := bigStream(b)
	b.SetBytes(big.size)
	start := cpuTime()
	for b.Loop() {
		in, _ := bigStream(b)
		if games, moves := readBig(b, in); games != big.games || moves != big.moves {
			b.Fatalf("read %d games, %d moves, want %d, %d", games, moves, big.games, big.moves)
		}
	}
	reportCPU(b, int(big.size), start)
}

// TestRepeatReader checks the generator itself: exact size and content.
func TestRepeatReader(t *testing.T) {
	r := &repeatReader{unit: []byte("abc"), reps: 4}
	got, err := io.ReadAll(io.LimitReader(r, 100))
	if err != nil || !bytes.Equal(got, []byte("abcabcabcabc")) {
		t.Fatalf("got %q, %v", got, err)
	}
}
