package uci

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine"
)

// threadNices reads the nice value of every thread of process pid from
// /proc (field 19 of each task's stat, after the command's parentheses).
func threadNices(t *testing.T, pid int) []int {
	t.Helper()
	stats, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "stat"))
	if err != nil || len(stats) == 0 {
		t.Fatalf("the engine's threads: %v (%d found)", err, len(stats))
	}
	var nices []int
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields 3 on
		n, err := strconv.Atoi(fields[19-3])
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		nices = append(nices, n)
	}
	return nices
}

// TestClientNice: an engine started with Nice runs every thread at that
// value, those a Go engine starts at once and those it starts for a search
// after, and still answers; no thread of the caller keeps the value (the
// engine is forked from a thread of its own that ends after). Setting the
// value after the start raced with the engine's first threads: CI saw
// [7 7 7 0].
func TestClientNice(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the threads' nice values from /proc")
	}
	before := threadNices(t, os.Getpid())
	cfg := clientFakeConfig(t, "good")
	cfg.Nice = 7
	c, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 1}, nil); err != nil {
		t.Fatal(err)
	}
	nices := threadNices(t, c.cmd.Process.Pid)
	for _, n := range nices {
		if n != 7 {
			t.Fatalf("the engine's threads run at nice %v, want 7 each", nices)
		}
	}
	if len(nices) < 2 {
		t.Logf("only %d thread: the test shows less than it could", len(nices))
	}
	if testing.Verbose() {
		t.Logf("%d threads at %v", len(nices), nices)
	}
	if after := threadNices(t, os.Getpid()); slices.Max(after) != slices.Max(before) {
		t.Errorf("the caller's threads went from nice %v to %v", before, after)
	}
	cfg.Nice = 20
	if _, err := Start(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "nice 20") {
		t.Errorf("Nice 20 started: %v", err)
	}
}
