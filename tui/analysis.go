package tui

import (
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/analysisview"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// maxPV bounds the MultiPV lines the panel shows.
const maxPV = 5

// MaxMultiPV is the most analysis lines the panel shows (Options.MultiPV
// above it shows this many): the command line's --multipv refuses more.
const MaxMultiPV = maxPV

// pvLine is one analysed line, ready to draw: its score from White's view
// and its moves in SAN with move numbers.
type pvLine struct {
	info  engine.Info
	white engine.Score
	san   []string
}

// analysisPanel shows the engine's live analysis of one position.
type analysisPanel struct {
	engineName string
	lines      live.Lines     // the search's lines, maxPV of them
	drawn      [maxPV]*pvLine // lines' lines ready to draw, nil where none
	last       engine.Info    // latest report with statistics
	// sideView shows scores from the side to move instead of White.
	sideView bool
	// viewSaid says another panel's title says whose view the scores
	// are from (the engine beside's panel: the board's engine's says it).
	viewSaid bool
	// found is the report in which the best line's mate was first seen:
	// once a mate is found a search races through depths to its limit
	// ("depth 124/124", which says nothing), so the panel shows where the
	// mate was found instead.
	found engine.Info
}

// newAnalysisPanel is an empty panel.
func newAnalysisPanel() analysisPanel {
	return analysisPanel{lines: live.Lines{Max: maxPV}}
}

// reset clears the panel for a new position.
func (a *analysisPanel) reset() {
	a.lines.Reset()
	a.drawn = [maxPV]*pvLine{}
	a.last = engine.Info{}
	a.found = engine.Info{}
}

// add takes a progress report of a search of pos.
func (a *analysisPanel) add(pos *chess.Position, i engine.Info) {
	if i.Kind() == engine.Text {
		return
	}
	if i.Nodes > 0 || i.Depth > 0 {
		// Progress-only reports (nodes, current move) carry no depth:
		// keep the depth of the last full line.
		if i.Depth == 0 {
			i.Depth, i.SelDepth = a.last.Depth, a.last.SelDepth
		}
		if i.HashFull == 0 {
			i.HashFull = a.last.HashFull
		}
		a.last = i
	}
	k, ok := a.lines.Add(i)
	if !ok {
		return
	}
	if k == 0 {
		switch {
		case i.Score.Mate == 0:
			a.found = engine.Info{}
		case a.found.Score.Mate != i.Score.Mate || i.Score.Bound != engine.Exact:
			a.found = i // a new mate, or a shorter one
		}
	}
	white := i.Score
	if pos.SideToMove() == chess.Black {
		white = white.Negate()
	}
	a.drawn[k] = &pvLine{info: i, white: white, san: movelist.Line(pos, i.PV)}
}

// keep drops the lines past the first n (fewer lines asked for).
func (a *analysisPanel) keep(n int) {
	a.lines.Keep(n)
	clear(a.drawn[min(n, maxPV):])
}

// best is the first line, if any.
func (a *analysisPanel) best() *pvLine { return a.drawn[0] }

// render draws the panel in width columns: a header and up to n PV lines.
// on says analysis is on; thinking that the engine searches for its move
// (the board's search says, boardSearch.thinking: the panel keeps no copy);
// file, if set, is the file's evaluation of pos, shown while nothing runs.
func (a *analysisPanel) render(st *view.Styles, pos *chess.Position, width, n int, on, thinking bool, file *analysisview.Recorded) []string {
	return a.view(pos, n, on, thinking, file).Render(st.Analysis(), width)
}

// view is what render draws.
func (a *analysisPanel) view(pos *chess.Position, n int, on, thinking bool, file *analysisview.Recorded) analysisview.View {
	// Whose view the scores are from is said wherever scores show.
	v := analysisview.View{Engine: a.engineName, State: "analysis off (a)", Position: pos, SideView: a.sideView,
		ShowView: (on || thinking) && !a.viewSaid, Rows: min(n, maxPV), Recorded: file}
	switch {
	case !pos.HasLegalMoves():
		v.State = "no moves to analyse" // mate or stalemate: nothing runs
	case thinking:
		v.State = "thinking"
	case on:
		v.State = "analysing"
	}
	// Nothing searched, or analysis turned off: the counters of the last
	// search would read as if it still ran.
	if i := a.last; (i.Depth != 0 || i.Nodes != 0) && (on || thinking) {
		v.Stats = &analysisview.Stats{Depth: i.Depth, SelDepth: i.SelDepth, Nodes: i.Nodes, NPS: i.NPS, HashFull: i.HashFull, Time: i.Time}
		if f := a.found; f.Score.Mate != 0 && f.Depth > 0 {
			v.Stats.Depth, v.Stats.SelDepth = f.Depth, f.SelDepth
			if on && !thinking {
				v.State = "mate found"
			}
		}
	}
	for _, l := range a.drawn[:v.Rows] {
		if l == nil {
			v.Lines = append(v.Lines, nil)
			continue
		}
		v.Lines = append(v.Lines, &analysisview.Line{Score: l.info.Score, SAN: l.san})
	}
	return v
}

// fileEval is the evaluation the game's file gives the shown position
// ([%eval] after its move, as lichess and squall review write it), while
// no engine runs and none of its lines is shown; nil otherwise.
func (m *Model) fileEval() *analysisview.Recorded {
	c := m.cur.Commands
	if c == nil || c.Eval.Kind == pgn.NoEval || m.panel.best() != nil || m.search.kind() != 0 {
		return nil
	}
	white := engine.Score{CP: c.Eval.Value}
	if c.Eval.Kind == pgn.Mate {
		white = engine.Score{Mate: c.Eval.Value}
	}
	if m.pos.SideToMove() == chess.Black {
		white = white.Negate()
	}
	return &analysisview.Recorded{Score: white, Depth: c.Eval.Depth}
}
