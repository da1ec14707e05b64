package pgn

import (
	"reflect"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

func sq(s string) chess.Square {
	q, _ := chess.ParseSquare(s)
	return q
}

// TestMarks: a file's arrows and squares are read from its comments'
// commands, malformed ones left alone; toggled, they are written back as
// one [%csl] and one [%cal] after the other commands, read back the same,
// and undone.
func TestMarks(t *testing.T) {
	const in = "1. e4 {[%clk 0:01:00] [%cal Ge2e4,Rd1d8] [%csl Yd4] [%cal Xa1a2] good} e5 *"
	games, errs := readAll(t, "m", []byte(in))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g := games[0]
	e4 := g.Root.Next()
	want := []Mark{{'G', sq("e2"), sq("e4")}, {'R', sq("d1"), sq("d8")}, {'Y', sq("d4"), chess.NoSquare}}
	if got := e4.Marks(); !reflect.DeepEqual(got, want) {
		t.Fatalf("marks %v, want %v", got, want)
	}
	var e Edits
	e.ToggleMark(e4, Mark{'R', sq("e2"), sq("e4")})                   // recoloured
	e.ToggleMark(e4, Mark{'R', sq("d1"), sq("d8")})                   // taken off
	e.ToggleMark(e4, Mark{'G', sq("f7"), chess.NoSquare})             // added
	e.ToggleMark(g.Root.Next().Next(), Mark{'B', sq("g8"), sq("f6")}) // a move without commands
	if got := moves(t, g); got != "1. e4 {[%clk 0:01:00] [%cal Xa1a2] [%csl Yd4,Gf7] [%cal Re2e4] good} 1... e5 {[%cal Bg8f6]} *" {
		t.Fatalf("written as %s", got)
	}
	back, errs := readAll(t, "m", []byte(g.String()))
	if len(errs) > 0 || !sameTree(back[0].Root, g.Root) {
		t.Fatalf("does not re-read as written: %v", errs)
	}
	e5 := g.Root.Next().Next()
	e.ToggleMark(e5, Mark{'B', sq("g8"), sq("f6")})
	if e5.Commands != nil {
		t.Errorf("the last mark off leaves %+v", *e5.Commands)
	}
	for e.Len() > 0 {
		e.Undo()
	}
	if got := e4.Marks(); !reflect.DeepEqual(got, want) || e5.Commands != nil {
		t.Errorf("after undo: %v, %v", got, e5.Commands)
	}
}

func TestParseMarks(t *testing.T) {
	for _, bad := range []string{"[%cal]", "[%cal Ge2]", "[%csl Ge2e4]", "[%cal Ge2e2]", "[%cal ge2e4]", "[%cal Ge2e4,]", "[%csl Ri9]", "[%clk 1:00]"} {
		if ks, ok := parseMarks(bad); ok {
			t.Errorf("%s read as %v", bad, ks)
		}
	}
	if ks, ok := parseMarks("[% csl  Rd4,Ga1 ]"); !ok || len(ks) != 2 {
		t.Errorf("spaced: %v %v", ks, ok)
	}
}

func TestParseMark(t *testing.T) {
	for tok, want := range map[string]string{"Rd4": "Rd4", "Ge2e4": "Ge2e4", "Bh8a1": "Bh8a1"} {
		if k, ok := ParseMark(tok); !ok || k.text() != want {
			t.Errorf("ParseMark(%q) = %v, %v; want %s", tok, k, ok, want)
		}
	}
	for _, bad := range []string{"", "d4", "Xd4", "gd4", "Ge2e2", "Ge2e", "Gd4 ", "Ri9"} {
		if k, ok := ParseMark(bad); ok {
			t.Errorf("ParseMark(%q) = %v", bad, k)
		}
	}
}
