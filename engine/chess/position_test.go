package chess

import (
	"testing"
)

// walkCheck descends the legal tree and checks, at every node, that the
// incremental state matches a from-scratch recomputation and that every
// generator and the legality test agree with GenerateLegal. foreign holds
// moves from elsewhere in the tree: IsLegal must accept exactly those that
// are legal here.
func walkCheck(t *testing.T, p *Position, depth int, foreign *[]Move) {
	t.Helper()
	key, pawnKey := p.computeKeys()
	if key != p.key || pawnKey != p.pawnKey {
		t.Fatalf("%s: incremental keys differ from recomputed ones", p.FEN())
	}
	var counts [16]uint8
	for _, pc := range p.board {
		if pc != NoPiece {
			counts[pc]++
		}
	}
	if counts != p.counts {
		t.Fatalf("%s: piece counts %v, recomputed %v", p.FEN(), p.counts, counts)
	}
	if want := p.AttackersTo(p.KingSquare(p.side), p.byType[0]) & p.byColor[p.side^1]; want != p.checkers {
		t.Fatalf("%s: checkers %x, want %x", p.FEN(), p.checkers, want)
	}
	var all, caps, quiets, ev MoveList
	p.GenerateLegal(&all)
	p.GenerateCaptures(&caps)
	p.GenerateQuiets(&quiets)
	p.GenerateEvasions(&ev)
	if caps.N+quiets.N != all.N {
		t.Fatalf("%s: %d captures + %d quiets != %d legal", p.FEN(), caps.N, quiets.N, all.N)
	}
	for _, m := range caps.Slice() {
		if !all.Contains(m) || (!m.IsCapture() && m.Promotion() == NoPieceType) {
			t.Fatalf("%s: bad capture %v", p.FEN(), m)
		}
	}
	for _, m := range quiets.Slice() {
		if !all.Contains(m) || !m.IsQuiet() {
			t.Fatalf("%s: bad quiet %v", p.FEN(), m)
		}
	}
	if (p.InCheck() && ev.N != all.N) || (!p.InCheck() && ev.N != 0) {
		t.Fatalf("%s: %d evasions for %d legal moves (in check %v)", p.FEN(), ev.N, all.N, p.InCheck())
	}
	if c := p.countLegal(); c != all.N {
		t.Fatalf("%s: countLegal %d, generated %d", p.FEN(), c, all.N)
	}
	for _, m := range all.Slice() {
		if !p.IsLegal(m) {
			t.Fatalf("%s: IsLegal rejects legal %v", p.FEN(), m)
		}
	}
	for _, m := range *foreign {
		if p.IsLegal(m) != all.Contains(m) {
			t.Fatalf("%s: IsLegal(%v) = %v, but generated: %v", p.FEN(), m, p.IsLegal(m), all.Contains(m))
		}
	}
	*foreign = append(*foreign, all.Slice()...)
	if len(*foreign) > 4000 {
		*foreign = (*foreign)[len(*foreign)-2000:]
	}
	if depth == 0 {
		return
	}
	fen := p.FEN()
	var u Undo
	for _, m := range all.Slice() {
		p.MakeMove(m, &u)
		walkCheck(t, p, depth-1, foreign)
		p.UnmakeMove(m, &u)
		if p.FEN() != fen {
			t.Fatalf("unmake %v: %s, want %s", m, p.FEN(), fen)
		}
	}
}

func TestPositionConsistency(t *testing.T) {
	ps := allSuitePositions(t)
	var foreign []Move
	// Every position to depth 1, a sample to depth 2; under -race a
	// sample of each (race_test.go).
	every, deeper := 1, 16
	if raceBuild {
		every, deeper = 16, 256
	}
	for i, p := range ps {
		switch {
		case i%deeper == 0:
			walkCheck(t, p, 2, &foreign)
		case i%every == 0:
			walkCheck(t, p, 1, &foreign)
		}
	}
}

func TestNullMove(t *testing.T) {
	p, _ := ParseFEN("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
	fen, key := p.FEN(), p.Key()
	var u Undo
	p.MakeNullMove(&u)
	if p.SideToMove() != Black || p.EnPassant() != NoSquare {
		t.Fatal("null move did not pass the turn and clear ep")
	}
	k, _ := p.computeKeys()
	if k != p.Key() {
		t.Fatal("null move key differs from recomputed")
	}
	p.UnmakeNullMove(&u)
	if p.FEN() != fen || p.Key() != key {
		t.Fatal("null move not undone")
	}
}

func play(t *testing.T, p *Position, moves ...string) {
	t.Helper()
	var u Undo
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		p.MakeMove(m, &u)
	}
}

