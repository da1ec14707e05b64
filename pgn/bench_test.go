package pgn

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"
)

func reportCPU(b *testing.B, bytes int, start time.Duration) {
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/d.Seconds(), "MB/cpu-s")
	}
}

// sharedGames writes every good game of the test files in export format,
// so repeating it gives a real mix: tournament games, engine comments,
// lichess clocks and evals, variations. It returns the text and its number
// of games.
func sharedGames(t testing.TB) ([]byte, int) {
	var one bytes.Buffer
	n := 0
	for _, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, errs := readAll(t, f, data)
		if len(errs) > 0 {
			continue
		}
		if err := Write(&one, games...); err != nil {
			t.Fatal(err)
		}
		n += len(games)
	}
	return one.Bytes(), n
}

// benchData repeats the shared games up to about size bytes.
func benchData(b *testing.B, size int) []byte {
	one, _ := sharedGames(b)
	out := make([]byte, 0, size+len(one))
	for len(out) < size {
		out = append(out, one...)
	}
	return out
}

func BenchmarkParse(b *testing.B) {
	benchGames(b, func(r *Reader) error {
		_, err := r.Next()
		return err
	})
}

// BenchmarkCheck is BenchmarkParse for CheckNext, which squall pgn reads
// with: every move checked, nothing kept.
func BenchmarkCheck(b *testing.B) {
	benchGames(b, (*Reader).CheckNext)
}

// benchGames is benchRead reading every game with next.
func benchGames(b *testing.B, next func(*Reader) error) {
	benchRead(b, func(r *Reader) {
		n := 0
		for {
			err := next(r)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		b.ReportMetric(float64(n), "games/op")
	})
}

func BenchmarkIndex(b *testing.B) {
	benchRead(b, func(r *Reader) {
		for _, err := range r.Entries() {
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchRead measures read, given a fresh Reader over 16 MiB of the shared
// games on each round, in bytes per second and per CPU second.
func benchRead(b *testing.B, read func(r *Reader)) {
	data := benchData(b, 16<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		read(NewReader(bytes.NewReader(data), "bench"))
	}
	reportCPU(b, len(data), start)
}
