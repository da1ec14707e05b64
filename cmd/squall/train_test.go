package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/nnue"
)

// TestTrainFromDatagen: datagen's output trains into a network file that
// engine/nnue reads; a second run with the checkpoint resumes after the
// epochs done.
func TestTrainFromDatagen(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.epd")
	var stdout, stderr bytes.Buffer
	if err := execute("datagen", []string{"--out", data, "--games", "20", "--nodes", "200", "--threads", "1", "--max-plies", "60"}, &stdout, &stderr); err != nil {
		t.Fatalf("datagen: %v\n%s", err, stderr.String())
	}
	net := filepath.Join(dir, "n.sqnn")
	ck := filepath.Join(dir, "ck.gob")
	args := []string{"--data", data, "--out", net, "--epochs", "2", "--batch", "64", "--threads", "2", "--checkpoint", ck}
	stdout.Reset()
	if err := execute("train", args, &stdout, &stderr); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "epoch 2: training loss") {
		t.Errorf("train said:\n%s", stdout.String())
	}
	b, err := os.ReadFile(net)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nnue.Parse(b); err != nil {
		t.Fatalf("the network written does not read back: %v", err)
	}
	stdout.Reset()
	args[5] = "3" // --epochs 3
	if err := execute("train", args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "after 2 epochs") || strings.Contains(stdout.String(), "epoch 2: training") || !strings.Contains(stdout.String(), "epoch 3: training") {
		t.Errorf("resumed run said:\n%s", stdout.String())
	}
	// The next round starts from this network: trained for no epoch,
	// it writes the same network back.
	if b, err = os.ReadFile(net); err != nil { // the resumed run's
		t.Fatal(err)
	}
	stdout.Reset()
	again := filepath.Join(dir, "m.sqnn")
	if err := execute("train", []string{"--data", data, "--out", again, "--epochs", "0", "--init", net}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if b2, err := os.ReadFile(again); err != nil || !bytes.Equal(b, b2) || !strings.Contains(stdout.String(), "starting from the weights of "+net) {
		t.Errorf("--init, no epochs: a different network (%v); it said:\n%s", err, stdout.String())
	}
	// A network of another shape (issue 35): --hidden and --buckets; an
	// --init network of another shape than they ask is refused.
	wide := filepath.Join(dir, "w.sqnn")
	if err := execute("train", []string{"--data", data, "--out", wide, "--epochs", "1", "--batch", "64", "--hidden", "32", "--buckets", "8"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if b, err = os.ReadFile(wide); err != nil {
		t.Fatal(err)
	}
	if n, err := nnue.Parse(b); err != nil || n.Hidden != 32 || n.Buckets != 8 {
		t.Errorf("--hidden 32 --buckets 8 wrote a network that reads as %v", err)
	}
	// One bucket splits into several: no epoch, the same scores.
	stdout.Reset()
	split := filepath.Join(dir, "s.sqnn")
	if err := execute("train", []string{"--data", data, "--out", split, "--epochs", "0", "--init", net, "--buckets", "4"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "split into 4 buckets") {
		t.Errorf("--init --buckets 4 said:\n%s", stdout.String())
	}
	if b, err = os.ReadFile(split); err != nil {
		t.Fatal(err)
	}
	if n, err := nnue.Parse(b); err != nil || n.Buckets != 4 {
		t.Errorf("--init --buckets 4 wrote a network that reads as %v", err)
	}
	// A network widens: no epoch, new units silent, the same scores.
	stdout.Reset()
	wider := filepath.Join(dir, "x.sqnn")
	if err := execute("train", []string{"--data", data, "--out", wider, "--epochs", "0", "--init", wide, "--hidden", "64"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "widened from 32 to 64 hidden units") {
		t.Errorf("--init --hidden 64 said:\n%s", stdout.String())
	}
	narrow, wideNet := mustNet(t, wide), mustNet(t, wider)
	if wideNet.Hidden != 64 || wideNet.Buckets != 8 {
		t.Errorf("--init (32 × 8) --hidden 64 wrote a network %d wide with %d buckets", wideNet.Hidden, wideNet.Buckets)
	}
	for _, fen := range []string{chess.StartFEN, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "8/8/4k3/8/2R5/4K3/8/8 b - - 0 1"} {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		var a, b nnue.Accumulator
		narrow.Refresh(&a, p)
		wideNet.Refresh(&b, p)
		if x, y := narrow.Evaluate(&a, p), wideNet.Evaluate(&b, p); x != y {
			t.Errorf("%s: widened network %d, the network it widened %d", fen, y, x)
		}
	}
	for _, bad := range [][]string{{"--init", net, "--hidden", "32"}, {"--init", wider, "--hidden", "32"}, {"--init", wide, "--buckets", "4"}, {"--hidden", "40"}, {"--buckets", "3"}} {
		err := execute("train", append([]string{"--data", data, "--out", wide, "--epochs", "0"}, bad...), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), "--hidden") {
			t.Errorf("train %v: %v, want a usage error", bad, err)
		}
	}
}

// TestNNUEPipeline is docs/NNUE.md's pipeline in small: datagen writes
// packed records, train fits and quantises a network from them, eval
// loads it and prints its score beside the hand-crafted one, and a
// search runs on it (a suite position through the EvalFile and UseNNUE
// options, as a match uses them).
func TestNNUEPipeline(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "round0.bin")
	var stdout, stderr bytes.Buffer
	run := func(cmd string, args ...string) string {
		t.Helper()
		stdout.Reset()
		stderr.Reset()
		if err := execute(cmd, args, &stdout, &stderr); err != nil {
			t.Fatalf("squall %s %s: %v\n%s", cmd, strings.Join(args, " "), err, stderr.String())
		}
		t.Logf("squall %s %s:\n%s", cmd, strings.Join(args, " "), stdout.String())
		return stdout.String()
	}
	run("datagen", "--openings", "balanced", "--out", data, "--games", "16", "--nodes", "500", "--threads", "2",
		"--random-plies", "4", "--seed", "7", "--max-plies", "120")
	fi, err := os.Stat(data)
	if err != nil || fi.Size() == 0 || fi.Size()%32 != 0 {
		t.Fatalf("datagen wrote %v (%v): want whole 32-byte records", fi, err)
	}
	net := filepath.Join(dir, "next.sqnn")
	out := run("train", "--data", data, "--out", net, "--epochs", "2", "--batch", "256", "--threads", "2")
	if !strings.Contains(out, "epoch 2: training loss") {
		t.Fatalf("train said:\n%s", out)
	}
	out = run("eval", "--net", net, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	if !strings.Contains(out, "network") {
		t.Errorf("eval --net printed no network score:\n%s", out)
	}
	epd := filepath.Join(dir, "one.epd")
	if err := os.WriteFile(epd, []byte("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4 d4 Nc3; id \"smoke\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out = run("suite", epd, "--nodes", "20000", "--option", "EvalFile="+net, "--option", "UseNNUE=true")
	if !strings.Contains(out, "smoke") || !strings.Contains(out, "solved ") {
		t.Errorf("suite on the network said:\n%s", out)
	}
}

// mustNet reads the network at path.
func mustNet(t *testing.T, path string) *nnue.Net {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := nnue.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}
