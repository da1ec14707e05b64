package chess

import (
	"errors"
	"fmt"
	"strings"
)

// Illegal names the rule of the game a set-up position breaks
// (FENError.Illegal): why it could not occur in a game.
type Illegal int

// The rules a set-up position can break, in the order ParseFEN checks them.
const (
	Legal           Illegal = iota // no rule broken (or the FEN is malformed)
	KingCount                      // a side has no king, or more than one
	TooManyPieces                  // more than 16 pieces, or more promoted pieces than missing pawns
	PawnOnBackRank                 // a pawn on the first or last rank
	KingsAdjacent                  // the kings stand side by side
	BadCastling                    // a castling right without its king and rook at home
	BadEnPassant                   // an en passant square no double step can have left
	OpponentInCheck                // the side not to move is in check
	ImpossibleCheck                // the side to move is in check from more than two pieces
)

var illegalNames = [...]string{"legal", "king count", "too many pieces", "pawn on the first or last rank",
	"kings side by side", "castling rights", "en passant square", "side not to move in check", "impossible check"}

func (i Illegal) String() string {
	if i < 0 || int(i) >= len(illegalNames) {
		return fmt.Sprintf("Illegal(%d)", int(i))
	}
	return illegalNames[i]
}

// WhyIllegal is the rule err (from ParseFEN or Setup.Position) says the
// position breaks, and Legal for any other error or none.
func WhyIllegal(err error) Illegal {
	var fe *FENError
	if errors.As(err, &fe) {
		return fe.Illegal
	}
	return Legal
}

// Setup is a position being set up square by square, as a board editor
// holds it: any placement at all, judged only when it becomes a Position.
type Setup struct {
	Board [64]Piece
	Side  Color
	// Castling is the castling field as FEN writes it: "-", some of
	// "KQkq", or Shredder-FEN's rook files ("HAha") for Chess960.
	Castling  string
	EnPassant Square // NoSquare for none
}

// EmptySetup is an empty board, White to move, no castling.
func EmptySetup() Setup {
	return Setup{Castling: "-", EnPassant: NoSquare}
}

// SetupOf is p's placement, side to move, castling and en passant square,
// to be edited.
func SetupOf(p *Position) Setup {
	return Setup{Board: p.board, Side: p.side, Castling: p.castlingString(), EnPassant: p.ep}
}

// FEN is the setup's FEN, with clocks 0 and 1.
func (s Setup) FEN() string {
	side := "w"
	if s.Side == Black {
		side = "b"
	}
	return strings.Join([]string{BoardFEN(&s.Board), side, s.Castling, s.EnPassant.String(), "0", "1"}, " ")
}

// Position is the position set up, if it could occur in a game: ParseFEN
// judges it, so that a position set up square by square meets the same
// rules as one typed as a FEN (WhyIllegal names the rule broken).
func (s Setup) Position() (*Position, error) {
	return ParseFEN(s.FEN())
}

// ParsePiece reads a FEN piece letter: upper case White, lower case Black.
func ParsePiece(letter byte) (Piece, bool) {
	pc := pieceFromLetter(letter)
	return pc, pc != NoPiece
}

// Chess960 is start position n (0–959) of Chess960 in Scharnagl's
// numbering, where 518 is the standard start. The position is marked
// Chess960 (Shredder-FEN castling, king-takes-rook UCI castling) unless
// it is the standard one.
//
// Scharnagl's numbering reads n digit by digit: n mod 4 places the
// light-squared bishop (b, d, f, h), the next base-4 digit the dark one
// (a, c, e, g), the next base-6 digit the queen on that empty square, and
// the rest (0–9) the knights on one of the ten pairs of the five squares
// left; the rooks and the king take the last three, king in the middle.
func Chess960(n int) (*Position, error) {
	if n < 0 || n > 959 {
		return nil, fmt.Errorf("chess960: position %d: want 0-959", n)
	}
	var rank [8]PieceType
	rank[2*(n%4)+1] = Bishop
	n /= 4
	rank[2*(n%4)] = Bishop
	n /= 4
	placeNth(&rank, n%6, Queen)
	n /= 6
	// The knights' pairs, in Scharnagl's order: 01 02 03 04 12 13 14 23 24 34.
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}[n]
	placeNth(&rank, knights[1], Knight) // the later one first: the earlier's index stays right
	placeNth(&rank, knights[0], Knight)
	placeNth(&rank, 0, Rook)
	placeNth(&rank, 0, King)
	placeNth(&rank, 0, Rook)
	s := Setup{Side: White, Castling: "KQkq", EnPassant: NoSquare}
	for f, t := range rank {
		s.Board[MakeSquare(f, 0)] = MakePiece(White, t)
		s.Board[MakeSquare(f, 1)] = MakePiece(White, Pawn)
		s.Board[MakeSquare(f, 6)] = MakePiece(Black, Pawn)
		s.Board[MakeSquare(f, 7)] = MakePiece(Black, t)
	}
	p, err := s.Position()
	if err != nil {
		return nil, fmt.Errorf("chess960: %w", err) // cannot happen
	}
	p.SetChess960(p.FEN() != StartFEN)
	return p, nil
}

// placeNth puts t on the i-th (from 0) empty square of rank.
func placeNth(rank *[8]PieceType, i int, t PieceType) {
	for f := range rank {
		if rank[f] != NoPieceType {
			continue
		}
		if i == 0 {
			rank[f] = t
			return
		}
		i--
	}
}
