package main

import (
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/spec"
)

func TestBenchPositionsAreLegal(t *testing.T) {
	if len(benchFENs) < 40 {
		t.Errorf("bench has %d positions; the issue asks for about 50", len(benchFENs))
	}
	seen := map[string]bool{}
	for i, fen := range benchFENs {
		if _, err := chess.ParseFEN(fen); err != nil {
			t.Errorf("position %d: %v", i+1, err)
		}
		if seen[fen] {
			t.Errorf("position %d repeats %s", i+1, fen)
		}
		seen[fen] = true
	}
}

// The single-threaded node count is the fingerprint quoted in commits: it
// must not depend on the run.
func TestBenchNodeCountDeterministic(t *testing.T) {
	count := func() uint64 {
		var n uint64
		total, _, err := bench(4, 1, nil, func(_ int, _ string, nodes uint64, _ time.Duration) { n += nodes })
		if err != nil {
			t.Fatal(err)
		}
		if n != total {
			t.Fatalf("per-position nodes sum to %d, total says %d", n, total)
		}
		return total
	}
	a, b := count(), count()
	if a != b || a == 0 {
		t.Errorf("bench 4 gave %d then %d nodes", a, b)
	}
}

// TestBenchOptions: --option reaches the searcher (UseNNUE=false benches
// the hand-crafted evaluation: another node count) and a bad one is refused.
func TestBenchOptions(t *testing.T) {
	net, _, err := bench(3, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	hce, _, err := bench(3, 1, []spec.Option{{Name: "UseNNUE", Value: "false"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if net == hce {
		t.Errorf("bench 3 searched %d nodes with the network and without it", net)
	}
	if _, _, err := bench(3, 1, []spec.Option{{Name: "UseNNUE", Value: "maybe"}}, nil); err == nil {
		t.Error("UseNNUE=maybe was accepted")
	}
}
