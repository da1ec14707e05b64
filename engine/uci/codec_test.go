package uci

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

func mustMoves(t *testing.T, p *chess.Position, uci ...string) []chess.Move {
	t.Helper()
	q := p.Clone()
	var out []chess.Move
	var u chess.Undo
	for _, s := range uci {
		m, err := q.ParseUCI(s)
		if err != nil {
			t.Fatalf("move %s: %v", s, err)
		}
		out = append(out, m)
		q.MakeMove(m, &u)
	}
	return out
}

func TestFormatParseInfoRoundTrip(t *testing.T) {
	root := chess.NewPosition()
	cases := []struct {
		info engine.Info
		line string
	}{
		{engine.Info{Depth: 12, SelDepth: 18, MultiPV: 1, Score: engine.Score{CP: 35}, Nodes: 123456, NPS: 1000000,
			HashFull: 17, Time: 123 * time.Millisecond, PV: mustMoves(t, root, "e2e4", "e7e5", "g1f3")},
			"info depth 12 seldepth 18 multipv 1 score cp 35 nodes 123456 nps 1000000 hashfull 17 time 123 pv e2e4 e7e5 g1f3"},
		{engine.Info{Depth: 5, MultiPV: 2, Score: engine.Score{Mate: -3, Bound: engine.Upper}, HasWDL: true, WDL: [3]int{0, 10, 990},
			Nodes: 7, NPS: 7000, TBHits: 4, Time: time.Millisecond},
			"info depth 5 multipv 2 score mate -3 upperbound wdl 0 10 990 nodes 7 nps 7000 hashfull 0 tbhits 4 time 1"},
		{engine.Info{Depth: 3, Score: engine.Score{CP: -20, Bound: engine.Lower}},
			"info depth 3 score cp -20 lowerbound nodes 0 nps 0 hashfull 0 time 0"},
		{engine.Info{CurrMove: mustMoves(t, root, "d2d4")[0], CurrMoveNumber: 3, Nodes: 10, NPS: 5, Time: 2 * time.Second},
			"info currmove d2d4 currmovenumber 3 nodes 10 nps 5 time 2000"},
		{engine.Info{String: "hello world"}, "info string hello world"},
	}
	for _, c := range cases {
		got := FormatInfo(c.info, false)
		if got != c.line {
			t.Errorf("FormatInfo:\n got %q\nwant %q", got, c.line)
		}
		back, err := ParseInfo(got, root)
		if err != nil {
			t.Errorf("ParseInfo(%q): %v", got, err)
			continue
		}
		if !reflect.DeepEqual(back, c.info) {
			t.Errorf("ParseInfo(%q) = %+v, want %+v", got, back, c.info)
		}
	}
}

func TestFormatInfoChess960Castling(t *testing.T) {
	p, err := chess.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	pv := mustMoves(t, p, "e1g1")
	if got := FormatInfo(engine.Info{Depth: 1, PV: pv}, true); !strings.HasSuffix(got, "pv e1h1") {
		t.Errorf("960 castling: %q", got)
	}
	if got := FormatInfo(engine.Info{Depth: 1, PV: pv}, false); !strings.HasSuffix(got, "pv e1g1") {
		t.Errorf("standard castling: %q", got)
	}
}

func TestParseInfoStockfishLines(t *testing.T) {
	root := chess.NewPosition()
	info, err := ParseInfo("info depth 20 seldepth 28 multipv 1 score cp 31 nodes 2000000 nps 900000 hashfull 400 tbhits 0 time 2200 pv e2e4 c7c5 g1f3 refutation e2e4 e7e5 cpuload 500", root)
	if err != nil {
		t.Fatal(err)
	}
	if info.Depth != 20 || info.SelDepth != 28 || info.Score.CP != 31 || len(info.PV) != 3 || info.HashFull != 400 {
		t.Errorf("got %+v", info)
	}
	info, err = ParseInfo("info string NNUE evaluation using nn.nnue enabled", root)
	if err != nil || info.String != "NNUE evaluation using nn.nnue enabled" {
		t.Errorf("string: %+v %v", info, err)
	}
	info, err = ParseInfo("info depth 1 score mate 0", root)
	if err != nil || info.Score.CP != -MatedCP || info.Score.Mate != 0 {
		t.Errorf("mate 0: %+v %v", info, err)
	}
}

