package tablebase

// Index computation: a position (a list of piece squares in the order the
// table's header gives) maps to an index into the table. Symmetry reduces the
// index space: pawnless tables put the first piece in the a1-d1-d4 triangle
// (mirroring files, ranks and the a1-h8 diagonal), pawn tables mirror files
// so the leading pawn is on files a-d, and the remaining pieces of one kind
// are encoded as a combination (binomial number system).

// maxPieces is the largest number of pieces Syzygy tables are made for.
const maxPieces = 7

var (
	binomial [maxPieces][64]uint64 // binomial[k][n] = C(n, k+1)
	// pawnIdx[k][j] and pawnFactor[k][file]: index offsets and sizes for k+1
	// leading pawns with the first on flap-ordered square j.
	pawnIdx    [maxPieces - 1][24]uint64
	pawnFactor [maxPieces - 1][4]uint64

	triangle [64]uint8 // a1-d1-d4 triangle: b1..d3 off the diagonal 0..5, a1..d4 6..9
	lower    [64]uint8 // below the a1-h8 diagonal 0..27, on it 28..35
	diagIdx  [64]uint8 // a1-h8 diagonal 0..7, h1-a8 diagonal 8..15
	flap     [64]uint8 // pawn square to 6*file+rank-1, files mirrored to a-d
	ptwist   [64]uint8 // ordering of the non-leading pawns
	kkIndex  [10][64]int32
)

// offDiag is the side of the a1-h8 diagonal a square is on: 0 on it,
// 1 above (rank > file), -1 below.
func offDiag(s int) int {
	r, f := s>>3, s&7
	switch {
	case r > f:
		return 1
	case r < f:
		return -1
	}
	return 0
}

func flipDiag(s int) int { return ((s >> 3) | (s << 3)) & 63 }

func init() {
	for k := 0; k < maxPieces; k++ {
		for n := 0; n < 64; n++ {
			v := uint64(1)
			for i := 0; i <= k; i++ {
				if n-i <= 0 {
					v = 0
					break
				}
				v = v * uint64(n-i) / uint64(i+1)
			}
			binomial[k][n] = v
		}
	}
	// Triangle: off-diagonal squares b1 c1 d1 c2 d2 d3, then a1 b2 c3 d4,
	// replicated over the eight symmetric images.
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		if f > 3 {
			f = 7 - f
		}
		if r > 3 {
			r = 7 - r
		}
		if r > f {
			f, r = r, f
		}
		// now r <= f <= 3
		off := map[[2]int]uint8{{0, 1}: 0, {0, 2}: 1, {0, 3}: 2, {1, 2}: 3, {1, 3}: 4, {2, 3}: 5,
			{0, 0}: 6, {1, 1}: 7, {2, 2}: 8, {3, 3}: 9}
		triangle[s] = off[[2]int{r, f}]
	}
	n := uint8(0)
	for r := 0; r < 8; r++ {
		for f := r + 1; f < 8; f++ {
			lower[r*8+f] = n
			lower[f*8+r] = n
			n++
		}
	}
	for i := 0; i < 8; i++ {
		lower[i*9] = uint8(28 + i)
		diagIdx[i*9] = uint8(i)
		diagIdx[i*8+7-i] = uint8(8 + i) // h1, g2, ... a8
	}
	for s := 8; s < 56; s++ {
		f, r := s&7, s>>3
		mf := f
		if mf > 3 {
			mf = 7 - mf
		}
		flap[s] = uint8(6*mf + r - 1)
		t := 47 - 2*(r-1) - 12*mf
		if f > 3 {
			t--
		}
		ptwist[s] = uint8(t)
	}
	for k := 0; k < maxPieces-1; k++ {
		var sum uint64
		j := 0
		for file := 0; file < 4; file++ {
			sum = 0
			for ; j < 6*(file+1); j++ {
				pawnIdx[k][j] = sum
				if k == 0 {
					sum++
				} else {
					sq := 8*(1+j%6) + j/6
					sum += binomial[k-1][ptwist[sq]]
				}
			}
			pawnFactor[k][file] = sum
		}
	}
	initKK()
}

