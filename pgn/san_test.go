package pgn

import (
	"strconv"
	"testing"
)

// TestSANTable fills the table past its size limit (so it grows and is
// emptied) and checks every lookup returns the text stored for its key.
func TestSANTable(t *testing.T) {
	var tab sanTable
	text := func(k uint64) []byte { return []byte("s" + strconv.FormatUint(k, 10)) }
	for round := 0; round < 2; round++ {
		for k := uint64(1); k <= 3*sanTableMax; k += 7 {
			key := k<<20 | 1<<32 // spread like real keys, never 0
			if got := tab.get(key, text(k)); got != string(text(k)) {
				t.Fatalf("key %d: got %q", k, got)
			}
			if got := tab.get(key, []byte("other")); got != string(text(k)) {
				t.Fatalf("key %d looked up again: got %q", k, got)
			}
		}
	}
	if tab.n > sanTableMax/2 || len(tab.keys) > sanTableMax {
		t.Fatalf("table holds %d of %d slots, limit %d", tab.n, len(tab.keys), sanTableMax)
	}
}
