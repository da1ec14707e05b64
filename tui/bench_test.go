package tui

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// analysedModel is a 120×40 analysis board in a middlegame with five PV
// lines of twelve moves.
func analysedModel(b *testing.B, eng engine.Analyzer) Model {
	p, err := chess.ParseFEN("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9")
	if err != nil {
		b.Fatal(err)
	}
	m := New(testRenderer(termenv.TrueColor), eng, Options{Mode: Analysis, MultiPV: 5, Start: p})
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	for k := 0; k < 5; k++ {
		pv := []chess.Move{ml.Moves[k]}
		q := m.pos.Clone()
		var u chess.Undo
		q.MakeMove(ml.Moves[k], &u)
		for len(pv) < 12 {
			var l chess.MoveList
			q.GenerateLegal(&l)
			if l.N == 0 {
				break
			}
			pv = append(pv, l.Moves[l.N/2])
			q.MakeMove(l.Moves[l.N/2], &u)
		}
		m.panel.add(m.pos, engine.Info{Depth: 20, SelDepth: 31, MultiPV: k + 1, Score: engine.Score{CP: 35 - 10*k},
			Nodes: 12_345_678, NPS: 2_000_000, HashFull: 345, Time: 6 * time.Second, PV: pv})
	}
	m.analysisOn = true
	return m
}

// BenchmarkView120x40 draws the analysis board (target: ≤ 2 ms).
func BenchmarkView120x40(b *testing.B) {
	m := analysedModel(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkKeyToRender is a key press (step back and forth through the
// game) through Update and View while every core is busy, as when the
// engine searches on all threads (target: ≤ 16 ms).
func BenchmarkKeyToRender(b *testing.B) {
	m := analysedModel(b, nil)
	m = playAll2(m, "a3", "b6", "b3")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 0
			for ctx.Err() == nil {
				for i := range 100000 {
					x += i
				}
			}
			_ = x
		}()
	}
	keys := []tea.KeyMsg{{Type: tea.KeyLeft}, {Type: tea.KeyRight}}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		nm, _ := m.Update(keys[i%2])
		m = nm.(Model)
		_ = m.View()
		i++
	}
	b.StopTimer()
	cancel()
	wg.Wait()
}

func playAll2(m Model, moves ...string) Model {
	for _, mv := range moves {
		m, _ = typeMove(m, mv)
	}
	return m
}
