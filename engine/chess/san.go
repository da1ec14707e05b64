package chess

import (
	"fmt"
	"strings"
)

// SAN formats a legal move in Standard Algebraic Notation with minimal
// disambiguation and a check (+) or mate (#) suffix.
func (p *Position) SAN(m Move) string {
	var b []byte
	b = p.appendSANBody(b, m)
	var u Undo
	p.MakeMove(m, &u)
	if p.checkers != 0 {
		var ml MoveList
		p.GenerateLegal(&ml)
		if ml.N == 0 {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	p.UnmakeMove(m, &u)
	return string(b)
}

func (p *Position) appendSANBody(b []byte, m Move) []byte {
	if m.IsCastle() {
		if m.To() > m.From() {
			return append(b, "O-O"...)
		}
		return append(b, "O-O-O"...)
	}
	from, to := m.From(), m.To()
	t := m.Piece().Type()
	if t == Pawn {
		if m.IsCapture() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, to.String()...)
		if pr := m.Promotion(); pr != NoPieceType {
			b = append(b, '=', pr.Letter())
		}
		return b
	}
	b = append(b, t.Letter())
	// Disambiguate among other pieces of the same type that can legally go
	// to the same square: file if that suffices, else rank, else both.
	var ml MoveList
	p.GenerateLegal(&ml)
	var others Bitboard
	for _, o := range ml.Slice() {
		if o != m && o.To() == to && o.Piece() == m.Piece() && !o.IsCastle() {
			others |= SquareBB(o.From())
		}
	}
	if others != 0 {
		switch {
		case others&FileBB(from.File()) == 0:
			b = append(b, byte('a'+from.File()))
		case others&RankBB(from.Rank()) == 0:
			b = append(b, byte('1'+from.Rank()))
		default:
			b = append(b, from.String()...)
		}
	}
	if m.IsCapture() {
		b = append(b, 'x')
	}
	return append(b, to.String()...)
}

// MoveError explains why a move string was rejected.
type MoveError struct {
	Move   string // the text as given
	Reason string
}

func (e *MoveError) Error() string { return fmt.Sprintf("move %q: %s", e.Move, e.Reason) }

// ParseSAN reads a move in SAN, strictly where it matters (the move must be
// legal and unambiguous) and leniently in form: 0-0 for O-O, a missing '='
// (e8Q), "e.p." suffixes, over-disambiguation (Nge2 when unneeded), long
// algebraic (Ng1-f3, e2e4), and trailing +, #, !, ? annotations are all
// accepted.
func (p *Position) ParseSAN(s string) (Move, error) {
	orig := s
	s = strings.TrimRight(s, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimSuffix(s, "ep")
	s = strings.TrimRight(s, " +#")
	if s == "" {
		return NullMove, &MoveError{orig, "empty move"}
	}
	var ml MoveList
	p.GenerateLegal(&ml)

	switch strings.ToUpper(strings.ReplaceAll(s, "0", "O")) {
	case "O-O", "OO":
		return p.findCastle(&ml, true, orig)
	case "O-O-O", "OOO":
		return p.findCastle(&ml, false, orig)
	}

	pt := Pawn
	if strings.IndexByte("NBRQK", s[0]) >= 0 {
		pt = PieceType(strings.IndexByte(" PNBRQK", s[0]))
		s = s[1:]
	}
	promo := NoPieceType
	if n := len(s); n >= 2 && strings.IndexByte("NBRQnbrq", s[n-1]) >= 0 {
		promo = PieceType(strings.IndexByte(" PNBRQK", strings.ToUpper(s[n-1:])[0]))
		s = strings.TrimSuffix(s[:n-1], "=")
		s = strings.TrimSuffix(s, "/") // old "e8/Q"
	}
	// What is left: [from file][from rank][x|-|:]to-square.
	clean := make([]byte, 0, 5)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != 'x' && c != '-' && c != ':' {
			clean = append(clean, c)
		}
	}
	if len(clean) < 2 || len(clean) > 4 {
		return NullMove, &MoveError{orig, "not a move in SAN"}
	}
	to, ok := ParseSquare(string(clean[len(clean)-2:]))
	if !ok {
		return NullMove, &MoveError{orig, "no destination square"}
	}
	fromFile, fromRank := -1, -1
	for _, c := range clean[:len(clean)-2] {
		switch {
		case c >= 'a' && c <= 'h' && fromFile < 0:
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && fromRank < 0:
			fromRank = int(c - '1')
		default:
			return NullMove, &MoveError{orig, fmt.Sprintf("bad disambiguation %q", c)}
		}
	}

	var found []Move
	var buf [4]Move
	found = buf[:0]
	for _, m := range ml.Slice() {
		if m.Piece().Type() != pt || m.IsCastle() {
			continue
		}
		if m.To() != to || m.Promotion() != promo {
			continue
		}
		if (fromFile >= 0 && m.From().File() != fromFile) || (fromRank >= 0 && m.From().Rank() != fromRank) {
			continue
		}
		if pt == Pawn && fromFile < 0 && m.From().File() != to.File() {
			continue // "d5" is a push; a capture names its file (exd5)
		}
		found = append(found, m)
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		alts := make([]string, len(found))
		for i, m := range found {
			alts[i] = m.From().String() + m.To().String()
		}
		return NullMove, &MoveError{orig, "ambiguous: could be " + strings.Join(alts, " or ")}
	}
	// A king "moving" two squares, as some files write castling.
	if pt == King && fromFile < 0 {
		for _, m := range ml.Slice() {
			if m.IsCastle() && m.KingTo() == to {
				return m, nil
			}
		}
	}
	if pt == Pawn && promo == NoPieceType && to.RelativeRank(p.side) == 7 {
		return NullMove, &MoveError{orig, "a pawn reaching the last rank must promote (add =Q, =R, =B or =N)"}
	}
	return NullMove, &MoveError{orig, "illegal in this position"}
}

func (p *Position) findCastle(ml *MoveList, kingside bool, orig string) (Move, error) {
	for _, m := range ml.Slice() {
		if m.IsCastle() && (m.To() > m.From()) == kingside {
			return m, nil
		}
	}
	return NullMove, &MoveError{orig, "castling is not legal here"}
}

// ParseUCI reads a move in UCI long algebraic notation (e2e4, e7e8q). Both
// castling forms are understood in standard chess (e1g1 and e1h1); in
// Chess960 only "king takes rook" is, since there e1g1 may be a king step.
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NullMove, &MoveError{s, "want 4 or 5 characters like e2e4 or e7e8q"}
	}
	if _, ok := ParseSquare(s[:2]); !ok {
		return NullMove, &MoveError{s, "bad from-square"}
	}
	if _, ok := ParseSquare(s[2:4]); !ok {
		return NullMove, &MoveError{s, "bad to-square"}
	}
	if len(s) == 5 && strings.IndexByte("nbrq", s[4]) < 0 {
		return NullMove, &MoveError{s, "bad promotion letter (want n, b, r or q)"}
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if m.UCI(p.chess960) == s {
			return m, nil
		}
	}
	if !p.chess960 {
		for _, m := range ml.Slice() {
			if m.IsCastle() && m.UCI(true) == s {
				return m, nil
			}
		}
	}
	return NullMove, &MoveError{s, "illegal in this position"}
}

