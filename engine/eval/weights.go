package eval

import (
	"fmt"

	"github.com/squall-chess/squall/engine/chess"
)

// Weights is every tunable number of the evaluation, laid out as one flat
// vector so that the Texel tuner (engine/tune) can treat the evaluation as a
// linear function of features: each index below names one weight, and
// Evaluator.Features reports how often each weight was counted for White
// minus for Black. Even the non-linear king-danger curve is a block of
// weights, indexed by the attack units on the king zone, so it is fitted
// too. The values Squall plays with are in weights_gen.go, written by
// `squall tune`.
type Weights [NumWeights]Score

// Indices into Weights. A block of N weights starts at its constant and the
// next constant follows it.
const (
	WMaterial   = 0             // by piece type (Pawn … Queen)
	WPST        = WMaterial + 7 // type*32 + half-board square (rank*4 + file folded to a–d)
	WBishopPair = WPST + 7*32
	WImbalance  = WBishopPair + 1 // imbalance terms, see imbalance.go
	WMobility   = WImbalance + numImbalance
	// Mobility blocks: knight 0-8, bishop 0-13, rook 0-14, queen 0-27.
	WPawnIsolated      = WMobility + 9 + 14 + 15 + 28
	WPawnDoubled       = WPawnIsolated + 1
	WPawnBackward      = WPawnDoubled + 1
	WPawnBackwardOpen  = WPawnBackward + 1      // backward on a file with no enemy pawn
	WPawnPhalanx       = WPawnBackwardOpen + 1  // by relative rank
	WPawnSupported     = WPawnPhalanx + 8       // by relative rank
	WPawnCandidate     = WPawnSupported + 8     // by relative rank
	WPassed            = WPawnCandidate + 8     // by relative rank
	WPassedFree        = WPassed + 8            // path to queen not blocked nor attacked, by rank
	WPassedBlocked     = WPassedFree + 8        // stop square occupied, by rank
	WPassedOwnKing     = WPassedBlocked + 8     // × own king distance to stop square × rank factor
	WPassedEnemyKing   = WPassedOwnKing + 1     // × enemy king distance × rank factor
	WPassedUnstoppable = WPassedEnemyKing + 1   // runner the enemy king cannot catch, no enemy pieces
	WShield            = WPassedUnstoppable + 1 // shield pawn: [0] on rank 2, [1] on rank 3, [2] missing
	WStorm             = WShield + 3            // enemy pawn on a king-side file by distance to the king's rank (1..4)
	WKingOpenFile      = WStorm + 5
	WKingHalfOpenFile  = WKingOpenFile + 1
	WKingDanger        = WKingHalfOpenFile + 1 // by attack units, 0 … KingUnits-1
	WKnightOutpost     = WKingDanger + KingUnits
	WBishopOutpost     = WKnightOutpost + 1
	WBadBishop         = WBishopOutpost + 1 // × own pawns on the bishop's colour
	WRookOpen          = WBadBishop + 1
	WRookHalfOpen      = WRookOpen + 1
	WRookSeventh       = WRookHalfOpen + 1
	WBishopTrapped     = WRookSeventh + 1
	WRookTrapped       = WBishopTrapped + 1
	WHanging           = WRookTrapped + 1 // by type of the undefended, attacked piece
	WPawnThreat        = WHanging + 7     // pawn attacks a piece, by its type
	WMinorThreat       = WPawnThreat + 7  // knight/bishop attacks a piece, by its type
	WRookThreatQueen   = WMinorThreat + 7
	WSpace             = WRookThreatQueen + 1 // × safe central squares behind own pawns
	WTempo             = WSpace + 1
	// NumWeights counts the weights.
	NumWeights = WTempo + 1
)

// Mobility block starts, by piece type.
var mobilityStart = [7]int{chess.Knight: WMobility, chess.Bishop: WMobility + 9, chess.Rook: WMobility + 23, chess.Queen: WMobility + 38}

// KingUnits bounds the king-danger table: attack units beyond it use the
// last entry.
const KingUnits = 40

// Term groups a block of weights under one name for the breakdown.
type Term int

