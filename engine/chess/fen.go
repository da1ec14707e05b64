package chess

import (
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// FENError reports what is wrong with a FEN string and in which field.
type FENError struct {
	Field  int    // 1-based field number (1 = placement … 6 = fullmove)
	Name   string // field name, e.g. "castling"
	Reason string
	// Illegal says which rule of the game the position breaks, when the
	// FEN is well formed but the position could not occur in a game
	// (Legal when the FEN itself is malformed): a board editor names the
	// problem from it.
	Illegal Illegal
}

func (e *FENError) Error() string {
	if e.Field == 0 {
		return "fen: " + e.Reason
	}
	return fmt.Sprintf("fen field %d (%s): %s", e.Field, e.Name, e.Reason)
}

var fenFieldNames = [...]string{"", "placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number"}

func fenErr(field int, format string, args ...any) error {
	return &FENError{Field: field, Name: fenFieldNames[field], Reason: fmt.Sprintf(format, args...)}
}

// illegal is a FENError for a well-formed FEN whose position breaks rule
// why.
func illegal(field int, why Illegal, format string, args ...any) error {
	return &FENError{Field: field, Name: fenFieldNames[field], Reason: fmt.Sprintf(format, args...), Illegal: why}
}

// NewPosition returns the standard starting position.
func NewPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("chess: bad start FEN: " + err.Error()) // cannot happen
	}
	return p
}

// ParseFEN reads a FEN (6 fields) or an EPD position (the first 4 fields;
// clocks default to 0 and 1). Castling accepts KQkq, Shredder-FEN file
// letters (HAha) and X-FEN; a position whose castling king or rooks stand
// off the standard squares is set up as Chess960. The position is checked
// for legality (one king each, not side by side, no pawns on the back
// ranks, no more pieces than a game can have, the side not to move not in
// check, no more than two checkers, consistent castling and en-passant
// fields); any problem is a *FENError naming the field, and a position
// that breaks a rule of the game says which in its Illegal. This is the one
// judge of a set-up position: a FEN typed, a PGN's FEN tag, a Setup built
// square by square all come through it.
func ParseFEN(fen string) (*Position, error) {
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return nil, &FENError{Reason: fmt.Sprintf("want 6 fields (or 4 for EPD), got %d", len(fields))}
	}
	p := &Position{ep: NoSquare, fullmove: 1, history: make([]uint64, 0, 256)}
	for i := range p.castleRook {
		p.castleRook[i] = NoSquare
	}
	if err := p.parsePlacement(fields[0]); err != nil {
		return nil, err
	}
	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return nil, fenErr(2, "want w or b, got %q", fields[1])
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return nil, err
	}
	if err := p.parseEnPassant(fields[3]); err != nil {
		return nil, err
	}
	if len(fields) == 6 {
		hm, err := strconv.Atoi(fields[4])
		if err != nil || hm < 0 || hm > 10000 {
			return nil, fenErr(5, "want a number 0-10000, got %q", fields[4])
		}
		fm, err := strconv.Atoi(fields[5])
		if err != nil || fm < 0 || fm > 100000 {
			return nil, fenErr(6, "want a number 1-100000, got %q", fields[5])
		}
		// Some writers emit a fullmove number of 0; treat it as 1.
		p.halfmove, p.fullmove = hm, max(fm, 1)
	}
	if p.Attacked(p.KingSquare(p.side^1), p.side^1, p.byType[0]) {
		return nil, illegal(1, OpponentInCheck, "the side not to move (%s) is in check", p.side^1)
	}
	p.key, p.pawnKey = p.computeKeys()
	p.checkers = p.AttackersTo(p.KingSquare(p.side), p.byType[0]) & p.byColor[p.side^1]
	if n := p.checkers.Count(); n > 2 {
		// One move uncovers at most two lines to the king.
		return nil, illegal(1, ImpossibleCheck, "%s is in check from %d pieces; one move gives at most two checks", p.side, n)
	}
	return p, nil
}

func (p *Position) parsePlacement(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fenErr(1, "want 8 ranks separated by '/', got %d", len(ranks))
	}
	for i, row := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '1' && c <= '8':
				f += int(c - '0')
			case pieceFromLetter(c) != NoPiece:
				if f < 8 {
					pc := pieceFromLetter(c)
					p.put(pc, MakeSquare(f, r))
					p.counts[pc]++
				}
				f++
			default:
				return fenErr(1, "bad piece letter %q in rank %d", c, r+1)
			}
			if f > 8 {
				break
			}
		}
		if f != 8 {
			return fenErr(1, "rank %d sums to %d squares, want 8", r+1, f)
		}
	}
	for _, c := range [2]Color{White, Black} {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return illegal(1, KingCount, "%s has %d kings, want exactly 1", c, n)
		}
		if n := p.byColor[c].Count(); n > 16 {
			return illegal(1, TooManyPieces, "%s has %d pieces, at most 16 are possible", c, n)
		}
		// Every piece beyond the initial set must have been a pawn.
		extra := 0
		for t, initial := range map[PieceType]int{Queen: 1, Rook: 2, Bishop: 2, Knight: 2} {
			extra += max(0, p.Pieces(c, t).Count()-initial)
		}
		if pawns := p.Pieces(c, Pawn).Count(); pawns+extra > 8 {
			return illegal(1, TooManyPieces, "%s has %d pawns and %d promoted pieces, more than 8 pawns could make", c, pawns, extra)
		}
	}
	if p.byType[Pawn]&(Rank1|Rank8) != 0 {
		return illegal(1, PawnOnBackRank, "pawn on the first or last rank")
	}
	if w, b := p.KingSquare(White), p.KingSquare(Black); kingAttacks[w].Has(b) {
		return illegal(1, KingsAdjacent, "the kings stand side by side (%s and %s)", w, b)
	}
	return nil
}