// ParseMove accepts either UCI or SAN, as typed by a person.
func (p *Position) ParseMove(s string) (Move, error) {
	if m, err := p.ParseUCI(s); err == nil {
		return m, nil
	}
	return p.ParseSAN(s)
}

// ParseTyped reads a move as a person types it: whatever ParseMove reads,
// and also a piece letter in lower case where that cannot mean anything
// else ("nf3", "qxd8+", "kg1", as lichess takes them). "b" stays the
// b-file, never the bishop: "bc4" is a pawn's move or nothing. Every
// screen that takes typed moves (the board, the rooms, the play server)
// reads them through here, so they agree on what may be typed.
func (p *Position) ParseTyped(s string) (Move, error) {
	m, err := p.ParseMove(s)
	if err == nil || len(s) < 2 || strings.IndexByte("nrqk", s[0]) < 0 {
		return m, err
	}
	if up, uerr := p.ParseSAN(strings.ToUpper(s[:1]) + s[1:]); uerr == nil {
		return up, nil
	}
	return m, err
}

// MovesIn is how many moves a line of plies played from p spans, as its
// move numbers count them: 1. e4 e5 2. Nf3 is 2 moves (3 plies), and 1...
// e5 2. Nf3 from a position with Black to move is 2 moves too. Moves are
// moves, not plies, wherever a game's length is said (the review's
// summary, the board's offer to resume).
func (p *Position) MovesIn(plies int) int {
	if plies <= 0 {
		return 0
	}
	if p.side == Black {
		plies++ // Black's first move shares its number with White's, not played here
	}
	return (plies + 1) / 2
}

// LineSAN writes line, played from p, in SAN numbered as a game shows it:
// "12. Nf3", "Nc6", "13. d4", or "12... Nc6", "13. d4", … when Black moves
// first; one string per move, for callers that wrap or cut the line. It
// stops at the first move that is not legal where it stands (a PV that
// belongs to another position). p is left as it was. It is PGN's notation,
// for text written into files (the review's comments); the screens number
// moves through tui/movelist ("12… Nc6").
func (p *Position) LineSAN(line []Move) []string {
	out := p.SANs(line)
	fullmove, white := p.FullmoveNumber(), p.SideToMove() == White
	for i, s := range out {
		n := max(fullmove, 1)
		switch {
		case white:
			out[i] = fmt.Sprintf("%d. %s", n, s)
		case i == 0:
			out[i] = fmt.Sprintf("%d... %s", n, s)
		}
		if !white {
			fullmove++ // as MakeMove counts it, after Black's move
		}
		white = !white
	}
	return out
}

// SANs writes line, played from p, in SAN without move numbers. It stops
// at the first move that is not legal where it stands (a PV that belongs
// to another position). p is left as it was.
func (p *Position) SANs(line []Move) []string {
	q := p.Clone()
	out := make([]string, 0, len(line))
	var u Undo
	for _, m := range line {
		if !q.IsLegal(m) {
			break
		}
		out = append(out, q.SAN(m))
		q.MakeMove(m, &u)
	}
	return out
}
