package nnue

import (
	"slices"

	"github.com/squall-chess/squall/engine/chess"
)

// Accumulator is the first layer's output before activation, for each
// side's perspective (indexed by chess.Color): the first Net.Hidden lanes
// of each half are the network's, the rest unused. Fixed-size, so that the
// search keeps one per ply without allocating.
type Accumulator struct {
	Values [2][MaxHidden]int16
}

// Refresh computes acc from scratch for position p.
func (n *Net) Refresh(acc *Accumulator, p *chess.Position) {
	h := n.Hidden
	for persp := chess.White; persp <= chess.Black; persp++ {
		v := acc.Values[persp][:h]
		copy(v, n.FeatureBias)
		for occ := p.Occupied(); occ != 0; {
			sq := occ.PopLSB()
			w := n.Column(Feature(persp, p.Piece(sq), sq))
			if useAVX2 {
				addSubAVX2(&v[0], &v[0], &w[0], &zeroColumn[0], h) // v += w: the loop reads each lane before it writes it
				continue
			}
			addColumn(v, w)
		}
	}
}

// Same reports whether a and b hold the same accumulator for n (their
// unused lanes aside).
func (n *Net) Same(a, b *Accumulator) bool {
	for persp := range a.Values {
		if !slices.Equal(a.Values[persp][:n.Hidden], b.Values[persp][:n.Hidden]) {
			return false
		}
	}
	return true
}

// Update sets to to from with move m applied: the position of from is
// the one m is played in. Every kind of move changes at most four
// features (castling: king and rook; a capture: the captured piece), so
// this is the make step of the search; a copy per ply makes unmake free.
func (n *Net) Update(to, from *Accumulator, m chess.Move) {
	pc := m.Piece()
	us := pc.Color()
	var add, sub [2]feature
	na, ns := 0, 0
	switch {
	case m.IsCastle():
		rook := chess.MakePiece(us, chess.Rook)
		sub[0], sub[1] = feature{pc, m.From()}, feature{rook, m.To()}
		add[0], add[1] = feature{pc, m.KingTo()}, feature{rook, m.RookTo()}
		na, ns = 2, 2
	default:
		sub[0], ns = feature{pc, m.From()}, 1
		landed := pc
		if promo := m.Promotion(); promo != chess.NoPieceType {
			landed = chess.MakePiece(us, promo)
		}
		add[0], na = feature{landed, m.To()}, 1
		if c := m.Captured(); c != chess.NoPiece {
			sq := m.To()
			if m.IsEnPassant() {
				sq ^= 8 // the pawn taken stands beside the one that takes
			}
			sub[1], ns = feature{c, sq}, 2
		}
	}
	h := n.Hidden
	for persp := chess.White; persp <= chess.Black; persp++ {
		dst, src := to.Values[persp][:h], from.Values[persp][:h]
		col := func(f feature) *int16 { return &n.FeatureWeights[Feature(persp, f.pc, f.sq)*h] }
		if useAVX2 {
			// One pass over the accumulator for each kind of move.
			switch {
			case na == 1 && ns == 1:
				addSubAVX2(&dst[0], &src[0], col(add[0]), col(sub[0]), h)
			case na == 1:
				addSubSubAVX2(&dst[0], &src[0], col(add[0]), col(sub[0]), col(sub[1]), h)
			default:
				addAddSubSubAVX2(&dst[0], &src[0], col(add[0]), col(add[1]), col(sub[0]), col(sub[1]), h)
			}
			continue
		}
		copy(dst, src)
		for _, f := range add[:na] {
			addColumn(dst, n.Column(Feature(persp, f.pc, f.sq)))
		}
		for _, f := range sub[:ns] {
			subColumn(dst, n.Column(Feature(persp, f.pc, f.sq)))
		}
	}
}

// zeroColumn is subtracted where a loop of Update serves Refresh.
var zeroColumn [MaxHidden]int16

type feature struct {
	pc chess.Piece
	sq chess.Square
}

func addColumn(v, w []int16) {
	w = w[:len(v)]
	for i := range v {
		v[i] += w[i]
	}
}

func subColumn(v, w []int16) {
	w = w[:len(v)]
	for i := range v {
		v[i] -= w[i]
	}
}