func (p *Position) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	if len(s) > 4 {
		return fenErr(3, "too many rights in %q", s)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		color := White
		if c >= 'a' && c <= 'z' {
			color = Black
			c -= 'a' - 'A'
		}
		ksq := p.KingSquare(color)
		backRank := 0
		if color == Black {
			backRank = 7
		}
		if ksq.Rank() != backRank {
			return illegal(3, BadCastling, "%q: the %s king is not on its back rank", s[i], color)
		}
		rook := MakePiece(color, Rook)
		rsq := NoSquare
		switch {
		case c == 'K':
			for f := 7; f > ksq.File(); f-- { // outermost rook (X-FEN)
				if sq := MakeSquare(f, backRank); p.board[sq] == rook {
					rsq = sq
					break
				}
			}
		case c == 'Q':
			for f := 0; f < ksq.File(); f++ {
				if sq := MakeSquare(f, backRank); p.board[sq] == rook {
					rsq = sq
					break
				}
			}
		case c >= 'A' && c <= 'H':
			rsq = MakeSquare(int(c-'A'), backRank)
			if p.board[rsq] != rook || rsq == ksq {
				return illegal(3, BadCastling, "%q: no %s rook on %s", s[i], color, rsq)
			}
			p.chess960 = true
		default:
			return fenErr(3, "bad castling letter %q", s[i])
		}
		if rsq == NoSquare {
			return illegal(3, BadCastling, "%q: no %s rook to castle with on that side", s[i], color)
		}
		idx := castleIndex(color, rsq > ksq)
		if p.castle&(1<<idx) != 0 {
			return fenErr(3, "%q repeats a right already given", s[i])
		}
		p.castle |= 1 << idx
		p.castleRook[idx] = rsq
		p.castleMask[rsq] |= 1 << idx
		p.castleMask[ksq] |= 1 << idx
		if ksq.File() != 4 || (rsq.File() != 0 && rsq.File() != 7) {
			p.chess960 = true
		}
	}
	return nil
}

func (p *Position) parseEnPassant(s string) error {
	if s == "-" {
		return nil
	}
	sq, ok := ParseSquare(s)
	if !ok {
		return fenErr(4, "bad square %q", s)
	}
	// The square must be just behind a pawn of the side that just moved,
	// with the square it came from empty.
	wantRank, pawnDir := 5, -8
	if p.side == Black {
		wantRank, pawnDir = 2, 8
	}
	if sq.Rank() != wantRank {
		return illegal(4, BadEnPassant, "%s is not on the %s rank for %s to move", s, map[int]string{5: "6th", 2: "3rd"}[wantRank], p.side)
	}
	pawnSq := Square(int(sq) + pawnDir)
	fromSq := Square(int(sq) - pawnDir)
	if p.board[pawnSq] != MakePiece(p.side^1, Pawn) || p.board[sq] != NoPiece || p.board[fromSq] != NoPiece {
		return illegal(4, BadEnPassant, "%s is not behind a %s pawn that just moved two squares", s, p.side^1)
	}
	p.ep = sq
	return nil
}

// FEN formats the position. Chess960 positions use Shredder-FEN castling
// letters (the rook files), as UCI GUIs expect in Chess960 mode.
func (p *Position) FEN() string {
	var b strings.Builder
	b.WriteString(BoardFEN(&p.board))
	if p.side == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	b.WriteString(p.castlingString())
	b.WriteByte(' ')
	b.WriteString(p.ep.String())
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	return b.String()
}

func (p *Position) castlingString() string {
	if p.castle == 0 {
		return "-"
	}
	var out []byte
	for i, std := range [4]byte{'K', 'Q', 'k', 'q'} {
		if p.castle&(1<<i) == 0 {
			continue
		}
		if !p.chess960 {
			out = append(out, std)
			continue
		}
		letter := byte('A' + p.castleRook[i].File())
		if i >= 2 {
			letter += 'a' - 'A'
		}
		out = append(out, letter)
	}
	// Shredder-FEN lists the rights with upper case first, files descending.
	if p.chess960 {
		sortCastling(out)
	}
	return string(out)
}

func sortCastling(b []byte) {
	rank := func(c byte) int {
		if c >= 'a' {
			return 100 - int(c-'a')
		}
		return -int(c - 'A')
	}
	for i := 1; i < len(b); i++ {
		for j := i; j > 0 && rank(b[j]) < rank(b[j-1]); j-- {
			b[j], b[j-1] = b[j-1], b[j]
		}
	}
}

// BoardFEN is the piece placement field of a FEN for board, indexed by
// Square (a1 = 0), NoPiece on empty squares. Code that sets positions up
// square by square (the board editor, random endings) does it through
// Setup, whose Position writes the FEN with it and lets ParseFEN judge
// whether the result is legal.
func BoardFEN(board *[64]Piece) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := board[MakeSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.Letter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}
