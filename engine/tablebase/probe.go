package tablebase

import (
	"math/bits"

	"github.com/squall-chess/squall/engine/chess"
)

// Probe results of the table layer.
const (
	probeFail      = 0 // no table, or it is unreadable
	probeOK        = 1
	probeZeroing   = 2 // WDL: a capture (or en passant) is the best move
	probeOtherSide = 3 // DTZ: the table holds only the other side to move
)

// probeTable looks p up in its WDL table (dtz false) or DTZ table (dtz
// true, with wdl the position's WDL value). It returns the raw WDL value
// (-2..2) or the DTZ magnitude in plies before the caller's adjustment.
func (tb *Tablebase) probeTable(p *chess.Position, dtz bool, wdl int) (int, int) {
	key, _ := positionKeys(p)
	if key == 0 {
		return 0, probeOK // bare kings
	}
	set := tb.wdl
	if dtz {
		set = tb.dtz
	}
	t := set[key]
	if t == nil || t.load() != nil {
		return 0, probeFail
	}
	white := p.SideToMove() == chess.White
	var cmirror uint8
	mirror, bside := 0, 0
	if t.mat.symmetric() {
		if !white {
			cmirror, mirror = 8, 0x38
		}
	} else if key != t.key {
		cmirror, mirror = 8, 0x38
		bside = b2i(white)
	} else {
		bside = b2i(!white)
	}
	num := t.mat.num
	var pos [maxPieces]int
	var pt *part
	i := 0
	if !t.mat.hasPawns() {
		pt = &t.parts[0][bside]
		if dtz {
			pt = &t.parts[0][0]
			if int(pt.flags&1) != bside && !t.mat.symmetric() {
				return 0, probeOtherSide
			}
		} else if bside == 1 && !t.split {
			return 0, probeFail
		}
	} else {
		lead := t.parts[0][0].enc.pieces[0] ^ cmirror
		bb := uint64(p.Pieces(chess.Color(lead>>3), chess.PieceType(lead&7)))
		for ; bb != 0 && i < num; bb &= bb - 1 {
			pos[i] = bits.TrailingZeros64(bb) ^ mirror
			i++
		}
		f := leadingPawnFile(&pos, t.pawns[0])
		if dtz {
			pt = &t.parts[f][0]
			if int(pt.flags&1) != bside {
				return 0, probeOtherSide
			}
		} else {
			if bside == 1 && !t.split {
				return 0, probeFail
			}
			pt = &t.parts[f][bside]
		}
	}
	if pt.pairs == nil {
		return 0, probeFail
	}
	for i < num {
		pc := pt.enc.pieces[i] ^ cmirror
		bb := uint64(p.Pieces(chess.Color(pc>>3), chess.PieceType(pc&7)))
		if bb == 0 {
			return 0, probeFail
		}
		for ; bb != 0 && i < num; bb &= bb - 1 {
			pos[i] = bits.TrailingZeros64(bb) ^ mirror
			i++
		}
	}
	var idx uint64
	if t.mat.hasPawns() {
		idx = pt.enc.encodePawn(&pos, num, t.pawns)
	} else {
		idx = pt.enc.encodePiece(&pos, num, t.encType)
	}
	if idx >= pt.enc.size {
		return 0, probeFail
	}
	v, ok := pt.pairs.value(idx)
	if !ok {
		return 0, probeFail
	}
	if !dtz {
		if v > 4 {
			return 0, probeFail
		}
		return int(v) - 2, probeOK
	}
	res := int(v)
	if pt.flags&2 != 0 {
		at := pt.mapIdx[wdlToMap[wdl+2]]
		if t.dtzWide {
			at += 2 * res
			if at+2 > len(t.dtzMap) {
				return 0, probeFail
			}
			res = int(t.dtzMap[at]) | int(t.dtzMap[at+1])<<8
		} else {
			at += res
			if at >= len(t.dtzMap) {
				return 0, probeFail
			}
			res = int(t.dtzMap[at])
		}
	}
	// Tables store moves rather than plies where that loses nothing.
	if pt.flags&plyFlag[wdl+2] == 0 || wdl&1 != 0 {
		res *= 2
	}
	return res, probeOK
}

var (
	wdlToMap = [5]int{1, 3, 0, 2, 0}
	plyFlag  = [5]uint8{8, 0, 0, 0, 4} // DTZ flag: losses / wins stored in plies
	// wdlToDTZ is the DTZ of a position whose best move zeroes the counter.
	wdlToDTZ = [5]int{-1, -101, 0, 101, 1}
)

// probeAB is the WDL value of p within (alpha, beta), trying captures
// (which the WDL tables may not encode) before the table. En passant is
// left to ProbeWDL.
func (tb *Tablebase) probeAB(p *chess.Position, alpha, beta int) (int, int) {
	var ml chess.MoveList
	p.GenerateCaptures(&ml)
	for _, m := range ml.Moves[:ml.N] {
		if !m.IsCapture() || m.IsEnPassant() {
			continue
		}
		var u chess.Undo
		p.MakeMove(m, &u)
		v, st := tb.probeAB(p, -beta, -alpha)
		p.UnmakeMove(m, &u)
		if st == probeFail {
			return 0, probeFail
		}
		v = -v
		if v > alpha {
			if v >= beta {
				return v, probeZeroing
			}
			alpha = v
		}
	}
	v, st := tb.probeTable(p, false, 0)
	if st == probeFail {
		return 0, probeFail
	}
	if alpha >= v {
		if alpha > 0 {
			return alpha, probeZeroing
		}
		return alpha, probeOK
	}
	return v, probeOK
}

