package referee

import (
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

func position(t *testing.T, fen string) *chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCanMate: the material that can mate by some series of legal moves,
// which decides whether a flag loses (FIDE 6.9).
func TestCanMate(t *testing.T) {
	for _, c := range []struct {
		fen          string
		white, black bool
	}{
		{chess.StartFEN, true, true},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false},  // bare kings
		{"4k3/8/8/8/8/8/8/3NK3 w - - 0 1", false, false}, // a knight against a bare king
		{"4k3/8/8/8/8/8/8/3BK3 w - - 0 1", false, false}, // a bishop likewise
		{"4k3/4p3/8/8/8/8/8/3NK3 w - - 0 1", true, true}, // a knight, and a pawn to block with
		{"4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", true, false}, // two knights: a helpmate exists
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", true, false}, // a pawn may promote
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, false},
		{"4k3/8/8/8/8/8/8/3QK2q w - - 0 1", true, true},
	} {
		p := position(t, c.fen)
		if CanMate(p, chess.White) != c.white || CanMate(p, chess.Black) != c.black {
			t.Errorf("%s: White %v, Black %v; want %v, %v", c.fen, CanMate(p, chess.White), CanMate(p, chess.Black), c.white, c.black)
		}
	}
}

// TestFlag (issue 34, R1): a flag loses unless the opponent cannot mate
// (FIDE 6.9): White's king and knight against a bare king do not win on
// Black's flag, against a king and pawn they do.
func TestFlag(t *testing.T) {
	for _, c := range []struct {
		fen     string
		flagged chess.Color
		want    string
	}{
		{"4k3/8/8/8/8/8/8/4K1N1 b - - 0 1", chess.Black, "1/2-1/2"}, // K+N v K
		{"4k3/4p3/8/8/8/8/8/4K1N1 b - - 0 1", chess.Black, "1-0"},   // K+N v K+P: a helpmate exists
		{"4k3/4p3/8/8/8/8/8/4K1N1 w - - 0 1", chess.White, "0-1"},   // the pawn may promote
		{"r3k3/8/8/8/8/8/8/4K3 b - - 0 1", chess.Black, "1/2-1/2"},  // a bare king cannot mate
		{chess.StartFEN, chess.White, "0-1"},
	} {
		r := Flag(position(t, c.fen), c.flagged)
		if r.PGN() != c.want || r.Termination != TimeForfeit || r.Termination.PGN() != "time forfeit" {
			t.Errorf("%s, %v flagged: %+v (%s), want %s", c.fen, c.flagged, r, r.PGN(), c.want)
		}
	}
}

// TestJudge: the positions that end a game, and how.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want Result
		over bool
	}{
		{chess.StartFEN, Result{}, false},
		{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", Win(chess.White, Checkmate), true},
		{"7k/8/6QK/8/8/8/8/8 b - - 0 1", Draw(Stalemate), true},
		{"4k3/8/8/8/8/8/8/4K1N1 b - - 0 1", Draw(InsufficientMaterial), true},
		{"4k3/8/8/8/8/8/4P3/4K3 b - - 100 80", Draw(FiftyMoves), true},
	} {
		r, over := Judge(position(t, c.fen))
		if r != c.want || over != c.over {
			t.Errorf("%s: %+v %v, want %+v %v", c.fen, r, over, c.want, c.over)
		}
	}
}

// TestResign: a resignation before both sides have moved aborts the game.
func TestResign(t *testing.T) {
	if r := Resign(chess.White, 1); r.Decided() || r.PGN() != "*" || r.Termination.PGN() != "unterminated" {
		t.Errorf("resign after one ply: %+v", r)
	}
	if r := Resign(chess.White, 2); r != Win(chess.Black, Resignation) || r.PGN() != "0-1" || r.Termination.PGN() != "normal" {
		t.Errorf("resign after two plies: %+v", r)
	}
}

// TestPGNTags: each termination's standard tag.
func TestPGNTags(t *testing.T) {
	for term, want := range map[Termination]string{
		Checkmate: "normal", Resignation: "normal", Agreement: "normal", Repetition: "normal",
		TimeForfeit: "time forfeit", Abandoned: "abandoned", EngineFailure: "abandoned",
		Adjudication: "adjudication", IllegalMove: "rules infraction", Aborted: "unterminated", "": "unterminated",
	} {
		if got := term.PGN(); got != want {
			t.Errorf("%q: %q, want %q", term, got, want)
		}
	}
}
