package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// TestAVX2MatchesPortable: the AVX2 loops give the portable loops' results
// bit for bit, at every width a network may have, over the whole int16
// range (wrapping sums included) and every activation from below 0 to
// above QA.
func TestAVX2MatchesPortable(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 path on this machine or build (the portable loops are what runs)")
	}
	rng := rand.New(rand.NewPCG(8, 9))
	vec := func(h, lo, hi int) []int16 {
		v := make([]int16, h)
		for i := range v {
			v[i] = int16(lo + rng.IntN(hi-lo+1))
		}
		return v
	}
	for h := HiddenStep; h <= MaxHidden; h += HiddenStep {
		for range 100 {
			full := func() []int16 { return vec(h, -32768, 32767) }
			src, a1, a2, s1, s2 := full(), full(), full(), full(), full()
			got, want := make([]int16, h), append([]int16(nil), src...)
			addColumn(want, a1)
			subColumn(want, s1)
			if addSubAVX2(&got[0], &src[0], &a1[0], &s1[0], h); !equal(got, want) {
				t.Fatalf("%d lanes: addSubAVX2 differs from the portable loops", h)
			}
			subColumn(want, s2)
			if addSubSubAVX2(&got[0], &src[0], &a1[0], &s1[0], &s2[0], h); !equal(got, want) {
				t.Fatalf("%d lanes: addSubSubAVX2 differs", h)
			}
			addColumn(want, a2)
			if addAddSubSubAVX2(&got[0], &src[0], &a1[0], &a2[0], &s1[0], &s2[0], h); !equal(got, want) {
				t.Fatalf("%d lanes: addAddSubSubAVX2 differs", h)
			}
			v := vec(h, -600, 600)
			if rng.IntN(4) == 0 {
				v = full()
			}
			w := vec(h, -MaxOutputWeight, MaxOutputWeight)
			if x, y := screluDotAVX2(&v[0], &w[0], h), screluDot(v, w); x != y {
				t.Fatalf("%d lanes: screluDotAVX2 %d, portable %d", h, x, y)
			}
		}
	}
}

func equal(a, b []int16) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestAVX2MatchesPortableOnPositions: over positions of random games, the
// vectorised path (Refresh, Update and Evaluate as the search calls them)
// gives the portable path's accumulators and scores bit for bit, at every
// shape of shapes (10,000 positions of today's, 3,000 of each other).
func TestAVX2MatchesPortableOnPositions(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 path on this machine or build")
	}
	defer setAVX2(true)
	for i, sh := range shapes {
		want := 3000
		if i == 0 {
			want = 10000
		}
		n := randomShape(3, sh.hidden, sh.buckets)
		rng := rand.New(rand.NewPCG(10, 11))
		buckets := map[int]bool{}
		for positions := 0; positions < want; {
			p := chess.NewPosition()
			var vec, port Accumulator
			setAVX2(true)
			n.Refresh(&vec, p)
			setAVX2(false)
			n.Refresh(&port, p)
			var u chess.Undo
			for ply := 0; ply < 160 && positions < want; ply++ {
				var ml chess.MoveList
				if p.GenerateLegal(&ml); ml.N == 0 {
					break
				}
				m := ml.Moves[rng.IntN(ml.N)]
				var nv, np Accumulator
				setAVX2(true)
				n.Update(&nv, &vec, m)
				setAVX2(false)
				n.Update(&np, &port, m)
				p.MakeMove(m, &u)
				setAVX2(true)
				var fresh Accumulator
				n.Refresh(&fresh, p)
				sv := n.Evaluate(&nv, p)
				setAVX2(false)
				sp := n.Evaluate(&np, p)
				if nv != np || fresh != np || sv != sp {
					t.Fatalf("%d×%d, %s: the vectorised path differs (score %d, portable %d)", sh.hidden, sh.buckets, p.FEN(), sv, sp)
				}
				buckets[OutputBucket(p.Occupied().Count(), n.Buckets)] = true
				vec, port = nv, np
				positions++
			}
		}
		if len(buckets) < min(n.Buckets, 5) {
			t.Errorf("%d×%d: the games reached only %d buckets", sh.hidden, sh.buckets, len(buckets))
		}
	}
}

// BenchmarkUpdatePortable and BenchmarkEvaluatePortable time the portable
// loops on a machine that has AVX2 (BenchmarkUpdate and BenchmarkEvaluate
// time what runs).
func BenchmarkUpdatePortable(b *testing.B) {
	src, a, s := make([]int16, 256), make([]int16, 256), make([]int16, 256)
	dst := make([]int16, 256)
	for b.Loop() {
		for range 2 { // both perspectives, as Update
			copy(dst, src)
			addColumn(dst, a)
			subColumn(dst, s)
		}
	}
}

func BenchmarkEvaluatePortable(b *testing.B) {
	v, w := make([]int16, 256), make([]int16, 256)
	for b.Loop() {
		_ = screluDot(v, w) + screluDot(v, w)
	}
}
