package arena

import "testing"

// game is one counted game of a sheet in a test: outcome, plies, berserk.
type played struct {
	o       outcome
	plies   int
	berserk bool
}

func sheetOf(games ...played) sheet {
	var s sheet
	for _, g := range games {
		s = s.add(g.o, g.plies, g.berserk)
	}
	return s
}

// TestSheet scores sequences as lichess's ArenaSheet does, the FAQ's
// example first ("two wins followed by a draw will be worth 6 points").
func TestSheet(t *testing.T) {
	W, D, L := played{win, 40, false}, played{draw, 40, false}, played{loss, 40, false}
	for _, c := range []struct {
		name  string
		games []played
		total int
		sheet string
		fire  bool
	}{
		{"FAQ: two wins then a draw", []played{W, W, D}, 6, "222", false},
		{"third win doubled", []played{W, W, W}, 8, "224", true},
		{"fire goes on", []played{W, W, W, W}, 12, "2244", true},
		{"a loss puts it out", []played{W, W, L, W}, 6, "2202", false},
		{"a draw puts it out", []played{W, W, D, W}, 8, "2222", false},
		{"loss then wins", []played{L, W, W, W}, 8, "0224", true},
		{"berserk win at 14 plies", []played{{win, 14, true}}, 3, "3", false},
		{"berserk win at 13 plies earns nothing more", []played{{win, 13, true}}, 2, "2", false},
		{"berserk on fire", []played{W, W, {win, 30, true}}, 9, "225", true},
		{"berserk loss", []played{{loss, 30, true}}, 0, "0", false},
		{"quick draw scores nothing", []played{{draw, 19, false}}, 0, "0", false},
		{"quick draw on fire too", []played{W, W, {draw, 19, false}}, 4, "220", false},
		{"draw at 20 plies counts", []played{{draw, 20, false}}, 1, "1", false},
		{"draw streak", []played{D, D}, 1, "10", false},
		{"draw streak over losses", []played{D, L, D}, 1, "100", false},
		{"a win ends a draw streak", []played{D, W, D}, 4, "121", false},
		{"a quick draw starts a streak", []played{{draw, 10, false}, D}, 0, "00", false},
		{"long draws always count", []played{D, {draw, 60, false}}, 2, "11", false},
		{"draw on fire is doubled", []played{W, W, D, D}, 6, "2220", false},
	} {
		s := sheetOf(c.games...)
		if s.total() != c.total || s.String() != c.sheet || s.onFire() != c.fire {
			t.Errorf("%s: total %d sheet %q fire %v, want %d %q %v", c.name, s.total(), s, s.onFire(), c.total, c.sheet, c.fire)
		}
	}
}

// TestPerformance is lichess's: the mean of opponents' ratings ±500,
// from the third game.
func TestPerformance(t *testing.T) {
	var p performance
	p = p.add(1500, 1)
	p = p.add(1700, 0.5)
	if _, ok := p.value(); ok {
		t.Fatal("a performance after two games")
	}
	p = p.add(1600, 0)
	if v, ok := p.value(); !ok || v != (2000+1700+1100)/3 {
		t.Fatalf("performance %d %v, want %d", v, ok, (2000+1700+1100)/3)
	}
}
