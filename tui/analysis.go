package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/tui/termtext"
)

// maxPV bounds the MultiPV lines the panel shows.
const maxPV = 5

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
	lines      [maxPV]*pvLine
	last       engine.Info // latest report with statistics
	thinking   bool
	// sideView shows scores from the side to move instead of White.
	sideView bool
}

// reset clears the panel for a new position.
func (a *analysisPanel) reset() {
	a.lines = [maxPV]*pvLine{}
	a.last = engine.Info{}
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
	if i.Kind() != engine.Line {
		return
	}
	k := max(1, i.MultiPV) - 1
	if k >= maxPV {
		return
	}
	white := i.Score
	if pos.SideToMove() == chess.Black {
		white = white.Negate()
	}
	a.lines[k] = &pvLine{info: i, white: white, san: pos.LineSAN(i.PV)}
}

// best is the first line, if any.
func (a *analysisPanel) best() *pvLine { return a.lines[0] }

// scoreText formats a score for display.
func scoreText(s engine.Score) string {
	t := s.String()
	switch s.Bound {
	case engine.Lower:
		t += "↑"
	case engine.Upper:
		t += "↓"
	}
	return t
}

// render draws the panel in width columns: a header and up to n PV lines.
func (a *analysisPanel) render(st *styles, pos *chess.Position, width, n int, on bool) []string {
	var out []string
	name := termtext.SafeLine(a.engineName)
	if name == "" {
		name = "engine"
	}
	state := "analysis off (a)"
	switch {
	case a.thinking:
		state = "thinking"
	case on:
		state = "analysing"
	}
	out = append(out, termtext.Cut(st.title.Render(name)+st.muted.Render(" · "+state), width))
	i := a.last
	if i.Depth == 0 && i.Nodes == 0 || !on && !a.thinking {
		// Nothing searched, or analysis turned off: the counters of the
		// last search would read as if it still ran.
		out = append(out, "")
	} else {
		work := fmt.Sprintf("depth %d/%d  %s nodes  %s nps", i.Depth, i.SelDepth, termtext.Count(i.Nodes), termtext.Count(i.NPS))
		more := fmt.Sprintf("hash %d%%  %s", i.HashFull/10, dur(i.Time))
		if len(work)+2+len(more) <= width {
			out = append(out, st.muted.Render(work+"  "+more))
		} else { // narrow panel: two lines rather than losing the tail
			out = append(out, st.muted.Render(termtext.Cut(work, width)), st.muted.Render(termtext.Cut(more, width)))
		}
	}
	for k := 0; k < n && k < maxPV; k++ {
		l := a.lines[k]
		if l == nil {
			out = append(out, "")
			continue
		}
		sc := l.white
		if a.sideView {
			sc = l.info.Score
		}
		score := fmt.Sprintf("%6s", scoreText(sc))
		rest := width - 7
		var b strings.Builder
		for _, s := range l.san {
			if b.Len() > 0 {
				if len([]rune(b.String()))+1+len([]rune(s)) > rest {
					break
				}
				b.WriteByte(' ')
			} else if len([]rune(s)) > rest {
				break
			}
			b.WriteString(s)
		}
		out = append(out, st.accent.Render(score)+" "+st.text.Render(b.String()))
	}
	return out
}

func dur(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
