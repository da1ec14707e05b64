package nnue

import (
	"math/rand/v2"
	"testing"
)

// TestAVX2MatchesPortable: the AVX2 loops give the portable loops' results
// bit for bit, over the whole int16 range (wrapping sums included) and
// every activation from below 0 to above QA.
func TestAVX2MatchesPortable(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 path on this machine or build (the portable loops are what runs)")
	}
	rng := rand.New(rand.NewPCG(8, 9))
	vec := func(lo, hi int) *[Hidden]int16 {
		var v [Hidden]int16
		for i := range v {
			v[i] = int16(lo + rng.IntN(hi-lo+1))
		}
		return &v
	}
	for range 2000 {
		src, a1, a2, s1, s2 := vec(-32768, 32767), vec(-32768, 32767), vec(-32768, 32767), vec(-32768, 32767), vec(-32768, 32767)
		var got, want [Hidden]int16
		want = *src
		addColumn(&want, a1)
		subColumn(&want, s1)
		if addSubAVX2(&got, src, a1, s1); got != want {
			t.Fatal("addSubAVX2 differs from the portable loops")
		}
		subColumn(&want, s2)
		if addSubSubAVX2(&got, src, a1, s1, s2); got != want {
			t.Fatal("addSubSubAVX2 differs")
		}
		addColumn(&want, a2)
		if addAddSubSubAVX2(&got, src, a1, a2, s1, s2); got != want {
			t.Fatal("addAddSubSubAVX2 differs")
		}
		v := vec(-600, 600)
		if rng.IntN(4) == 0 {
			v = vec(-32768, 32767)
		}
		w := vec(-MaxOutputWeight, MaxOutputWeight)
		if x, y := screluDotAVX2(v, w), screluDot(v, w); x != y {
			t.Fatalf("screluDotAVX2 %d, portable %d", x, y)
		}
	}
}

// BenchmarkUpdatePortable and BenchmarkEvaluatePortable time the portable
// loops on a machine that has AVX2 (BenchmarkUpdate and BenchmarkEvaluate
// time what runs).
func BenchmarkUpdatePortable(b *testing.B) {
	src, a, s := new([Hidden]int16), new([Hidden]int16), new([Hidden]int16)
	var dst [Hidden]int16
	for b.Loop() {
		for range 2 { // both perspectives, as Update
			dst = *src
			addColumn(&dst, a)
			subColumn(&dst, s)
		}
	}
}

func BenchmarkEvaluatePortable(b *testing.B) {
	v, w := new([Hidden]int16), new([Hidden]int16)
	for b.Loop() {
		_ = screluDot(v, w) + screluDot(v, w)
	}
}
