package chess

// Zobrist keys, drawn at init from a fixed-seed generator so keys are the
// same in every run (bench node counts depend on them).
var (
	zobPiece  [16][64]uint64
	zobCastle [16]uint64
	zobEP     [8]uint64
	zobSide   uint64
)

func init() {
	rng := xorshift64star(0x9e3779b97f4a7c15)
	for pc := range zobPiece {
		for s := range zobPiece[pc] {
			zobPiece[pc][s] = rng.next()
		}
		// Sixteen draws that once made a material key nobody read (issue
		// 34): still drawn, so that every other key, and with them the
		// hash table's collisions and bench's node count, stay as they were.
		for range 16 {
			rng.next()
		}
	}
	// Castling keys are built from one key per right so that any set of
	// rights hashes as the XOR of its members.
	var single [4]uint64
	for i := range single {
		single[i] = rng.next()
	}
	for cr := range zobCastle {
		for i := 0; i < 4; i++ {
			if cr&(1<<i) != 0 {
				zobCastle[cr] ^= single[i]
			}
		}
	}
	for f := range zobEP {
		zobEP[f] = rng.next()
	}
	zobSide = rng.next()
}

// xorshift64star is a tiny deterministic PRNG: the Zobrist keys, and the
// magic search (magic_test.go).
type xorshift64star uint64

func (x *xorshift64star) next() uint64 {
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	return uint64(*x) * 2685821657736338717
}
