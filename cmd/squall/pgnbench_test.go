package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/squall-chess/squall/pgn"
)

// BenchmarkPGNCheck runs `squall pgn FILE` on about 16 MiB of real games:
// those of package pgn's benchmarks, the test files that read without a
// problem (tournament games, lichess clocks and evals, comments,
// variations), repeated. It reports
// MB per CPU second beside MB/s, which a shared machine's load distorts.
func BenchmarkPGNCheck(b *testing.B) {
	files, err := filepath.Glob("../../pgn/testdata/*/*.pgn")
	if err != nil || len(files) == 0 {
		b.Fatalf("no test files: %v", err)
	}
	// As package pgn's benchmarks have them: re-written in export format.
	var one bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		var games []*pgn.Game
		for g, err := range pgn.Games(bytes.NewReader(data)) {
			if err != nil {
				games = nil
				break
			}
			games = append(games, g)
		}
		if err := pgn.Write(&one, games...); err != nil {
			b.Fatal(err)
		}
	}
	data := bytes.Repeat(one.Bytes(), (16<<20)/one.Len()+1)
	path := filepath.Join(b.TempDir(), "games.pgn")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	start := cpuTime()
	for b.Loop() {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"pgn", path}, &stdout, &stderr); code != 0 {
			b.Fatalf("exit %d: %s%s", code, stdout.Bytes(), stderr.Bytes())
		}
	}
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(len(data))*float64(b.N)/1e6/d.Seconds(), "MB/cpu-s")
	}
}

// cpuTime is the process's user and system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
