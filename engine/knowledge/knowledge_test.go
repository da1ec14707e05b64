package knowledge

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/engine/tablebase/tbtest"
)

// writeBook writes a one-entry book: 1.e4 from the start position.
func writeBook(t *testing.T) string {
	t.Helper()
	p := chess.NewPosition()
	m, err := p.ParseUCI("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	es := []book.Entry{{Key: book.Key(p), Move: book.EncodeMove(m), Weight: 1}}
	path := filepath.Join(t.TempDir(), "e4.bin")
	if err := os.WriteFile(path, book.Marshal(book.FromEntries(es).Entries()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBookAnswers: with OwnBook on, a search that asks for a move of a game
// is answered from the book without searching, with a Text report; analysis
// is searched; the wrapper lists its options after the engine's.
func TestBookAnswers(t *testing.T) {
	inner := &enginetest.Engine{Opts: []engine.Option{{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 64}}}
	var notes []string
	a := Wrap(inner, func(s string) { notes = append(notes, s) })
	opts := a.Options()
	if len(opts) < 2 || opts[0].Name != "Hash" || !slices.ContainsFunc(opts, func(o engine.Option) bool { return o.Name == OwnBook }) {
		t.Fatalf("options %v: want the engine's, then the wrapper's", opts)
	}
	if slices.ContainsFunc(opts, func(o engine.Option) bool { return o.Name == SyzygyProbeDepth }) {
		t.Error("SyzygyProbeDepth listed for an engine that cannot probe in its search")
	}
	for _, o := range [][2]string{{BookFile, writeBook(t)}, {OwnBook, "true"}, {"Hash", "8"}} {
		if err := a.SetOption(o[0], o[1]); err != nil {
			t.Fatal(err)
		}
	}
	if len(notes) != 1 || notes[0] == "" {
		t.Errorf("notes %q, want the book's", notes)
	}
	if err := a.SetOption(BookVariety, "101"); err == nil {
		t.Error("BookVariety 101 accepted")
	}
	g := engine.Game{Start: chess.NewPosition()}
	var texts []string
	info := func(in engine.Info) {
		if in.Kind() == engine.Text {
			texts = append(texts, in.String)
		}
	}
	res, err := a.Search(context.Background(), g, engine.Limits{Depth: 5}, info)
	if err != nil || res.BestMove.UCI(false) != "e2e4" || inner.Searches() != 0 || !slices.Equal(texts, []string{"book move e2e4"}) {
		t.Errorf("book search: %v %v, %d engine searches, reports %q", res.BestMove, err, inner.Searches(), texts)
	}
	if _, err := a.Search(context.Background(), g, engine.Limits{Infinite: true, Depth: 2}, nil); err != nil || inner.Searches() != 1 {
		t.Errorf("analysis: %v, %d engine searches, want 1", err, inner.Searches())
	}
}

// TestTablebaseRoot: in a position of the tables the engine searches only
// the moves that keep the result, and the root probes count as tbhits.
func TestTablebaseRoot(t *testing.T) {
	inner := &enginetest.Engine{}
	a := Wrap(inner, nil)
	if err := a.SetOption(SyzygyPath, tbtest.Dir()); err != nil {
		t.Fatal(err)
	}
	// Only Rb4 holds the draw against the queen.
	p, err := chess.ParseFEN("8/5q2/8/2K5/8/8/k7/1R6 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var last engine.Info
	res, err := a.Search(context.Background(), engine.Game{Start: p}, engine.Limits{Depth: 2}, func(in engine.Info) {
		if in.Depth > 0 {
			last = in
		}
	})
	if err != nil || res.BestMove == chess.NullMove {
		t.Fatalf("bestmove %v (%v)", res.BestMove, err)
	}
	tb, err := tablebase.Open(tbtest.Dir())
	if err != nil {
		t.Fatal(err)
	}
	ranked, _ := tb.RootMoves(p, true)
	var want []string
	for _, r := range ranked {
		if r.Rank == ranked[0].Rank {
			want = append(want, r.Move.UCI(false))
		}
	}
	var got []string
	if lims := inner.Limits(); len(lims) == 1 {
		for _, m := range lims[0].SearchMoves {
			got = append(got, m.UCI(false))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) >= len(ranked) || !slices.Equal(got, want) {
		t.Errorf("engine searched %v; the tables keep %v of %d moves", got, want, len(ranked))
	}
	if last.TBHits == 0 {
		t.Errorf("no tbhits in %+v", last)
	}
}

// TestPonderHitBeforeSearch: a ponderhit that comes before the ponder
// search has begun is not lost: the search takes it and ends as a timed one.
func TestPonderHitBeforeSearch(t *testing.T) {
	inner := &enginetest.Engine{WaitForStop: true, MaxDepth: 2}
	a := Wrap(inner, nil)
	a.PonderHit()
	done := make(chan error, 1)
	go func() {
		_, err := a.Search(context.Background(), engine.Game{Start: chess.NewPosition()}, engine.Limits{Ponder: true, WTime: time.Second, BTime: time.Second}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the ponder search waits for a ponderhit it was already given")
	}
}
