package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/eval"
	"github.com/squall-chess/squall/engine/nnue"
)

// TestEvalCommandEndsWithTotal: the hand-crafted breakdown ends with its
// total, and the built-in network's score follows it beside the
// hand-crafted one (issue 20: squall eval FEN prints both).
func TestEvalCommandEndsWithTotal(t *testing.T) {
	fen := "r1bq1rk1/pp2bppp/2n2n2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R b KQ - 0 9"
	var out, errb bytes.Buffer
	if code := run(append([]string{"eval"}, strings.Fields(fen)...), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	p, _ := chess.ParseFEN(fen)
	want := fmt.Sprintf("total %+.2f", float64(-eval.New().Evaluate(p))/100) // White's view, Black to move
	if total := lines[len(lines)-2]; total != want {
		t.Errorf("the breakdown ends with %q, want %q", total, want)
	}
	var acc nnue.Accumulator
	nnue.Default().Refresh(&acc, p)
	net := -nnue.Default().Evaluate(&acc, p)
	wantNet := fmt.Sprintf("network %s: %+.2f (hand-crafted %+.2f), White's view", nnue.DefaultName, float64(net)/100, float64(-eval.New().Evaluate(p))/100)
	if last := lines[len(lines)-1]; last != wantNet {
		t.Errorf("last line %q, want %q", last, wantNet)
	}
	for _, term := range []string{"material", "mobility", "king safety", "passed pawns", "threats", "tempo", "phase"} {
		if !strings.Contains(out.String(), term) {
			t.Errorf("breakdown lacks %q:\n%s", term, out.String())
		}
	}
}

func TestEvalCommandRejectsBadInput(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"eval", "not", "a", "fen"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "field") {
		t.Errorf("exit %d, stderr %q: want an error naming the FEN field", code, errb.String())
	}
	name := filepath.Join(t.TempDir(), "x.epd")
	os.WriteFile(name, []byte("8/8/8/8/8/8/8/K6k w - -\nbad line\n"), 0o644)
	errb.Reset()
	if code := run([]string{"eval", "--epd", name}, &out, &errb); code == 0 || !strings.Contains(errb.String(), ":2:") {
		t.Errorf("exit %d, stderr %q: want an error naming line 2", code, errb.String())
	}
}
