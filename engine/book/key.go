// Package book reads, builds and learns Polyglot opening books, the
// de-facto standard book format of UCI engines.
//
// A book is a file of 16-byte big-endian entries (key, move, weight,
// learn) sorted by key, where the key is the Polyglot hash of a position.
// Because entries are keyed by position, not by move sequence,
// transpositions share their entries.
package book

import "github.com/squall-chess/squall/engine/chess"

// Offsets into random64 after the 768 piece-square numbers.
const (
	castleOffset = 768
	epOffset     = 772
	turnOffset   = 780
)

// Key returns the Polyglot key of a position. It differs from the
// engine's own Zobrist key (Position.Key): its numbers are the published
// ones, so keys match every other Polyglot tool, and the en-passant file is
// hashed only when a pawn of the side to move stands beside the pawn that
// just advanced two squares, so a position reached with or without a
// pointless double push keys the same.
func Key(p *chess.Position) uint64 {
	var k uint64
	occ := p.Occupied()
	for occ != 0 {
		s := occ.PopLSB()
		pc := p.Piece(s)
		// Polyglot kinds: black pawn 0, white pawn 1, black knight 2, ...
		kind := 2 * int(pc.Type()-chess.Pawn)
		if pc.Color() == chess.White {
			kind++
		}
		k ^= random64[64*kind+int(s)]
	}
	cr := p.Castling()
	for i, r := range [4]chess.CastlingRights{chess.WhiteKingside, chess.WhiteQueenside, chess.BlackKingside, chess.BlackQueenside} {
		if cr&r != 0 {
			k ^= random64[castleOffset+i]
		}
	}
	if ep := p.EnPassant(); ep != chess.NoSquare && epCapturable(p, ep) {
		k ^= random64[epOffset+ep.File()]
	}
	if p.SideToMove() == chess.White {
		k ^= random64[turnOffset]
	}
	return k
}

// epCapturable reports whether a pawn of the side to move attacks the
// en-passant target (Polyglot's rule: legality, e.g. pins, is not checked).
func epCapturable(p *chess.Position, ep chess.Square) bool {
	us := p.SideToMove()
	return chess.PawnAttacks(us.Other(), ep)&p.Pieces(us, chess.Pawn) != 0
}
