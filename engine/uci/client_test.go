package uci

import (
	"context"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

func clientStartGame() engine.Game { return engine.Game{Start: chess.NewPosition()} }

// clientReaped fails the test unless the engine process has been waited for.
func clientReaped(t *testing.T, c *Client) {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("engine process was not reaped")
	}
}

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		line string
		path string
		args []string
	}{
		{"/usr/games/gnuchess --uci", "/usr/games/gnuchess", []string{"--uci"}},
		{"  stockfish  ", "stockfish", []string{}},
		{`"/opt/my engine/bin" -x 'a b' c\ d`, "/opt/my engine/bin", []string{"-x", "a b", "c d"}},
		{`eng ""`, "eng", []string{""}},
	} {
		path, args, err := ParseCommand(tc.line)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tc.line, err)
			continue
		}
		if args == nil {
			args = []string{}
		}
		if path != tc.path || !reflect.DeepEqual(args, tc.args) {
			t.Errorf("ParseCommand(%q) = %q %q, want %q %q", tc.line, path, args, tc.path, tc.args)
		}
	}
	for _, bad := range []string{"", "   ", `eng "open`, `eng \`} {
		if _, _, err := ParseCommand(bad); err == nil {
			t.Errorf("ParseCommand(%q): no error", bad)
		}
	}
}

func TestClientFakeGood(t *testing.T) {
	c, err := Start(context.Background(), clientFakeConfig(t, "good"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Name() != "Fake good" {
		t.Errorf("Name = %q", c.Name())
	}
	if n := len(c.Options()); n != 3 {
		t.Errorf("%d options, want 3 (the malformed one skipped): %+v", n, c.Options())
	}
	if err := c.SetOption("hash", "32"); err != nil { // names are case-insensitive
		t.Errorf("SetOption(hash, 32): %v", err)
	}
	for _, bad := range [][2]string{{"Hash", "65"}, {"Hash", "x"}, {"Ponder", "yes"}, {"Style", "Wild"}, {"Nope", "1"}} {
		if err := c.SetOption(bad[0], bad[1]); err == nil {
			t.Errorf("SetOption(%s, %s): no error", bad[0], bad[1])
		}
	}
	if err := c.SetOption("Style", "risky"); err != nil {
		t.Errorf("SetOption(Style, risky): %v", err)
	}
	// A check in any case, as the searcher and the server take it (the
	// client used to refuse True); the engine gets the canonical spelling.
	if err := c.SetOption("Ponder", "True"); err != nil {
		t.Errorf("SetOption(Ponder, True): %v", err)
	}
	for _, want := range []string{"setoption name Ponder value true", "setoption name Style value Risky"} {
		if !slices.ContainsFunc(c.Log(), func(l LogLine) bool { return l.Dir == '>' && l.Text == want }) {
			t.Errorf("traffic lacks %q", want)
		}
	}
	var infos []engine.Info
	res, err := c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 1}, func(in engine.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove.UCI(false) != "e2e4" || res.PonderMove.UCI(false) != "e7e5" {
		t.Errorf("result %s ponder %s", res.BestMove.UCI(false), res.PonderMove.UCI(false))
	}
	if len(infos) != 1 || infos[0].Score.CP != 20 || len(res.Last.PV) != 1 {
		t.Errorf("infos %+v, last %+v", infos, res.Last)
	}
	log := c.Log()
	var sawGo, sawBest bool
	for _, l := range log {
		sawGo = sawGo || (l.Dir == '>' && l.Text == "go depth 1")
		sawBest = sawBest || (l.Dir == '<' && strings.HasPrefix(l.Text, "bestmove"))
	}
	if !sawGo || !sawBest {
		t.Errorf("log lacks the go/bestmove exchange: %v", log)
	}
	c.Close()
	clientReaped(t, c)
	if _, err := c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 1}, nil); err == nil {
		t.Error("Search after Close: no error")
	}
}

// TestClientMultiPV is issue 18's B4: the client never told an external
// engine how many lines to report (so the board showed 1 line of 3), and
// passed Stockfish's "info depth N currmove …" lines on as reports with
// zero nodes and time (the stats line settled on "0 nodes 0 nps 0.0s").
// Limits.MultiPV is sent as the MultiPV option when it changes, and a
// currmove line carries the counters of the last report, as the built-in
// engine's do, never a depth with no nodes.
func TestClientMultiPV(t *testing.T) {
	c, err := Start(context.Background(), clientFakeConfig(t, "multipv"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sets := func() []string {
		var out []string
		for _, l := range c.Log() {
			if l.Dir == '>' && strings.HasPrefix(l.Text, "setoption name MultiPV") {
				out = append(out, l.Text)
			}
		}
		return out
	}
	for _, step := range []struct {
		multiPV, lines int
		sets           []string
	}{
		{3, 3, []string{"setoption name MultiPV value 3"}},
		{3, 3, []string{"setoption name MultiPV value 3"}}, // unchanged: not sent again
		{0, 1, []string{"setoption name MultiPV value 3", "setoption name MultiPV value 1"}},
		{900, 4, []string{"setoption name MultiPV value 3", "setoption name MultiPV value 1", "setoption name MultiPV value 500"}}, // clamped to the option's max
	} {
		var infos []engine.Info
		_, err := c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 2, MultiPV: step.multiPV}, func(in engine.Info) { infos = append(infos, in) })
		if err != nil {
			t.Fatal(err)
		}
		lines := map[int]bool{}
		for _, in := range infos {
			if len(in.PV) > 0 {
				lines[in.MultiPV] = true
				continue
			}
			if in.Depth > 0 || in.Nodes == 0 || in.Time == 0 {
				t.Errorf("MultiPV %d: progress report %+v: a depth without counters, or no counters", step.multiPV, in)
			}
			if in.CurrMove == chess.NullMove {
				t.Errorf("MultiPV %d: progress report lost its current move: %+v", step.multiPV, in)
			}
		}
		if len(lines) != step.lines {
			t.Errorf("MultiPV %d: %d lines reported, want %d", step.multiPV, len(lines), step.lines)
		}
		if got := sets(); !slices.Equal(got, step.sets) {
			t.Errorf("MultiPV %d: traffic has %q, want %q", step.multiPV, got, step.sets)
		}
	}
}

func TestClientFakeCrash(t *testing.T) {
	c, err := Start(context.Background(), clientFakeConfig(t, "crash"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 1}, nil)
	if !errors.Is(err, ErrEngineExited) || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("crash gave %v, want ErrEngineExited with the exit status", err)
	}
	clientReaped(t, c)
	var sawStderr bool
	for _, l := range c.Log() {
		sawStderr = sawStderr || (l.Dir == '!' && strings.Contains(l.Text, "segmentation fault"))
	}
	if !sawStderr {
		t.Error("stderr of the crashed engine is not in the log")
	}
}

func TestClientFakeHang(t *testing.T) {
	c, err := Start(context.Background(), clientFakeConfig(t, "hang"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = c.Search(ctx, clientStartGame(), engine.Limits{MoveTime: 50 * time.Millisecond}, nil)
	if !errors.Is(err, ErrEngineTimeout) {
		t.Errorf("hung engine gave %v, want ErrEngineTimeout", err)
	}
	clientReaped(t, c)
}

func TestClientFakeMute(t *testing.T) {
	cfg := clientFakeConfig(t, "mute")
	cfg.StartTimeout = 200 * time.Millisecond
	_, err := Start(context.Background(), cfg)
	if !errors.Is(err, ErrEngineTimeout) || !strings.Contains(err.Error(), "uciok") {
		t.Errorf("mute engine gave %v, want ErrEngineTimeout naming uciok", err)
	}
}

func TestClientFakeGarbage(t *testing.T) {
	c, err := Start(context.Background(), clientFakeConfig(t, "garbage"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var infos []engine.Info
	res, err := c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 5}, func(in engine.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatalf("garbage before a good bestmove: %v", err)
	}
	if res.BestMove.UCI(false) != "e2e4" {
		t.Errorf("bestmove %s", res.BestMove.UCI(false))
	}
	// The PV cut at z9z9 keeps its legal prefix.
	if len(res.Last.PV) != 2 || res.Last.Score.CP != 31 {
		t.Errorf("last info %+v, want the 2-move prefix of the PV and cp 31", res.Last)
	}
}

func TestClientFakeIllegal(t *testing.T) {
	c, err := Start(context.Background(), clientFakeConfig(t, "illegal"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 1}, nil)
	if !errors.Is(err, engine.ErrIllegalMove) || !strings.Contains(err.Error(), "e2e5") {
		t.Errorf("illegal bestmove gave %v, want engine.ErrIllegalMove naming e2e5", err)
	}
}

func TestClientFakeLongLine(t *testing.T) {
	c, err := Start(context.Background(), clientFakeConfig(t, "longline"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 1}, nil)
	if !errors.Is(err, ErrProtocol) {
		t.Errorf("2 MB line gave %v, want ErrProtocol", err)
	}
	clientReaped(t, c)
}

func TestClientMissingProgram(t *testing.T) {
	_, err := Start(context.Background(), Config{Path: "/nonexistent/engine"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/engine") {
		t.Errorf("missing program gave %v", err)
	}
}

func TestClientLogRing(t *testing.T) {
	l := newTrafficLog(3)
	for _, s := range []string{"a", "b", "c", "d", "e"} {
		l.add('<', s)
	}
	var got []string
	for _, x := range l.lines() {
		got = append(got, x.Text)
	}
	if !reflect.DeepEqual(got, []string{"c", "d", "e"}) {
		t.Errorf("ring holds %v, want [c d e]", got)
	}
}

func TestClientGoCommand(t *testing.T) {
	start := chess.NewPosition()
	for _, tc := range []struct {
		lim  engine.Limits
		want string
	}{
		{engine.Limits{}, "go infinite"},
		{engine.Limits{Ponder: true}, "go ponder infinite"},
		{engine.Limits{MoveTime: 1500 * time.Millisecond}, "go movetime 1500"},
		{engine.Limits{WTime: 10 * time.Second, BTime: 9 * time.Second, WInc: 100 * time.Millisecond, BInc: 100 * time.Millisecond},
			"go wtime 10000 btime 9000 winc 100 binc 100"},
		{engine.Limits{Nodes: 5000, Depth: 7}, "go depth 7 nodes 5000"},
		{engine.Limits{Depth: 3, SearchMoves: []chess.Move{mustMoves(t, start, "e2e4")[0], mustMoves(t, start, "g1f3")[0]}},
			"go depth 3 searchmoves e2e4 g1f3"},
		// Analysis of chosen moves: still until stopped.
		{engine.Limits{SearchMoves: []chess.Move{mustMoves(t, start, "d2d4")[0]}}, "go infinite searchmoves d2d4"},
		{engine.Limits{Infinite: true, MultiPV: 3}, "go infinite"},
	} {
		if got := FormatGo(tc.lim, false); got != tc.want {
			t.Errorf("FormatGo(%+v) = %q, want %q", tc.lim, got, tc.want)
		}
	}
}

func TestClientPositionCommand(t *testing.T) {
	start := chess.NewPosition()
	if got := FormatPosition(engine.Game{Start: start}); got != "position startpos" {
		t.Errorf("start position: %q", got)
	}
	g := engine.Game{Start: start, Moves: mustMoves(t, start, "e2e4", "e7e5", "g1f3")}
	if got, want := FormatPosition(g), "position startpos moves e2e4 e7e5 g1f3"; got != want {
		t.Errorf("moves from the start: %q, want %q", got, want)
	}
	// A Chess960 start is sent as a FEN, its castling as king takes rook.
	p, err := chess.ParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	p.SetChess960(true)
	g = engine.Game{Start: p, Moves: mustMoves(t, p, "e1h1")}
	if got, want := FormatPosition(g), "position fen "+p.FEN()+" moves e1h1"; got != want {
		t.Errorf("Chess960: %q, want %q", got, want)
	}
}

// clientExternal starts an installed engine or skips the test.
func clientExternal(t *testing.T, path string, args ...string) *Client {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s is not installed (apt-get install %s); skipping", path, path[strings.LastIndex(path, "/")+1:])
	}
	c, err := Start(context.Background(), Config{Path: path, Args: args, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); clientReaped(t, c) })
	return c
}

func TestClientStockfish(t *testing.T) {
	c := clientExternal(t, "/usr/games/stockfish")
	if !strings.HasPrefix(c.Name(), "Stockfish") {
		t.Errorf("Name = %q", c.Name())
	}
	var hash engine.Option
	for _, o := range c.Options() {
		if o.Name == "Hash" {
			hash = o
		}
	}
	if hash.Type != "spin" || hash.Min != 1 || hash.Max < 1024 {
		t.Errorf("Hash option %+v", hash)
	}
	for _, kv := range [][2]string{{"Threads", "1"}, {"Hash", "16"}} {
		if err := c.SetOption(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SetOption("Hash", "0"); err == nil {
		t.Error("Hash 0 accepted")
	}
	if err := c.NewGame(); err != nil {
		t.Fatal(err)
	}

	// MultiPV: lines 1..3 with distinct first moves at the final depth
	// (the client sets the option from the limits).
	seen := map[int]engine.Info{}
	res, err := c.Search(context.Background(), clientStartGame(), engine.Limits{Depth: 10, MultiPV: 3}, func(in engine.Info) {
		if in.Depth == 10 && len(in.PV) > 0 {
			seen[in.MultiPV] = in
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || seen[1].PV[0] == seen[2].PV[0] || seen[2].PV[0] == seen[3].PV[0] {
		t.Errorf("MultiPV lines at depth 10: %+v", seen)
	}
	if res.BestMove != seen[1].PV[0] {
		t.Errorf("bestmove %s is not the first move of line 1", res.BestMove.UCI(false))
	}
	if err := c.SetOption("MultiPV", "1"); err != nil {
		t.Fatal(err)
	}

	// Stop: an infinite search returns a legal move soon after cancel.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err = c.Search(ctx, clientStartGame(), engine.Limits{Infinite: true}, nil)
	if err != nil || res.BestMove == chess.NullMove {
		t.Fatalf("infinite search stopped: %v, %+v", err, res)
	}
	deadline, _ := ctx.Deadline()
	t.Logf("stop latency (cancel to bestmove): %v", time.Since(deadline))

	// Ponder: "go ponder" runs until ponderhit, then finishes as timed.
	start := chess.NewPosition()
	e4, _ := start.ParseUCI("e2e4")
	g := engine.Game{Start: start, Moves: []chess.Move{e4}}
	p, _ := g.Position()
	e5, _ := p.ParseUCI("e7e5")
	g.Moves = append(g.Moves, e5)
	done := make(chan struct{})
	var pres engine.Result
	var perr error
	go func() {
		defer close(done)
		pres, perr = c.Search(context.Background(), g, engine.Limits{Ponder: true, WTime: 2 * time.Second, BTime: 2 * time.Second}, nil)
	}()
	select {
	case <-done:
		t.Fatal("ponder search ended before ponderhit")
	case <-time.After(150 * time.Millisecond):
	}
	c.PonderHit()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no bestmove after ponderhit")
	}
	if perr != nil || pres.BestMove == chess.NullMove {
		t.Errorf("ponder search: %v %+v", perr, pres)
	}
}

func TestClientGnuChess(t *testing.T) {
	// chess-tui's issue #74: gnuchess needs its --uci argument.
	c := clientExternal(t, "/usr/games/gnuchess", "--uci")
	if !strings.Contains(strings.ToLower(c.Name()), "gnu") {
		t.Errorf("Name = %q", c.Name())
	}
	if err := c.NewGame(); err != nil {
		t.Fatal(err)
	}
	g := clientStartGame()
	for i := 0; i < 2; i++ {
		var last engine.Info
		res, err := c.Search(context.Background(), g, engine.Limits{MoveTime: 150 * time.Millisecond}, func(in engine.Info) {
			if len(in.PV) > 0 {
				last = in
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(last.PV) == 0 || res.BestMove == chess.NullMove {
			t.Errorf("move %d: no PV info (%+v) or no bestmove", i+1, last)
		}
		g.Moves = append(g.Moves, res.BestMove)
	}
}

// TestClientStockfishChess960: given a Chess960 game, the client turns
// on Stockfish's UCI_Chess960 and reads its castling (king takes rook,
// b1h1 here) as the castling move.
func TestClientStockfishChess960(t *testing.T) {
	c := clientExternal(t, "/usr/games/stockfish")
	p, err := chess.ParseFEN("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var castle chess.Move
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if p.SAN(m) == "O-O" {
			castle = m
		}
	}
	if castle == chess.NullMove || castle.UCI(true) != "b1h1" {
		t.Fatalf("no O-O as b1h1 in %s", p.FEN())
	}
	res, err := c.Search(context.Background(), engine.Game{Start: p}, engine.Limits{Depth: 4, SearchMoves: []chess.Move{castle}}, func(engine.Info) {})
	if err != nil {
		t.Fatal(err)
	}
	if !c.chess960 {
		t.Error("UCI_Chess960 not set for a Chess960 game")
	}
	if res.BestMove != castle {
		t.Errorf("bestmove %s, want O-O (b1h1)", res.BestMove.UCI(true))
	}
}
