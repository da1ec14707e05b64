package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuiteOnePosition: a one-position suite is "1 position", not "1
// positions", and its score is read as such.
func TestSuiteOnePosition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.epd")
	if err := os.WriteFile(path, []byte("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"suite", path, "--nodes", "2000"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), ": 1 position, ") || strings.Contains(stdout.String(), "1 positions") {
		t.Errorf("output:\n%s", stdout.String())
	}
}
