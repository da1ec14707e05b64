package eval

import (
	"sync"

	"github.com/squall-chess/squall/engine/chess"
)

// The KPK bitbase: for every placement of White king, Black king and White
// pawn (files a–d, ranks 2–7; other positions are mirrored onto these) and
// either side to move, whether White wins. It is built once, on first use,
// by retrograde iteration over 196,608 positions (a few tens of ms).
var (
	kpkOnce sync.Once
	kpkWin  []uint64 // bit set: White wins
)

const kpkSize = 2 * 24 * 64 * 64

func kpkIndex(stm chess.Color, wk, bk, pawn chess.Square) int {
	pidx := (pawn.Rank()-1)*4 + pawn.File()
	return ((int(stm)*24+pidx)*64+int(wk))*64 + int(bk)
}

// KPKWin reports whether the side with the pawn wins the king-and-pawn
// against king ending, with perfect play, for the given side to move.
func KPKWin(strong chess.Color, strongKing, weakKing, pawn chess.Square, stm chess.Color) bool {
	kpkOnce.Do(buildKPK)
	if strong == chess.Black {
		strongKing, weakKing, pawn = strongKing.Flip(), weakKing.Flip(), pawn.Flip()
		stm = stm.Other()
	}
	if pawn.File() > 3 {
		strongKing, weakKing, pawn = strongKing^7, weakKing^7, pawn^7
	}
	i := kpkIndex(stm, strongKing, weakKing, pawn)
	return kpkWin[i/64]&(1<<(i%64)) != 0
}

const (
	kpkUnknown = iota
	kpkDraw
	kpkWon
	kpkInvalid
)

func buildKPK() {
	res := make([]uint8, kpkSize)
	// Classify the positions that are decided at once.
	for stm := chess.White; stm <= chess.Black; stm++ {
		for ps := 0; ps < 24; ps++ {
			pawn := chess.MakeSquare(ps%4, ps/4+1)
			for wk := chess.Square(0); wk < 64; wk++ {
				for bk := chess.Square(0); bk < 64; bk++ {
					i := kpkIndex(stm, wk, bk, pawn)
					switch {
					case wk == bk || wk == pawn || bk == pawn || distance[wk][bk] <= 1,
						stm == chess.White && chess.PawnAttacks(chess.White, pawn).Has(bk):
						res[i] = kpkInvalid
					case stm == chess.White && pawn.Rank() == 6 && wk != pawn+8 && bk != pawn+8 &&
						(distance[bk][pawn+8] > 1 || distance[wk][pawn+8] == 1):
						res[i] = kpkWon // promotes and the queen cannot be taken
					case stm == chess.Black && distance[bk][pawn] == 1 && distance[wk][pawn] > 1:
						res[i] = kpkDraw // the pawn falls
					case stm == chess.Black && blackKingMoves(wk, bk, pawn) == 0:
						res[i] = kpkDraw // stalemate (Black cannot be in check: no mate in KPK before promotion)
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for stm := chess.White; stm <= chess.Black; stm++ {
			for ps := 0; ps < 24; ps++ {
				pawn := chess.MakeSquare(ps%4, ps/4+1)
				for wk := chess.Square(0); wk < 64; wk++ {
					for bk := chess.Square(0); bk < 64; bk++ {
						i := kpkIndex(stm, wk, bk, pawn)
						if res[i] != kpkUnknown {
							continue
						}
						var r uint8
						if stm == chess.White {
							r = kpkWhite(res, wk, bk, pawn)
						} else {
							r = kpkBlack(res, wk, bk, pawn)
						}
						if r != kpkUnknown {
							res[i] = r
							changed = true
						}
					}
				}
			}
		}
	}
	kpkWin = make([]uint64, kpkSize/64)
	for i, r := range res {
		if r == kpkWon {
			kpkWin[i/64] |= 1 << (i % 64)
		}
	}
}

// blackKingMoves is the Black king's legal moves: not next to the White
// king, not onto a square the pawn attacks (taking the pawn is allowed when
// the White king does not guard it).
func blackKingMoves(wk, bk, pawn chess.Square) chess.Bitboard {
	m := chess.KingAttacks(bk) &^ chess.KingAttacks(wk) &^ chess.PawnAttacks(chess.White, pawn)
	return m
}

// kpkWhite: White to move wins if some move reaches a Black-to-move win;
// it is a draw once every move reaches a draw.
func kpkWhite(res []uint8, wk, bk, pawn chess.Square) uint8 {
	var succ [10]int
	n := 0
	for m := chess.KingAttacks(wk) &^ chess.KingAttacks(bk); m != 0; {
		if s := m.PopLSB(); s != pawn {
			succ[n] = kpkIndex(chess.Black, s, bk, pawn)
			n++
		}
	}
	if pawn.Rank() < 6 && pawn+8 != wk && pawn+8 != bk {
		succ[n] = kpkIndex(chess.Black, wk, bk, pawn+8)
		n++
		if pawn.Rank() == 1 && pawn+16 != wk && pawn+16 != bk {
			succ[n] = kpkIndex(chess.Black, wk, bk, pawn+16)
			n++
		}
	}
	all := true
	for _, i := range succ[:n] {
		switch res[i] {
		case kpkWon:
			return kpkWon
		case kpkUnknown:
			all = false
		}
	}
	if all {
		return kpkDraw
	}
	return kpkUnknown
}

// kpkBlack: Black to move draws if some move reaches a draw; White wins
// once every Black move reaches a White win.
func kpkBlack(res []uint8, wk, bk, pawn chess.Square) uint8 {
	all := true
	for m := blackKingMoves(wk, bk, pawn); m != 0; {
		s := m.PopLSB()
		if s == pawn {
			return kpkDraw
		}
		switch res[kpkIndex(chess.White, wk, s, pawn)] {
		case kpkDraw:
			return kpkDraw
		case kpkUnknown:
			all = false
		}
	}
	if all {
		return kpkWon
	}
	return kpkUnknown
}
