package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDatagenDefaultOpenings: with no --openings, datagen plays from the
// balanced openings built into the binary (no file outside the repository
// is needed), writes labelled positions with a trailer per game, and a
// second run resumes without replaying finished games.
func TestDatagenDefaultOpenings(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.epd")
	args := []string{"--out", out, "--games", "2", "--nodes", "300", "--threads", "1", "--max-plies", "40"}
	var stdout, stderr bytes.Buffer
	if err := runDatagen(args, &stdout, &stderr); err != nil {
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
	if err := runDatagen(args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "0 games to play (2 already") {
		t.Errorf("resumed run says %q", stdout.String())
	}
}
