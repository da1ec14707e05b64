package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
}
