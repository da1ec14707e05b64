package chess

// HasLegalMoves reports whether the side to move has any legal move.
func (p *Position) HasLegalMoves() bool { return p.countLegal() > 0 }

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.checkers != 0 && !p.HasLegalMoves() }

// IsStalemate reports whether the side to move has no legal move and is not
// in check.
func (p *Position) IsStalemate() bool { return p.checkers == 0 && !p.HasLegalMoves() }

// InsufficientMaterial reports a dead position by material alone: K v K,
// K+minor v K, and kings with bishops all on squares of one colour.
func (p *Position) InsufficientMaterial() bool {
	if p.byType[Pawn]|p.byType[Rook]|p.byType[Queen] != 0 {
		return false
	}
	minors := p.byType[Knight] | p.byType[Bishop]
	if !minors.Several() {
		return true
	}
	b := p.byType[Bishop]
	return p.byType[Knight] == 0 && (b&LightSquares == 0 || b&DarkSquares == 0)
}

// FiftyMoveRule reports whether 50 moves (100 plies) have passed without a
// capture or pawn move. A mate on the 100th ply still counts as mate.
func (p *Position) FiftyMoveRule() bool {
	return p.halfmove >= 100 && !p.IsCheckmate()
}

// Repetitions counts earlier occurrences of the current position among the
// positions since the last irreversible move (same side to move only).
func (p *Position) Repetitions() int {
	n := 0
	h := p.history
	limit := min(p.halfmove, len(h))
	for i := 4; i <= limit; i += 2 {
		if h[len(h)-i] == p.key {
			n++
		}
	}
	return n
}

// IsRepetition reports whether the position occurred before since the last
// irreversible move: the 2-fold test search uses inside its tree.
func (p *Position) IsRepetition() bool {
	h := p.history
	limit := min(p.halfmove, len(h))
	for i := 4; i <= limit; i += 2 {
		if h[len(h)-i] == p.key {
			return true
		}
	}
	return false
}

// Outcome is how a game stands.
type Outcome uint8

const (
	Ongoing Outcome = iota
	Checkmate
	Stalemate
	DeadPosition // insufficient material
	FiftyMoves
	ThreefoldRepetition
)

func (o Outcome) String() string {
	return [...]string{"ongoing", "checkmate", "stalemate", "insufficient material", "fifty-move rule", "threefold repetition"}[o]
}

// Outcome judges the game: mate and stalemate first, then the draws a
// player may claim or that end the game (3-fold counting this position).
func (p *Position) Outcome() Outcome {
	switch {
	case !p.HasLegalMoves() && p.checkers != 0:
		return Checkmate
	case !p.HasLegalMoves():
		return Stalemate
	case p.InsufficientMaterial():
		return DeadPosition
	case p.halfmove >= 100:
		return FiftyMoves
	case p.Repetitions() >= 2:
		return ThreefoldRepetition
	}
	return Ongoing
}