// The evaluation's terms, in the order `squall eval` prints them.
const (
	TermMaterial Term = iota
	TermPST
	TermImbalance
	TermMobility
	TermPawns
	TermPassed
	TermKingSafety
	TermPieces
	TermThreats
	TermSpace
	TermTempo
	NumTerms
)

var termNames = [NumTerms]string{"material", "piece-square", "imbalance", "mobility", "pawns", "passed pawns", "king safety", "pieces", "threats", "space", "tempo"}

func (t Term) String() string { return termNames[t] }

// TermOf returns the term weight i belongs to.
func TermOf(i int) Term {
	switch {
	case i < WPST:
		return TermMaterial
	case i < WBishopPair:
		return TermPST
	case i < WMobility:
		return TermImbalance // the bishop pair is an imbalance
	case i < WPawnIsolated:
		return TermMobility
	case i < WPassed:
		return TermPawns
	case i < WShield:
		return TermPassed
	case i < WKnightOutpost:
		return TermKingSafety
	case i < WHanging:
		return TermPieces
	case i < WSpace:
		return TermThreats
	case i < WTempo:
		return TermSpace
	}
	return TermTempo
}

// block names the weight blocks for WeightName.
var blocks = []struct {
	start int
	name  string
}{
	{WMaterial, "material"}, {WPST, "pst"}, {WBishopPair, "bishop-pair"}, {WImbalance, "imbalance"},
	{WMobility, "mobility.knight"}, {WMobility + 9, "mobility.bishop"}, {WMobility + 23, "mobility.rook"}, {WMobility + 38, "mobility.queen"},
	{WPawnIsolated, "pawn.isolated"}, {WPawnDoubled, "pawn.doubled"}, {WPawnBackward, "pawn.backward"}, {WPawnBackwardOpen, "pawn.backward-open"},
	{WPawnPhalanx, "pawn.phalanx"}, {WPawnSupported, "pawn.supported"}, {WPawnCandidate, "pawn.candidate"},
	{WPassed, "passed"}, {WPassedFree, "passed.free"}, {WPassedBlocked, "passed.blocked"}, {WPassedOwnKing, "passed.own-king"},
	{WPassedEnemyKing, "passed.enemy-king"}, {WPassedUnstoppable, "passed.unstoppable"},
	{WShield, "king.shield"}, {WStorm, "king.storm"}, {WKingOpenFile, "king.open-file"}, {WKingHalfOpenFile, "king.half-open-file"},
	{WKingDanger, "king.danger"}, {WKnightOutpost, "knight.outpost"}, {WBishopOutpost, "bishop.outpost"}, {WBadBishop, "bishop.bad"},
	{WRookOpen, "rook.open"}, {WRookHalfOpen, "rook.half-open"}, {WRookSeventh, "rook.seventh"}, {WBishopTrapped, "bishop.trapped"},
	{WRookTrapped, "rook.trapped"}, {WHanging, "threat.hanging"}, {WPawnThreat, "threat.pawn"}, {WMinorThreat, "threat.minor"},
	{WRookThreatQueen, "threat.rook-on-queen"}, {WSpace, "space"}, {WTempo, "tempo"},
}

// WeightName names weight i, e.g. "mobility.rook[7]" (for the tuner's
// generated file and debugging).
func WeightName(i int) string {
	b := 0
	for j := range blocks {
		if blocks[j].start <= i {
			b = j
		}
	}
	end := NumWeights
	if b+1 < len(blocks) {
		end = blocks[b+1].start
	}
	if end-blocks[b].start == 1 {
		return blocks[b].name
	}
	return fmt.Sprintf("%s[%d]", blocks[b].name, i-blocks[b].start)
}

// pstIndex is the PST slot of a piece of type t standing on s from its own
// side's view (Black's squares flipped). Files e–h fold onto d–a: the table
// is left-right symmetric, halving what the tuner must learn.
func pstIndex(t chess.PieceType, s chess.Square) int {
	f := s.File()
	if f > 3 {
		f = 7 - f
	}
	return WPST + int(t)*32 + s.Rank()*4 + f
}
