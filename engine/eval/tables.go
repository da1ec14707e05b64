package eval

import "github.com/squall-chess/squall/engine/chess"

// Precomputed masks, filled once from their definitions below.
var (
	// forwardFile[c][s]: the squares ahead of s on its file, seen from c.
	forwardFile [2][64]chess.Bitboard
	// attackSpan[c][s]: the squares on the neighbouring files ahead of s,
	// where enemy pawns that could one day attack a pawn on s stand.
	attackSpan [2][64]chess.Bitboard
	// passedSpan[c][s]: forwardFile | attackSpan; a pawn with no enemy
	// pawn there is passed.
	passedSpan [2][64]chess.Bitboard
	// adjacentFiles[f]: the files beside file f.
	adjacentFiles [8]chess.Bitboard
	// distance[a][b]: king steps from a to b (Chebyshev distance).
	distance [64][64]int
)

func init() {
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentFiles[f] |= chess.FileBB(f - 1)
		}
		if f < 7 {
			adjacentFiles[f] |= chess.FileBB(f + 1)
		}
	}
	for s := chess.Square(0); s < 64; s++ {
		for t := chess.Square(0); t < 64; t++ {
			distance[s][t] = max(abs(s.File()-t.File()), abs(s.Rank()-t.Rank()))
		}
		var ahead [2]chess.Bitboard
		for r := s.Rank() + 1; r < 8; r++ {
			ahead[chess.White] |= chess.RankBB(r)
		}
		for r := 0; r < s.Rank(); r++ {
			ahead[chess.Black] |= chess.RankBB(r)
		}
		for c := chess.White; c <= chess.Black; c++ {
			forwardFile[c][s] = ahead[c] & chess.FileBB(s.File())
			attackSpan[c][s] = ahead[c] & adjacentFiles[s.File()]
			passedSpan[c][s] = forwardFile[c][s] | attackSpan[c][s]
		}
	}
}

// pawnPush is the square in front of s for colour c.
func pawnPush(c chess.Color, s chess.Square) chess.Square {
	if c == chess.White {
		return s + 8
	}
	return s - 8
}

// relative turns a square seen from c into White's view.
func relative(c chess.Color, s chess.Square) chess.Square {
	if c == chess.Black {
		return s.Flip()
	}
	return s
}