func TestParseInfoErrors(t *testing.T) {
	root := chess.NewPosition()
	cases := []struct{ line, want string }{
		{"", "not an info line"},
		{"bestmove e2e4", "not an info line"},
		{"info depth", "depth: missing value"},
		{"info depth x", `bad number "x"`},
		{"info depth -1", "out of range"},
		{"info nodes -5", "negative"},
		{"info score", "missing kind"},
		{"info score pawns 3", `unknown kind "pawns"`},
		{"info score cp", "missing value"},
		{"info wdl 1 2", "wdl: missing value"},
		{"info frobnicate 3", `unknown token "frobnicate"`},
		{"info currmove e2e5", `currmove "e2e5"`},
		{"info depth 3 pv e2e4 e2e4", `pv move 2 "e2e4"`},
	}
	for _, c := range cases {
		_, err := ParseInfo(c.line, root)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseInfo(%q) error %v, want containing %q", c.line, err, c.want)
		}
	}
	// A partial PV is kept up to the bad move.
	info, err := ParseInfo("info depth 3 pv e2e4 e7e5 e7e5", root)
	if err == nil || len(info.PV) != 2 || info.Depth != 3 {
		t.Errorf("partial pv: %+v %v", info, err)
	}
}

func TestFormatParseOption(t *testing.T) {
	cases := []struct {
		o    engine.Option
		line string
	}{
		{engine.Option{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 512}, "option name Hash type spin default 16 min 1 max 512"},
		{engine.Option{Name: "Ponder", Type: "check", Default: "false"}, "option name Ponder type check default false"},
		{engine.Option{Name: "Clear Hash", Type: "button"}, "option name Clear Hash type button"},
		{engine.Option{Name: "SyzygyPath", Type: "string"}, "option name SyzygyPath type string default <empty>"},
		{engine.Option{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky Play"}},
			"option name Style type combo default Normal var Solid var Normal var Risky Play"},
		{engine.Option{Name: "Skill Level", Type: "spin", Default: "20", Min: 0, Max: 20}, "option name Skill Level type spin default 20 min 0 max 20"},
	}
	for _, c := range cases {
		if got := FormatOption(c.o); got != c.line {
			t.Errorf("FormatOption:\n got %q\nwant %q", got, c.line)
		}
		back, err := ParseOption(c.line)
		if err != nil {
			t.Errorf("ParseOption(%q): %v", c.line, err)
			continue
		}
		if !reflect.DeepEqual(back, c.o) {
			t.Errorf("ParseOption(%q) = %+v, want %+v", c.line, back, c.o)
		}
	}
}

func TestParseOptionErrors(t *testing.T) {
	cases := []struct{ line, want string }{
		{"id name Foo", "not an option line"},
		{"option name type spin", "empty name"},
		{"option name Hash", "missing type"},
		{"option name Hash type float", `unknown type "float"`},
		{"option name Hash type spin default 1 min x max 3", `bad min "x"`},
		{"option name Hash type spin default 1", "spin without min and max"},
		{"option name Hash type spin default 1 min 5 max 3", "min 5 > max 3"},
		{"option name Hash type check extra", `unknown token "extra"`},
	}
	for _, c := range cases {
		_, err := ParseOption(c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseOption(%q) error %v, want containing %q", c.line, err, c.want)
		}
	}
}

func FuzzParseInfo(f *testing.F) {
	f.Add("info depth 12 seldepth 18 multipv 1 score cp 35 nodes 1 nps 1 hashfull 1 time 1 pv e2e4 e7e5")
	f.Add("info string hi")
	f.Add("info score mate -2 lowerbound wdl 1 2 3 currmove e2e4 currmovenumber 1")
	root := chess.NewPosition()
	f.Fuzz(func(t *testing.T, line string) {
		info, err := ParseInfo(line, root)
		if err != nil || info.String != "" {
			return
		}
		// A line that parsed must survive a round trip through FormatInfo.
		if _, err := ParseInfo(FormatInfo(info, false), root); err != nil {
			t.Fatalf("reparse of %q: %v", FormatInfo(info, false), err)
		}
	})
}

func FuzzParseOption(f *testing.F) {
	f.Add("option name Hash type spin default 16 min 1 max 512")
	f.Add("option name Style type combo default A var A var B")
	f.Fuzz(func(t *testing.T, line string) {
		o, err := ParseOption(line)
		if err != nil {
			return
		}
		if _, err := ParseOption(FormatOption(o)); err != nil && o.Type != "string" && o.Type != "combo" {
			t.Fatalf("reparse of %q: %v", FormatOption(o), err)
		}
	})
}
