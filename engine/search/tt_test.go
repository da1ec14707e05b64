package search

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// sameBucketKeys returns n distinct keys that all map to one bucket of t.
func sameBucketKeys(t *table, n int) []uint64 {
	var keys []uint64
	base := uint64(0x9e3779b97f4a7c15)
	for i := uint64(1); len(keys) < n; i++ {
		k := base ^ i
		if t.bucket(k) == t.bucket(base) {
			keys = append(keys, k)
		}
	}
	return keys
}

func TestTTRoundTrip(t *testing.T) {
	tt := newTable(1)
	tt.ready()
	p, err := chess.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10")
	if err != nil {
		t.Fatal(err)
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for i, c := range []struct{ score, depth, bound int }{
		{0, 1, boundExact}, {-1234, 7, boundUpper}, {29999, 0, boundLower},
		{-infinity + 1, -1, boundUpper}, {infinity - 1, -depthOffset + 1, boundExact},
		{17, 255 - depthOffset, boundLower},
	} {
		key := rand.Uint64() | 1
		m := ml.Moves[i%ml.N]
		pv := i%2 == 1 // the ttPv bit beside the highest fields
		tt.store(key, m, c.score, c.depth, c.bound, pv)
		h, ok := tt.probe(key)
		if !ok || h.move != m || h.score != c.score || h.depth != c.depth || h.bound != c.bound || h.pv != pv {
			t.Fatalf("stored %v %+v, probed %v %+v", m, c, ok, h)
		}
		if _, ok := tt.probe(key ^ 1<<40); ok {
			t.Fatalf("probe of an unstored key hit")
		}
	}
}

// TestTTMateScores: a mate (or tablebase win) found at one ply and read
// back at another keeps its distance from the node, so the mate distance
// reported from the root is right.
func TestTTMateScores(t *testing.T) {
	tt := newTable(1)
	tt.ready()
	for _, c := range []struct{ score, storePly, probePly, want int }{
		{mate - 10, 5, 3, mate - 8},            // mate at ply 10; from ply 3 it is 7 plies away
		{mate - 10, 5, 7, mate - 12},           // reached later: the mate is further from the root
		{-mate + 9, 4, 2, -mate + 7},           // being mated
		{-mate + 9, 4, 6, -mate + 11},          //
		{tbWin - 10, 5, 3, tbWin - 8},          // a tablebase win keeps its distance too
		{-tbWin + 9, 4, 6, -tbWin + 11},        //
		{tbWinBound - 1, 5, 1, tbWinBound - 1}, // an evaluation: unchanged
		{-500, 5, 1, -500},
	} {
		key := rand.Uint64() | 1
		tt.store(key, chess.NullMove, toTT(c.score, c.storePly), 5, boundExact, false)
		h, ok := tt.probe(key)
		if !ok {
			t.Fatal("miss")
		}
		if got := fromTT(h.score, c.probePly); got != c.want {
			t.Fatalf("score %d stored at ply %d, read at ply %d: %d, want %d", c.score, c.storePly, c.probePly, got, c.want)
		}
		// Table scores fit the 16-bit field.
		if h.score != toTT(c.score, c.storePly) {
			t.Fatalf("table score %d, want %d", h.score, toTT(c.score, c.storePly))
		}
	}
	// The reported mate distance: mate in 1 is mate-1 at the root.
	for _, c := range []struct{ s, want int }{{mate - 1, 1}, {mate - 3, 2}, {mate - 5, 3}, {-mate + 2, -1}, {-mate + 4, -2}} {
		if got := uciScore(c.s, engine.Exact).Mate; got != c.want {
			t.Errorf("uciScore(%d) = mate %d, want %d", c.s, got, c.want)
		}
	}
}

func TestTTReplacement(t *testing.T) {
	tt := newTable(1)
	tt.ready()
	tt.newSearch()
	keys := sameBucketKeys(tt, 6)
	for i, d := range []int{10, 2, 8, 6} {
		tt.store(keys[i], chess.NullMove, i, d, boundExact, false)
	}
	// A fifth position replaces the shallowest entry.
	tt.store(keys[4], chess.NullMove, 4, 5, boundExact, false)
	if _, ok := tt.probe(keys[1]); ok {
		t.Fatal("the depth-2 entry survived")
	}
	for _, i := range []int{0, 2, 3, 4} {
		if h, ok := tt.probe(keys[i]); !ok || h.score != i {
			t.Fatalf("entry %d lost (%v %+v)", i, ok, h)
		}
	}
	// A much shallower bound for the same key in the same search does not
	// overwrite a deep entry, an exact score does; a store without a move
	// keeps the old move.
	m := chess.Move(12345)
	tt.store(keys[0], m, 0, 10, boundLower, false)
	tt.store(keys[0], chess.NullMove, 99, 2, boundUpper, false)
	if h, _ := tt.probe(keys[0]); h.depth != 10 || h.score != 0 {
		t.Fatalf("deep entry overwritten by a shallow bound: %+v", h)
	}
	tt.store(keys[0], chess.NullMove, 99, 2, boundExact, false)
	if h, _ := tt.probe(keys[0]); h.depth != 2 || h.score != 99 || h.move != m {
		t.Fatalf("exact store: %+v, want depth 2 score 99 move kept", h)
	}
	// Entries from older searches go first, even if deeper.
	tt.newSearch()
	tt.store(keys[5], chess.NullMove, 5, 1, boundExact, false)
	if _, ok := tt.probe(keys[5]); !ok {
		t.Fatal("new entry not stored")
	}
	n := 0
	for _, i := range []int{0, 2, 3, 4} {
		if _, ok := tt.probe(keys[i]); ok {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d of the 4 old entries left, want 3", n)
	}
}

// TestTTConcurrent: writers and readers racing on a few buckets never see
// a torn entry (the XOR check turns it into a miss).
func TestTTConcurrent(t *testing.T) {
	tt := newTable(1)
	tt.ready()
	keys := sameBucketKeys(tt, 16)
	// Each key's entry is derived from the key, so a reader can check it.
	want := func(k uint64) (chess.Move, int, int) {
		return chess.Move(k & (1<<26 - 1)), int(int16(k >> 7)), int(k>>30&31) + 1
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for range 20000 {
				k := keys[r.IntN(len(keys))]
				m, s, d := want(k)
				tt.store(k, m, s, d, boundExact, false)
				if h, ok := tt.probe(keys[r.IntN(len(keys))]); ok {
					_ = h
				}
			}
		})
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 2))
			for range 20000 {
				k := keys[r.IntN(len(keys))]
				if h, ok := tt.probe(k); ok {
					m, s, d := want(k)
					if h.move != m || h.score != s || h.depth != d {
						t.Errorf("torn entry for %x: %+v", k, h)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

func TestTTHashfullClearResize(t *testing.T) {
	s := New()
	if err := s.SetOption("Hash", "1"); err != nil {
		t.Fatal(err)
	}
	_, infos := run(t, s, game(t, pvPositions[2].fen), engine.Limits{Depth: 9})
	if n := len(s.tt.buckets); n != 1<<20/64 {
		t.Fatalf("1 MB table has %d buckets", n)
	}
	first, last := infos[0].HashFull, infos[len(infos)-1].HashFull
	prev := 0
	for _, in := range infos {
		if in.CurrMove != chess.NullMove {
			continue // currmove reports (after 1 s, as under -race) carry no hashfull
		}
		if in.HashFull < prev {
			t.Fatalf("hashfull fell from %d to %d", prev, in.HashFull)
		}
		prev = in.HashFull
	}
	if last <= first || last <= 0 || last > 1000 {
		t.Fatalf("hashfull %d -> %d, want growth", first, last)
	}
	if h := s.tt.hashfull(); h != last {
		t.Fatalf("table hashfull %d, last info %d", h, last)
	}

	if err := s.SetOption("Clear Hash", ""); err != nil {
		t.Fatal(err)
	}
	if h := s.tt.hashfull(); h != 0 {
		t.Fatalf("hashfull %d after Clear Hash", h)
	}
	for i := range s.tt.buckets {
		for j := range s.tt.buckets[i] {
			if s.tt.buckets[i][j].data.Load() != 0 || s.tt.buckets[i][j].key.Load() != 0 {
				t.Fatalf("bucket %d entry %d not cleared", i, j)
			}
		}
	}

	// Resizing sets a table of the new size, made by the next search; the
	// same size keeps the table.
	old := s.tt
	if err := s.SetOption("Hash", "1"); err != nil || s.tt != old {
		t.Fatalf("Hash set to its value: err %v, table replaced %v", err, s.tt != old)
	}
	if err := s.SetOption("Hash", "4"); err != nil {
		t.Fatal(err)
	}
	if s.tt.mb != 4 || s.tt.buckets != nil {
		t.Fatalf("Hash 4: a table of %d MB with %d buckets made", s.tt.mb, len(s.tt.buckets))
	}
	for _, bad := range []string{"0", "-1", "x", "65537"} {
		if err := s.SetOption("Hash", bad); err == nil {
			t.Errorf("Hash %q accepted", bad)
		}
	}
	if s.tt.mb != 4 {
		t.Fatalf("a bad Hash value changed the table: %d MB", s.tt.mb)
	}
	// NewGame empties the table too. The whole table is counted, not
	// hashfull's sample of its first 1,000 entries: a depth-6 search
	// stores a couple of thousand entries over 4 MB, which that sample may
	// miss, depending on the network's tree.
	run(t, s, game(t, chess.StartFEN), engine.Limits{Depth: 6})
	if n := usedEntries(s.tt); n == 0 {
		t.Fatal("no entry stored by a search")
	}
	if err := s.NewGame(); err != nil {
		t.Fatal(err)
	}
	if n := usedEntries(s.tt); n != 0 {
		t.Fatalf("%d entries left after NewGame", n)
	}
}

// usedEntries counts the table's non-empty entries, all of them.
func usedEntries(tt *table) int {
	n := 0
	for i := range tt.buckets {
		for j := range tt.buckets[i] {
			if tt.buckets[i][j].data.Load() != 0 {
				n++
			}
		}
	}
	return n
}

// TestTableMadeBySearch: the hash table's memory is taken by the first
// search, not by New or a Hash setting (a program that starts an engine it
// may never search with keeps its heap small), and a search then uses the
// size set.
func TestTableMadeBySearch(t *testing.T) {
	s := New()
	defer s.Close()
	if err := s.SetOption("Hash", "2"); err != nil {
		t.Fatal(err)
	}
	if s.tt.buckets != nil {
		t.Fatalf("the table has %d buckets before any search", len(s.tt.buckets))
	}
	if m := s.ponderFromTable(chess.NewPosition(), chess.NullMove); m != chess.NullMove {
		t.Errorf("a ponder move %v from a table never made", m)
	}
	g := engine.Game{Start: chess.NewPosition()}
	if _, err := s.Search(context.Background(), g, engine.Limits{Depth: 2}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := len(s.tt.buckets), 2<<20/64; got != want {
		t.Errorf("after a search the table has %d buckets, want %d (2 MB)", got, want)
	}
}
