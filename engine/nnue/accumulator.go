package nnue

import "github.com/squall-chess/squall/engine/chess"

// Accumulator is the first layer's output before activation, for each
// side's perspective (indexed by chess.Color).
type Accumulator struct {
	Values [2][Hidden]int16
}

// Refresh computes acc from scratch for position p.
func (n *Net) Refresh(acc *Accumulator, p *chess.Position) {
	for persp := chess.White; persp <= chess.Black; persp++ {
		v := &acc.Values[persp]
		*v = n.FeatureBias
		for occ := p.Occupied(); occ != 0; {
			sq := occ.PopLSB()
			w := &n.FeatureWeights[Feature(persp, p.Piece(sq), sq)]
			if useAVX2 {
				addSubAVX2(v, v, w, &zeroColumn) // v += w: the loop reads each lane before it writes it
				continue
			}
			addColumn(v, w)
		}
	}
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
	for persp := chess.White; persp <= chess.Black; persp++ {
		dst, src := &to.Values[persp], &from.Values[persp]
		col := func(f feature) *[Hidden]int16 { return &n.FeatureWeights[Feature(persp, f.pc, f.sq)] }
		if useAVX2 {
			// One pass over the accumulator for each kind of move.
			switch {
			case na == 1 && ns == 1:
				addSubAVX2(dst, src, col(add[0]), col(sub[0]))
			case na == 1:
				addSubSubAVX2(dst, src, col(add[0]), col(sub[0]), col(sub[1]))
			default:
				addAddSubSubAVX2(dst, src, col(add[0]), col(add[1]), col(sub[0]), col(sub[1]))
			}
			continue
		}
		*dst = *src
		for _, f := range add[:na] {
			addColumn(dst, col(f))
		}
		for _, f := range sub[:ns] {
			subColumn(dst, col(f))
		}
	}
}

// zeroColumn is subtracted where a loop of Update serves Refresh.
var zeroColumn [Hidden]int16

type feature struct {
	pc chess.Piece
	sq chess.Square
}

func addColumn(v, w *[Hidden]int16) {
	for i := range v {
		v[i] += w[i]
	}
}

func subColumn(v, w *[Hidden]int16) {
	for i := range v {
		v[i] -= w[i]
	}
}
