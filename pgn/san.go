package pgn

import (
	"errors"

	"github.com/squall-chess/squall/engine/chess"
)

// resolve finds the legal move that san names. The common forms (Nf3, exd5,
// Rfe1, e8=Q, O-O) are matched here against only the legal moves of the
// named piece type to the named square (chess.Position.GenerateTo), without
// allocating; anything else, and every failure, goes to chess.ParseSAN,
// which accepts more forms and explains what is wrong.
//
// fast reports whether the fast path found the move, in which case r.ml
// still holds the moves sanBody needs.
func (r *Reader) resolve(p *chess.Position, san []byte) (m chess.Move, fast bool, err error) {
	if m, ok := r.fastSAN(p, san); ok {
		return m, true, nil
	}
	m, err = r.slowSAN(p, san)
	return m, false, err
}

func (r *Reader) slowSAN(p *chess.Position, san []byte) (chess.Move, error) {
	s := string(san)
	if s == "--" || s == "Z0" {
		if p.InCheck() {
			return chess.NullMove, errors.New("null move while in check")
		}
		return chess.NullMove, nil
	}
	m, err := p.ParseSAN(s)
	if err != nil && looksUCI(san) {
		// Some tools write long algebraic without the piece (g1f3).
		if mu, uerr := p.ParseUCI(s); uerr == nil {
			return mu, nil
		}
	}
	return m, err
}

func looksUCI(s []byte) bool {
	return (len(s) == 4 || len(s) == 5) && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8' &&
		s[2] >= 'a' && s[2] <= 'h' && s[3] >= '1' && s[3] <= '8'
}

func pieceOf(c byte) chess.PieceType {
	switch c {
	case 'N':
		return chess.Knight
	case 'B':
		return chess.Bishop
	case 'R':
		return chess.Rook
	case 'Q':
		return chess.Queen
	case 'K':
		return chess.King
	}
	return chess.NoPieceType
}

func (r *Reader) fastSAN(p *chess.Position, s []byte) (chess.Move, bool) {
	for len(s) > 0 && (s[len(s)-1] == '+' || s[len(s)-1] == '#') {
		s = s[:len(s)-1]
	}
	if len(s) < 2 {
		return chess.NullMove, false
	}
	ml := &r.ml
	if s[0] == 'O' || s[0] == '0' {
		var kingside bool
		switch string(s) {
		case "O-O", "0-0":
			kingside = true
		case "O-O-O", "0-0-0":
		default:
			return chess.NullMove, false
		}
		return p.CastlingMove(kingside)
	}
	pt := chess.Pawn
	if t := pieceOf(s[0]); t != chess.NoPieceType {
		pt, s = t, s[1:]
	}
	promo := chess.NoPieceType
	if pt == chess.Pawn && len(s) >= 3 {
		if t := pieceOf(s[len(s)-1]); t != chess.NoPieceType && t != chess.King {
			promo, s = t, s[:len(s)-1]
			if s[len(s)-1] == '=' {
				s = s[:len(s)-1]
			}
		}
	}
	n := len(s)
	if n < 2 || n > 5 {
		return chess.NullMove, false
	}
	tf, tr := s[n-2], s[n-1]
	if tf < 'a' || tf > 'h' || tr < '1' || tr > '8' {
		return chess.NullMove, false
	}
	to := chess.MakeSquare(int(tf-'a'), int(tr-'1'))
	fromFile, fromRank := -1, -1
	for _, c := range s[:n-2] {
		switch {
		case c >= 'a' && c <= 'h' && fromFile < 0 && fromRank < 0:
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && fromRank < 0:
			fromRank = int(c - '1')
		case c == 'x' || c == ':':
		default:
			return chess.NullMove, false
		}
	}
	p.GenerateTo(ml, pt, to)
	var found chess.Move
	count := 0
	for _, m := range ml.Moves[:ml.N] {
		if m.Promotion() != promo {
			continue
		}
		from := m.From()
		if (fromFile >= 0 && from.File() != fromFile) || (fromRank >= 0 && from.Rank() != fromRank) {
			continue
		}
		if pt == chess.Pawn && fromFile < 0 && from.File() != to.File() {
			continue // "d5" is a push; a capture names its file
		}
		found = m
		count++
	}
	return found, count == 1
}

// sanBody appends the canonical SAN of m, without check or mate suffix, as
// chess.Position.AppendSAN writes it. It needs r.ml as fastSAN left it:
// every legal move of m's piece type to m's destination square.
func (r *Reader) sanBody(b []byte, m chess.Move) []byte {
	if m.IsCastle() {
		if m.To() > m.From() {
			return append(b, "O-O"...)
		}
		return append(b, "O-O-O"...)
	}
	from, to := m.From(), m.To()
	pt := m.Piece().Type()
	if pt == chess.Pawn {
		if m.IsCapture() {
			b = append(b, byte('a'+from.File()), 'x')
		}
	} else {
		b = append(b, " PNBRQK"[pt])
		others, sameFile, sameRank := false, false, false
		for _, o := range r.ml.Moves[:r.ml.N] {
			if o == m {
				continue
			}
			others = true
			sameFile = sameFile || o.From().File() == from.File()
			sameRank = sameRank || o.From().Rank() == from.Rank()
		}
		if others {
			switch {
			case !sameFile:
				b = append(b, byte('a'+from.File()))
			case !sameRank:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = append(b, byte('a'+from.File()), byte('1'+from.Rank()))
			}
		}
		if m.IsCapture() {
			b = append(b, 'x')
		}
	}
	b = append(b, byte('a'+to.File()), byte('1'+to.Rank()))
	if pr := m.Promotion(); pr != chess.NoPieceType {
		b = append(b, '=', " PNBRQK"[pr])
	}
	return b
}