// initKK numbers the 462 placements of two kings with the first in the
// a1-d1-d4 triangle (and, if the first is on the diagonal, the second not
// above it); placements with both on the diagonal come last.
func initKK() {
	for i := range kkIndex {
		for j := range kkIndex[i] {
			kkIndex[i][j] = -1
		}
	}
	code := int32(0)
	type pair struct{ t, s int }
	var both []pair
	for t := 0; t < 10; t++ {
		for s1 := 0; s1 < 64; s1++ {
			if s1&7 > 3 || s1>>3 > 3 || s1>>3 > s1&7 || int(triangle[s1]) != t {
				continue
			}
			for s2 := 0; s2 < 64; s2++ {
				df, dr := s1&7-s2&7, s1>>3-s2>>3
				if df >= -1 && df <= 1 && dr >= -1 && dr <= 1 {
					continue // kings touch or coincide
				}
				if offDiag(s1) == 0 && offDiag(s2) > 0 {
					continue
				}
				if offDiag(s1) == 0 && offDiag(s2) == 0 {
					both = append(both, pair{t, s2})
					continue
				}
				kkIndex[t][s2] = code
				code++
			}
		}
	}
	for _, p := range both {
		kkIndex[p.t][p.s] = code
		code++
	}
}

// encoding is how one table part (a side to move, and for pawn tables a
// file of the leading pawn) turns a position into an index.
type encoding struct {
	pieces [maxPieces]uint8  // piece codes in index order (1-6 white, 9-14 black)
	norm   [maxPieces]uint8  // group sizes, at each group's first position
	factor [maxPieces]uint64 // multiplier of each group
	size   uint64            // number of indices
}

// pivotFactor is the size of the leading group for encoding types 0 (three
// unique pieces) and 2 (the two kings).
var pivotFactor = [3]uint64{31332, 0, 462}

func (e *encoding) setNormPiece(num, encType int) {
	e.norm = [maxPieces]uint8{}
	if encType == 0 {
		e.norm[0] = 3
	} else {
		e.norm[0] = 2
	}
	for i := int(e.norm[0]); i < num; i += int(e.norm[i]) {
		for j := i; j < num && e.pieces[j] == e.pieces[i]; j++ {
			e.norm[i]++
		}
	}
}

func (e *encoding) factorsPiece(num, order, encType int) {
	n := 64 - int(e.norm[0])
	f := uint64(1)
	for i, k := int(e.norm[0]), 0; i < num || k == order; k++ {
		if k == order {
			e.factor[0] = f
			f *= pivotFactor[encType]
		} else {
			e.factor[i] = f
			f *= binomial[e.norm[i]-1][n]
			n -= int(e.norm[i])
			i += int(e.norm[i])
		}
	}
	e.size = f
}

func (e *encoding) setNormPawn(num int, pawns [2]int) {
	e.norm = [maxPieces]uint8{}
	e.norm[0] = uint8(pawns[0])
	if pawns[1] > 0 {
		e.norm[pawns[0]] = uint8(pawns[1])
	}
	for i := pawns[0] + pawns[1]; i < num; i += int(e.norm[i]) {
		for j := i; j < num && e.pieces[j] == e.pieces[i]; j++ {
			e.norm[i]++
		}
	}
}

func (e *encoding) factorsPawn(num, order, order2, file int) {
	i := int(e.norm[0])
	if order2 < 0x0f {
		i += int(e.norm[i])
	}
	n := 64 - i
	f := uint64(1)
	for k := 0; i < num || k == order || k == order2; k++ {
		switch {
		case k == order:
			e.factor[0] = f
			f *= pawnFactor[e.norm[0]-1][file]
		case k == order2:
			e.factor[e.norm[0]] = f
			f *= binomial[e.norm[e.norm[0]]-1][48-int(e.norm[0])]
		default:
			e.factor[i] = f
			f *= binomial[e.norm[i]-1][n]
			n -= int(e.norm[i])
			i += int(e.norm[i])
		}
	}
	e.size = f
}