func TestGameState(t *testing.T) {
	p := NewPosition()
	play(t, p, "f3", "e5", "g4", "Qh4")
	if !p.IsCheckmate() || p.Outcome() != Checkmate {
		t.Error("fool's mate not detected")
	}
	s, _ := ParseFEN("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	if !s.IsStalemate() || s.Outcome() != Stalemate {
		t.Error("stalemate not detected")
	}
	for fen, want := range map[string]bool{
		"8/8/4k3/8/8/3K4/8/8 w - - 0 1":     true,  // K v K
		"8/8/4k3/8/8/3K4/8/5N2 w - - 0 1":   true,  // K+N v K
		"8/8/4k3/8/8/3K4/8/5B2 w - - 0 1":   true,  // K+B v K
		"8/8/4k1b1/8/8/3K4/8/5B2 w - - 0 1": true,  // bishops on light squares (f1, g6)
		"8/8/4kb2/8/8/3K4/8/5B2 w - - 0 1":  false, // f1 light, f6 dark
		"8/8/4k3/8/8/3K4/8/4NN2 w - - 0 1":  false, // two knights can mate
		"8/8/4k3/8/8/3K4/4P3/8 w - - 0 1":   false,
		"8/8/4k1n1/8/8/3K4/8/5B2 w - - 0 1": false,
		"8/8/4k3/8/8/3K4/8/5R2 w - - 0 1":   false,
		"8/8/4k3/8/8/3K4/8/2B2B2 w - - 0 1": false, // c1 dark, f1 light
		"8/8/4k3/8/8/3K4/8/3B1B2 w - - 0 1": true,  // d1, f1 both light
	} {
		q, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.InsufficientMaterial(); got != want {
			t.Errorf("%s: insufficient %v, want %v", fen, got, want)
		}
	}
	r := NewPosition()
	play(t, r, "Nf3", "Nf6", "Ng1", "Ng8")
	if r.Repetitions() != 1 || !r.IsRepetition() {
		t.Errorf("after one cycle: repetitions %d", r.Repetitions())
	}
	play(t, r, "Nf3", "Nf6", "Ng1", "Ng8")
	if r.Repetitions() != 2 || r.Outcome() != ThreefoldRepetition {
		t.Errorf("after two cycles: repetitions %d, outcome %v", r.Repetitions(), r.Outcome())
	}
	play(t, r, "e4")
	if r.IsRepetition() {
		t.Error("repetition across a pawn move")
	}
	f, _ := ParseFEN("8/8/4k3/8/8/3K4/8/R7 w - - 99 80")
	play(t, f, "Ra2")
	if !f.FiftyMoveRule() || f.Outcome() != FiftyMoves {
		t.Errorf("fifty-move rule not detected (clock %d)", f.HalfmoveClock())
	}
}

func TestClone(t *testing.T) {
	p := NewPosition()
	play(t, p, "e4", "e5")
	q := p.Clone()
	play(t, q, "Nf3")
	if p.Ply() != 2 || q.Ply() != 3 || p.FEN() == q.FEN() {
		t.Fatal("clone shares state with its original")
	}
}

// TestRepetitionKey: an en passant square counts only when a legal move
// takes there; a pawn pinned to its king cannot (chess-library's
// threefold_repetition.pgn: after 1... h5, gxh6 would open the g-file).
func TestRepetitionKey(t *testing.T) {
	key := func(fen string) (*Position, uint64) {
		t.Helper()
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p, p.Key()
	}
	pinned, pinnedKey := key("6k1/1p2p1r1/rP1pR3/2pP1pPp/p1P2P1P/R5K1/8/8 w - h6 0 2")
	_, noEP := key("6k1/1p2p1r1/rP1pR3/2pP1pPp/p1P2P1P/R5K1/8/8 w - - 0 2")
	if pinnedKey == noEP {
		t.Fatalf("Key leaves out a pseudo-legal en passant square: the test proves nothing")
	}
	if pinned.RepetitionKey() != noEP {
		t.Errorf("pinned pawn: RepetitionKey keeps the en passant square no legal move takes")
	}
	free, freeKey := key("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
	_, freeNoEP := key("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
	if free.RepetitionKey() != freeKey || freeKey == freeNoEP {
		t.Errorf("exd6 is legal: RepetitionKey must keep the square")
	}
	start := NewPosition()
	if start.RepetitionKey() != start.Key() {
		t.Errorf("no en passant square: RepetitionKey differs from Key")
	}
}
