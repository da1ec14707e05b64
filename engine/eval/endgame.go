package eval

import "github.com/squall-chess/squall/engine/chess"

// KnownWin is the base score of a won endgame recognised by knowledge
// (KPK won, KBNK, KQK, KRK …): clearly winning, yet below any mate score,
// with a drive term on top so that the search makes progress.
const KnownWin = 1000

// Piece values in pawns for endgame classification (not tuned: they only
// sort material into classes).
var classValue = [7]int{chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9}

func nonPawn(p *chess.Position, c chess.Color) int {
	v := 0
	for t := chess.Knight; t <= chess.Queen; t++ {
		v += classValue[t] * p.Pieces(c, t).Count()
	}
	return v
}

// special returns the score from White's view when endgame knowledge
// decides it: dead draws, KPK by bitbase, and the mating drives of KBNK and
// king + major piece(s) against a bare king.
func (e *Evaluator) special(p *chess.Position) (int, bool) {
	if p.InsufficientMaterial() {
		return 0, true
	}
	pawns := p.ByType(chess.Pawn)
	for strong := chess.White; strong <= chess.Black; strong++ {
		weak := strong.Other()
		if p.ByColor(weak) != p.Pieces(weak, chess.King) {
			continue // the weak side must have a bare king
		}
		sign := 1
		if strong == chess.Black {
			sign = -1
		}
		sk, wk := p.KingSquare(strong), p.KingSquare(weak)
		if pawns != 0 {
			if p.ByColor(strong) == p.Pieces(strong, chess.King)|pawns && !pawns.Several() {
				pawn := pawns.LSB()
				if KPKWin(strong, sk, wk, pawn, p.SideToMove()) {
					// 10 a rank keeps even a pawn on the 7th (KnownWin+60)
					// below the weakest KQK (KnownWin+120), so promoting
					// always looks like progress.
					return sign * (KnownWin + 10*pawn.RelativeRank(strong)), true
				}
				return 0, true
			}
			return 0, false
		}
		n := p.Pieces(strong, chess.Knight).Count()
		b := p.Pieces(strong, chess.Bishop)
		major := p.Pieces(strong, chess.Rook) | p.Pieces(strong, chess.Queen)
		close := 10 * (7 - distance[sk][wk])
		switch {
		case major != 0 || (b&chess.LightSquares != 0 && b&chess.DarkSquares != 0) || (b != 0 && n > 0 && nonPawn(p, strong) > 6):
			// Drive the bare king to the edge, bring the king closer.
			return sign * (KnownWin + 10*nonPawn(p, strong) + 40*centreDistance(wk) + close), true
		case b.Count() == 1 && n == 1:
			return sign * (KnownWin + kbnDrive(wk, b.LSB()) + close), true
		default: // lone minors, two knights: no forced mate
			return 0, true
		}
	}
	return 0, false
}

// centreDistance is the Manhattan distance from s to the centre, 0 … 6.
func centreDistance(s chess.Square) int {
	f, r := s.File(), s.Rank()
	return max(3-f, f-4) + max(3-r, r-4)
}

// kbnDrive rewards pushing the bare king into a corner of the bishop's
// colour, the only place KBNK mates.
func kbnDrive(k, bishop chess.Square) int {
	corners := [2]chess.Square{chess.A1, chess.H8} // dark corners
	if chess.LightSquares.Has(bishop) {
		corners = [2]chess.Square{chess.A8, chess.H1}
	}
	d := 14
	for _, c := range corners {
		d = min(d, abs(k.File()-c.File())+abs(k.Rank()-c.Rank()))
	}
	return 30*(14-d) + 10*centreDistance(k)
}

// scale returns the endgame scale factor (ScaleNormal = as is, 0 = dead
// draw) for the side the endgame score favours: pawnless endings without a
// decisive material edge (KRkr, KRBkr, KRNkr, KNNk, KRkb, KRkn …), opposite
// coloured bishops, and the wrong bishop with rook pawns.
func (e *Evaluator) scale(p *chess.Position, eg int) int {
	strong := chess.White
	if eg < 0 {
		strong = chess.Black
	}
	weak := strong.Other()
	sp, wp := p.Pieces(strong, chess.Pawn), p.Pieces(weak, chess.Pawn)
	snp, wnp := nonPawn(p, strong), nonPawn(p, weak)
	if sp == 0 {
		switch {
		case snp <= 3: // a lone minor cannot win
			return 0
		case snp == 6 && p.Pieces(strong, chess.Knight).Count() == 2 && wnp == 0:
			return 0 // two knights cannot force mate
		case snp-wnp <= 3:
			return pawnlessScale // a minor piece up is not enough without pawns
		}
	}
	sb, wb := p.Pieces(strong, chess.Bishop), p.Pieces(weak, chess.Bishop)
	if snp == 3 && sb != 0 && sp != 0 {
		// Rook pawns only, on one file, with the bishop of the wrong
		// colour for the promotion square and the defending king there.
		for _, f := range [2]int{0, 7} {
			if sp&^chess.FileBB(f) != 0 {
				continue
			}
			promo := relative(strong, chess.MakeSquare(f, 7))
			if chess.LightSquares.Has(promo) != chess.LightSquares.Has(sb.LSB()) &&
				distance[p.KingSquare(weak)][promo] <= 1 {
				return 0
			}
		}
	}
	if sb.Count() == 1 && wb.Count() == 1 &&
		chess.LightSquares.Has(sb.LSB()) != chess.LightSquares.Has(wb.LSB()) {
		if snp == 3 && wnp == 3 {
			return 22 // opposite bishops alone: famously drawish
		}
		return 46
	}
	if sp.Count() == 1 && wp == 0 && snp == wnp && snp > 0 {
		return 40 // one pawn up with equal pieces: often held (KRPkr)
	}
	return ScaleNormal
}

// pawnlessScale is the scale of a pawnless ending without a decisive
// material edge (KRkr, KRkn, KRBkr …): all but drawn.
const pawnlessScale = 8

// Knowledge corrects v, another evaluation's score of p from the side to
// move's view (the network's), by the endgame knowledge a network trained
// on games seldom sees: where special decides the position its score
// stands instead of v; where the side v favours cannot win (a lone minor
// piece, two knights, a bishop of the wrong colour for its rook pawns)
// the score is a draw, and a pawnless ending without a decisive material
// edge is scaled as the hand-crafted evaluation scales it. The finer
// scale factors (opposite bishops, one pawn up) are left out: the network
// learnt them with its data.
func (e *Evaluator) Knowledge(p *chess.Position, v int) int {
	// Each case below has a side without rook or queen (a bare king, a
	// lone minor piece) or without pawns: with both sides holding both,
	// the score stands after a few ANDs — this runs at every node.
	heavy := p.ByType(chess.Rook) | p.ByType(chess.Queen)
	white, black := p.ByColor(chess.White), p.ByColor(chess.Black)
	if white&heavy != 0 && black&heavy != 0 && white&p.ByType(chess.Pawn) != 0 && black&p.ByType(chess.Pawn) != 0 {
		return v
	}
	sign := 1
	if p.SideToMove() == chess.Black {
		sign = -1
	}
	if w, ok := e.special(p); ok {
		return sign * w
	}
	if v != 0 {
		if f := e.scale(p, sign*v); f <= pawnlessScale {
			return v * f / ScaleNormal
		}
	}
	return v
}