// encodeGroups adds the combination index of each group from position i on.
func (e *encoding) encodeGroups(pos *[maxPieces]int, i, num int, idx uint64) uint64 {
	for i < num {
		t := int(e.norm[i])
		sortSquares(pos[i : i+t])
		var s uint64
		for m := i; m < i+t; m++ {
			p := pos[m]
			j := 0
			for l := 0; l < i; l++ {
				if p > pos[l] {
					j++
				}
			}
			s += binomial[m-i][p-j]
		}
		idx += s * e.factor[i]
		i += t
	}
	return idx
}

func sortSquares(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

// encodePiece is the index of a pawnless position; pos is modified.
func (e *encoding) encodePiece(pos *[maxPieces]int, num, encType int) uint64 {
	if pos[0]&4 != 0 {
		for i := 0; i < num; i++ {
			pos[i] ^= 7
		}
	}
	if pos[0]&0x20 != 0 {
		for i := 0; i < num; i++ {
			pos[i] ^= 0x38
		}
	}
	lead := 2
	if encType == 0 {
		lead = 3
	}
	for i := 0; i < lead; i++ {
		if d := offDiag(pos[i]); d != 0 {
			if d > 0 {
				for j := 0; j < num; j++ {
					pos[j] = flipDiag(pos[j])
				}
			}
			break
		}
	}
	var idx uint64
	if encType == 0 {
		i := b2i(pos[1] > pos[0])
		j := b2i(pos[2] > pos[0]) + b2i(pos[2] > pos[1])
		switch {
		case offDiag(pos[0]) != 0:
			idx = uint64(int(triangle[pos[0]])*63*62 + (pos[1]-i)*62 + (pos[2] - j))
		case offDiag(pos[1]) != 0:
			idx = uint64(6*63*62 + int(diagIdx[pos[0]])*28*62 + int(lower[pos[1]])*62 + pos[2] - j)
		case offDiag(pos[2]) != 0:
			idx = uint64(6*63*62 + 4*28*62 + int(diagIdx[pos[0]])*7*28 + (int(diagIdx[pos[1]])-i)*28 + int(lower[pos[2]]))
		default:
			idx = uint64(6*63*62 + 4*28*62 + 4*7*28 + int(diagIdx[pos[0]])*7*6 + (int(diagIdx[pos[1]])-i)*6 + (int(diagIdx[pos[2]]) - j))
		}
	} else {
		k := kkIndex[triangle[pos[0]]][pos[1]]
		if k < 0 {
			k = 0 // kings adjacent: not a legal position; any index is fine
		}
		idx = uint64(k)
	}
	return e.encodeGroups(pos, lead, num, idx*e.factor[0])
}

// leadingPawnFile moves the leading pawn (lowest flap) to pos[0] and returns
// its file folded to 0-3.
func leadingPawnFile(pos *[maxPieces]int, leadPawns int) int {
	for i := 1; i < leadPawns; i++ {
		if flap[pos[0]] > flap[pos[i]] {
			pos[0], pos[i] = pos[i], pos[0]
		}
	}
	f := pos[0] & 7
	if f > 3 {
		f = 7 - f
	}
	return f
}

// encodePawn is the index of a position with pawns; pos is modified.
func (e *encoding) encodePawn(pos *[maxPieces]int, num int, pawns [2]int) uint64 {
	if pos[0]&4 != 0 {
		for i := 0; i < num; i++ {
			pos[i] ^= 7
		}
	}
	for i := 1; i < pawns[0]; i++ {
		for j := i + 1; j < pawns[0]; j++ {
			if ptwist[pos[i]] < ptwist[pos[j]] {
				pos[i], pos[j] = pos[j], pos[i]
			}
		}
	}
	t := pawns[0] - 1
	idx := pawnIdx[t][flap[pos[0]]]
	for i := t; i > 0; i-- {
		idx += binomial[t-i][ptwist[pos[i]]]
	}
	idx *= e.factor[0]
	i := pawns[0]
	if end := i + pawns[1]; end > i {
		sortSquares(pos[i:end])
		var s uint64
		for m := i; m < end; m++ {
			p := pos[m]
			j := 0
			for k := 0; k < i; k++ {
				if p > pos[k] {
					j++
				}
			}
			s += binomial[m-i][p-j-8]
		}
		idx += s * e.factor[i]
		i = end
	}
	return e.encodeGroups(pos, i, num, idx)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