// probable reports whether p may be in the tables: few enough pieces and
// no castling rights (tables assume none).
func (tb *Tablebase) probable(p *chess.Position) bool {
	return tb != nil && p.Castling() == 0 && bits.OnesCount64(uint64(p.Occupied())) <= tb.maxPieces
}

// ProbeWDL returns the win/draw/loss value of p for the side to move
// (-2..2, see the package comment), ignoring the position's 50-move
// counter. ok is false when p has castling rights, too many pieces, or a
// needed table is missing or corrupt. p is changed during the probe and
// restored; it allocates nothing, for use inside search.
func (tb *Tablebase) ProbeWDL(p *chess.Position) (wdl int, ok bool) {
	if !tb.probable(p) {
		return 0, false
	}
	v, st := tb.probeWDL(p)
	return v, st != probeFail
}

// probeWDL adds en passant to probeAB: the tables assume no en-passant
// rights, so ep captures are tried here, and a position whose only legal
// move is an ep capture takes that capture's value.
func (tb *Tablebase) probeWDL(p *chess.Position) (int, int) {
	v, st := tb.probeAB(p, -2, 2)
	if p.EnPassant() == chess.NoSquare || st == probeFail {
		return v, st
	}
	var ml chess.MoveList
	p.GenerateCaptures(&ml)
	best := -3
	for _, m := range ml.Moves[:ml.N] {
		if !m.IsEnPassant() {
			continue
		}
		var u chess.Undo
		p.MakeMove(m, &u)
		v0, st0 := tb.probeAB(p, -2, 2)
		p.UnmakeMove(m, &u)
		if st0 == probeFail {
			return 0, probeFail
		}
		if -v0 > best {
			best = -v0
		}
	}
	if best == -3 {
		return v, st
	}
	if best >= v {
		return best, probeZeroing
	}
	if v == 0 && !hasNonEPMove(p) {
		return best, probeZeroing
	}
	return v, st
}

func hasNonEPMove(p *chess.Position) bool {
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves[:ml.N] {
		if !m.IsEnPassant() {
			return true
		}
	}
	return false
}

// ProbeDTZ returns the distance to zeroing of p in plies for the side to
// move (see the package comment): positive when winning, negative when
// losing, 0 when drawn. It may probe one ply ahead (DTZ tables hold one
// side to move). p is changed during the probe and restored.
func (tb *Tablebase) ProbeDTZ(p *chess.Position) (dtz int, ok bool) {
	if !tb.probable(p) {
		return 0, false
	}
	return tb.probeDTZ(p, false)
}

// probeDTZ is ProbeDTZ; ahead is set when p is a position one ply into the
// search of a position whose side to move the DTZ table does not hold.
func (tb *Tablebase) probeDTZ(p *chess.Position, ahead bool) (int, bool) {
	wdl, st := tb.probeWDL(p)
	if st == probeFail {
		return 0, false
	}
	if wdl == 0 {
		return 0, true
	}
	if st == probeZeroing {
		return wdlToDTZ[wdl+2], true
	}
	var ml chess.MoveList
	if wdl > 0 {
		// A pawn push that keeps the win zeroes at once (DTZ 1).
		p.GenerateLegal(&ml)
		for _, m := range ml.Moves[:ml.N] {
			if m.Piece().Type() != chess.Pawn || m.IsCapture() {
				continue
			}
			var u chess.Undo
			p.MakeMove(m, &u)
			v, st := tb.probeWDL(p)
			p.UnmakeMove(m, &u)
			if st == probeFail {
				return 0, false
			}
			if -v == wdl {
				return wdlToDTZ[wdl+2], true
			}
		}
	}
	d, st := tb.probeTable(p, true, wdl)
	if st == probeFail {
		return 0, false
	}
	if st == probeOK {
		if wdl > 0 {
			return wdlToDTZ[wdl+2] + d, true
		}
		return wdlToDTZ[wdl+2] - d, true
	}
	if ahead {
		// The table holds neither side to move, which only a corrupt
		// file can claim: searching on would recurse without end.
		return 0, false
	}
	// The table holds the other side to move: search one ply. Captures and
	// pawn moves were covered above (wins) or are no better than the
	// zeroing bound (losses).
	best := 1 << 20
	if wdl < 0 {
		best = wdlToDTZ[wdl+2]
	}
	if ml.N == 0 {
		p.GenerateLegal(&ml)
	}
	for _, m := range ml.Moves[:ml.N] {
		if m.IsCapture() || m.Piece().Type() == chess.Pawn {
			continue
		}
		var u chess.Undo
		p.MakeMove(m, &u)
		v, ok := tb.probeDTZ(p, true)
		p.UnmakeMove(m, &u)
		if !ok {
			return 0, false
		}
		v = -v
		if wdl > 0 {
			if v > 0 && v+1 < best {
				best = v + 1
			}
		} else if v-1 < best {
			best = v - 1
		}
	}
	return best, true
}
