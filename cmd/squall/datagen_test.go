package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/nnue/train"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/engine/tune"
)

// TestDatagenDefaultOpenings: with no --openings, datagen plays from the
// balanced openings built into the binary (no file outside the repository
// is needed), writes labelled positions with a trailer per game, and a
// second run resumes without replaying finished games.
func TestDatagenDefaultOpenings(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.epd")
	args := []string{"--out", out, "--games", "2", "--nodes", "300", "--threads", "1", "--max-plies", "40"}
	var stdout, stderr bytes.Buffer
	if err := execute("datagen", args, &stdout, &stderr); err != nil {
		t.Fatalf("datagen: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if strings.Count(text, "# game ") != 2 || !strings.Contains(text, " ce ") {
		t.Fatalf("datagen wrote:\n%s", text)
	}
	stdout.Reset()
	if err := execute("datagen", args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "0 games to play (2 already") {
		t.Errorf("resumed run says %q", stdout.String())
	}
}

// TestDatagenBinary: with an output ending in .bin, datagen writes packed
// records that squall train reads; a run killed mid-record is resumed: the
// cut record is dropped, the file truncated to whole records, and only the
// games not yet there are played.
func TestDatagenBinary(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "d.bin")
	args := []string{"--out", out, "--games", "3", "--nodes", "300", "--threads", "1", "--max-plies", "40"}
	var stdout, stderr bytes.Buffer
	if err := execute("datagen", args, &stdout, &stderr); err != nil {
		t.Fatalf("datagen: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || len(data)%train.RecordSize != 0 {
		t.Fatalf("%d bytes: not whole records", len(data))
	}
	ps, _, err := train.ReadRecords(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	games := map[uint32]bool{}
	for _, p := range ps {
		games[p.Game] = true
	}
	if len(games) == 0 || len(games) > 3 {
		t.Fatalf("records of games %v", games)
	}
	// A killed run: half a record at the end.
	f, err := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(make([]byte, 13))
	f.Close()
	stdout.Reset()
	stderr.Reset()
	args[3] = "5" // --games 5
	if err := execute("datagen", args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "13 bytes of a record cut short dropped") || !strings.Contains(stdout.String(), fmt.Sprintf("%d already", len(games))) {
		t.Errorf("resumed run: stdout %q stderr %q", stdout.String(), stderr.String())
	}
	data, _ = os.ReadFile(out)
	if len(data)%train.RecordSize != 0 {
		t.Fatalf("%d bytes after the resumed run: records misaligned", len(data))
	}
	ps2, tail, err := train.ReadRecords(bytes.NewReader(data))
	if err != nil || tail != 0 || !slices.Equal(ps2[:len(ps)], ps) {
		t.Errorf("after resuming: %d records, tail %d, %v; the first run's records kept: %v", len(ps2), tail, err, len(ps2) >= len(ps) && slices.Equal(ps2[:len(ps)], ps))
	}
}

// TestDatagenCompact: with an output ending in .sqg, datagen writes whole
// games in the compact format; squall train reads from them the very
// positions the packed format holds for the same games, in a fraction of
// the bytes; a run killed mid-game is resumed, the cut game dropped.
func TestDatagenCompact(t *testing.T) {
	dir := t.TempDir()
	run := func(out string, games int) {
		t.Helper()
		args := []string{"--out", out, "--games", strconv.Itoa(games), "--nodes", "300", "--threads", "2", "--max-plies", "60", "--seed", "7"}
		var stdout, stderr bytes.Buffer
		if err := execute("datagen", args, &stdout, &stderr); err != nil {
			t.Fatalf("datagen %s: %v\n%s", out, err, stderr.String())
		}
	}
	bin, sqg := filepath.Join(dir, "d.bin"), filepath.Join(dir, "d.sqg")
	run(bin, 4)
	run(sqg, 4)
	var stderr bytes.Buffer
	packed, err := readTrainingData(bin, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := readTrainingData(sqg, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	sortPositions := func(ps []train.Position) {
		slices.SortStableFunc(ps, func(a, b train.Position) int { return int(a.Game) - int(b.Game) })
	}
	sortPositions(packed)
	sortPositions(compact)
	if len(packed) == 0 || !slices.Equal(packed, compact) {
		t.Fatalf("the compact file gives %d positions, the packed one %d: not the same", len(compact), len(packed))
	}
	// The saving, measured without the games' headers (a FEN each,
	// which only short test games make weigh): 4 bytes a ply against a
	// packed record's 32 a position, so at least 4× smaller while half
	// the plies or more are training positions. A whole-file ratio would
	// measure how long these four games happen to last (4.0× with
	// r6-256b8.sqnn's games of 50 plies, headers a third of the file).
	size := func(p string) int64 { fi, _ := os.Stat(p); return fi.Size() }
	data, err := os.ReadFile(sqg)
	if err != nil {
		t.Fatal(err)
	}
	var games, plies, headers int64
	if _, err := train.ReadGames(bytes.NewReader(data), func(g *train.GameRecord) error {
		games++
		plies += int64(len(g.Plies))
		headers += 4 + 4 + 1 + 1 + int64(len(g.Start.FEN()))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if size(sqg) != headers+4*plies {
		t.Errorf("compact file %d bytes; its %d games' headers (%d bytes) and %d plies at 4 bytes make %d", size(sqg), games, headers, plies, headers+4*plies)
	}
	if ratio := float64(size(bin)) / float64(4*plies); ratio < 4 {
		t.Errorf("%d plies in %d bytes, their %d positions packed in %d: only %.1f× smaller", plies, 4*plies, len(packed), size(bin), ratio)
	}
	// Killed mid-game: a block cut short, then resumed to 6 games.
	f, err := os.OpenFile(sqg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{200, 0, 0, 0, 1, 2, 3})
	f.Close()
	run(sqg, 6)
	ids := map[int]int{}
	data, _ = os.ReadFile(sqg)
	tail, err := train.ReadGames(bytes.NewReader(data), func(g *train.GameRecord) error { ids[g.ID]++; return nil })
	if err != nil || tail != 0 || len(ids) != 6 {
		t.Fatalf("after resuming: games %v, tail %d, %v", ids, tail, err)
	}
	for id, n := range ids {
		if n != 1 {
			t.Errorf("game %d written %d times", id, n)
		}
	}
}

// BenchmarkDatagen plays self-play games as squall datagen does (the
// built-in engine, 5,000 nodes a move, 8 MB of hash each) on 1, 2, 4, 8 and
// 16 threads, reporting positions a second in all and per thread: datagen
// scales while the per-thread figure holds (issue 35: "scales to 16
// threads, a benchmark figure per thread"). Each op is one game per thread.
func BenchmarkDatagen(b *testing.B) {
	sp, err := spec.Parse("squall")
	if err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2, 4, 8, 16} {
		if threads > runtime.NumCPU() {
			break
		}
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			positions := 0
			d := &tune.Datagen{Openings: opening.BalancedStarts(), Games: b.N * threads, Nodes: 5000, Threads: threads,
				RandomPlies: 4, MaxPlies: 400, Seed: 1, Progress: func(_, p int) { positions = p }}
			newEngine := func() (engine.Analyzer, error) {
				return sp.Open(context.Background(), append(spec.Int("Threads", 1), spec.Int("Hash", 8)...)...)
			}
			b.ResetTimer()
			if err := d.Run(context.Background(), newEngine, io.Discard); err != nil {
				b.Fatal(err)
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(positions)/sec, "pos/s")
			b.ReportMetric(float64(positions)/sec/float64(threads), "pos/s/thread")
		})
	}
}
