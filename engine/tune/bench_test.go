package tune

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/squall-chess/squall/engine/eval"
)

// BenchmarkEpoch times one gradient pass over 100,000 positions (scale by
// 10 for the 1 M-position target).
func BenchmarkEpoch(b *testing.B) {
	rng := rand.New(rand.NewSource(9))
	var sb strings.Builder
	for _, p := range randomPositions(&testing.T{}, 100000, rng) {
		sb.WriteString(epdFields(p.FEN()) + " c9 \"1/2-1/2\";\n")
	}
	ds, err := Load(strings.NewReader(sb.String()), "bench")
	if err != nil {
		b.Fatal(err)
	}
	seed := eval.SeedWeights()
	p := FromWeights(&seed)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ds.gradient(ds.Samples, p, 1)
	}
}
