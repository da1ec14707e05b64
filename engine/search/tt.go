package search

import (
	"math/bits"
	"sync/atomic"

	"github.com/squall-chess/squall/engine/chess"
)

// The transposition table follows monsoon's cache-line design: 64-byte
// buckets of four 16-byte entries. Each entry is two 64-bit words, the data
// and the key XORed with the data, so that Lazy SMP threads can share the
// table without locks: a torn write (one word from one thread, one from
// another) fails the key check and reads as a miss.
//
// Data word layout:
//
//	bits  0-25  move (chess.Move uses 26 bits)
//	bits 26-41  score (int16, mate scores relative to the node)
//	bits 42-49  depth + depthOffset (uint8)
//	bits 50-51  bound
//	bits 52-57  age (search generation, mod 64)
//	bit  58     ttPv: stored by a PV node, or by one the hash had marked so
type ttEntry struct {
	key  atomic.Uint64 // position key ^ data
	data atomic.Uint64
}

type ttBucket [4]ttEntry

const (
	boundNone  = 0
	boundUpper = 1
	boundLower = 2
	boundExact = boundUpper | boundLower

	depthOffset = 8 // quiescence stores depths down to -depthOffset+1
	ageMask     = 63
)

// table is a transposition table. Its buckets are made by the first
// search (ready), not when the size is set: an engine that a program starts
// and may never search with (the board opening a game list, a server's
// seat) would otherwise hold its megabytes from the start, and Go's
// collector, counting them as live, lets the program's garbage grow to as
// much again before it collects.
type table struct {
	buckets []ttBucket
	mb      int // the size set; buckets is empty until ready
	age     uint64
}

func newTable(mb int) *table {
	t := &table{}
	t.resize(mb)
	return t
}

// resize sets the size; the buckets are made when a search needs them.
func (t *table) resize(mb int) {
	t.mb, t.buckets = mb, nil
}

// ready makes the buckets if they are not made yet (empty, as cleared).
func (t *table) ready() {
	if t.buckets != nil {
		return
	}
	n := uint64(t.mb) << 20 / 64
	if n == 0 {
		n = 1
	}
	t.buckets = make([]ttBucket, n)
}

func (t *table) clear() {
	for i := range t.buckets {
		for j := range t.buckets[i] {
			t.buckets[i][j].key.Store(0)
			t.buckets[i][j].data.Store(0)
		}
	}
	t.age = 0
}

// newSearch starts a new generation so entries from older searches are
// replaced first.
func (t *table) newSearch() { t.age = (t.age + 1) & ageMask }

func (t *table) bucket(key uint64) *ttBucket {
	hi, _ := bits.Mul64(key, uint64(len(t.buckets)))
	return &t.buckets[hi]
}

// ttHit is a probed entry, unpacked.
type ttHit struct {
	move  chess.Move
	score int
	depth int
	bound int
	// pv is Stockfish's ttPv: the position was searched as a PV node, or
	// stored by a node that found it so; such nodes are pruned and
	// reduced less, as the line may become the principal one again.
	pv bool
}

func unpack(d uint64) ttHit {
	return ttHit{
		move:  chess.Move(d & (1<<26 - 1)),
		score: int(int16(d >> 26)),
		depth: int(d>>42&0xff) - depthOffset,
		bound: int(d >> 50 & 3),
		pv:    d>>58&1 != 0,
	}
}

// probe looks key up; ok is false on a miss.
func (t *table) probe(key uint64) (h ttHit, ok bool) {
	b := t.bucket(key)
	for i := range b {
		d := b[i].data.Load()
		if b[i].key.Load()^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return ttHit{}, false
}

// store saves a search result, pv marking a ttPv node (ttHit.pv). It
// replaces the entry for the same key, or else the entry that is least
// worth keeping: shallow and from an old search.
func (t *table) store(key uint64, m chess.Move, score, depth, bound int, pv bool) {
	b := t.bucket(key)
	victim := 0
	worst := 1 << 30
	for i := range b {
		d := b[i].data.Load()
		if d == 0 || b[i].key.Load()^d == key {
			if d != 0 && m == chess.NullMove {
				m = chess.Move(d & (1<<26 - 1)) // keep the old best move
			}
			if d != 0 && bound != boundExact && depth+3 < int(d>>42&0xff)-depthOffset && (d>>52&ageMask) == t.age {
				return // a much deeper result of this search is worth more
			}
			victim = i
			break
		}
		age := (t.age - d>>52&ageMask) & ageMask
		v := int(d>>42&0xff) - 8*int(age)
		if v < worst {
			worst, victim = v, i
		}
	}
	depth = max(min(depth, 255-depthOffset), -depthOffset)
	d := uint64(m)&(1<<26-1) |
		uint64(uint16(int16(score)))<<26 |
		uint64(depth+depthOffset)<<42 |
		uint64(bound)<<50 |
		t.age<<52 |
		uint64(b2i(pv))<<58
	b[victim].data.Store(d)
	b[victim].key.Store(key ^ d)
}

// hashfull is the per-mille of sampled entries written in this search.
func (t *table) hashfull() int {
	n, used := 0, 0
	for i := 0; i < len(t.buckets) && n < 1000; i++ {
		for j := range t.buckets[i] {
			d := t.buckets[i][j].data.Load()
			n++
			if d != 0 && d>>52&ageMask == t.age {
				used++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return used * 1000 / n
}
