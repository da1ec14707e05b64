// Package analysisview draws the engine's analysis of a position: a title
// (engine and state), a stats line and one row per principal variation
// with its score. The board and the SSH rooms both draw it through View,
// so the two screens cannot drift apart (they had: bound arrows on one,
// not the other; lines cut mid-move on one; two stats formats).
package analysisview

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/termtext"
)

// Styles are the panel's colours, each the caller's.
type Styles struct {
	Title, Muted, Score, Text, Warn lipgloss.Style
}

// Stats are the counters of the running or last search.
type Stats struct {
	Depth, SelDepth int
	Nodes, NPS      uint64
	HashFull        int // per mille
	Time            time.Duration
	// CurrMove is the root move being searched, in SAN with its number
	// ("2 d4"), when a progress report is newer than the lines.
	CurrMove string
}

// Line is one principal variation.
type Line struct {
	// Score is from the side to move's point of view, as engines report.
	Score engine.Score
	// SAN is the line with move numbers ("3… Nf6", "4. d4"): made by the
	// caller once per report (movelist.Line, the move lists' numbering).
	SAN []string
}

// View is what the panel shows.
type View struct {
	Engine string // the engine's name: outside text, made safe here
	State  string // "analysing", "analysis off (a)", "thinking" …
	// Stats is nil when there is nothing to count (no search yet, or
	// analysis off): its row stays blank so the lines do not jump.
	Stats *Stats
	// Recorded, if set, is an evaluation of the position the game's file
	// gives ([%eval]), drawn in the stats row while there are no stats,
	// with whose view it is from.
	Recorded *Recorded
	// Note, if set, is a warning drawn under the stats (an engine error).
	Note string
	// Lines are the variations, best first; a nil entry is a line not
	// reported yet and draws a blank row. Rows, if above len(Lines),
	// reserves blank rows for lines still to come.
	Lines []*Line
	Rows  int
	// Position is the analysed position; its side to move turns scores
	// to White's view unless SideView is set.
	Position *chess.Position
	SideView bool
	// ShowView names in the title whose view the scores are from, where
	// the viewer can switch it (the board's v).
	ShowView bool
}

// Recorded is an evaluation a game's file gives a position.
type Recorded struct {
	// Score is from the side to move's point of view, as Line's.
	Score engine.Score
	Depth int // 0: not given
}

// statsOneRow is the narrowest panel whose stats take one row. The choice
// depends on the width alone, never on the numbers: as counters grew, the
// stats went from one row to two and pushed the lines down (issue 32).
const statsOneRow = 72

// ScoreText is a score as the panel writes it: "+0.35", "#-3", with ↑ or ↓
// for a lower or upper bound (an aspiration window that failed).
func ScoreText(s engine.Score) string {
	t := s.String()
	switch s.Bound {
	case engine.Lower:
		t += "↑"
	case engine.Upper:
		t += "↓"
	}
	return t
}

// Duration writes a search's time: tenths of a second under a minute.
func Duration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// Render draws the panel in width columns.
func (v View) Render(st Styles, width int) []string {
	name := termtext.SafeLine(v.Engine)
	if name == "" {
		name = "engine"
	}
	tail := " · " + v.State
	switch {
	case v.ShowView && v.SideView:
		tail += " · mover's view"
	case v.ShowView:
		tail += " · White's view"
	}
	// The engine's name gives way first: state and view always show.
	name = termtext.Cut(name, max(6, width-len([]rune(tail))))
	out := []string{termtext.Cut(st.Title.Render(name)+st.Muted.Render(tail), width)}
	out = append(out, v.stats(st, width)...)
	if v.Note != "" {
		out = append(out, st.Warn.Render(termtext.Cut(termtext.SafeLine(v.Note), width)))
	}
	for k := 0; k < max(len(v.Lines), v.Rows); k++ {
		if k >= len(v.Lines) || v.Lines[k] == nil {
			out = append(out, "")
			continue
		}
		out = append(out, v.line(st, v.Lines[k], width))
	}
	return out
}

// stats is one row, or two in a narrow panel rather than losing the tail;
// blank rows as many when there is nothing to count, so nothing moves.
func (v View) stats(st Styles, width int) []string {
	s := v.Stats
	if s == nil {
		first := ""
		if r := v.Recorded; r != nil {
			// Whose view it is from is said here, not in the title,
			// which has no room for it beside "analysis off (a)".
			text := "file eval " + ScoreText(v.viewed(r.Score)) + " · White's view"
			if v.SideView {
				text = "file eval " + ScoreText(v.viewed(r.Score)) + " · mover's view"
			}
			if r.Depth > 0 {
				text += fmt.Sprintf(" · depth %d", r.Depth)
			}
			first = st.Muted.Render(termtext.Cut(text, width))
		}
		if width >= statsOneRow {
			return []string{first}
		}
		return []string{first, ""}
	}
	work := fmt.Sprintf("depth %d/%d  %s nodes  %s nps", s.Depth, s.SelDepth, termtext.Count(s.Nodes), termtext.Count(s.NPS))
	more := fmt.Sprintf("hash %d%%  %s", s.HashFull/10, Duration(s.Time))
	if s.CurrMove != "" {
		more += "  move " + s.CurrMove
	}
	if width >= statsOneRow {
		return []string{st.Muted.Render(termtext.Cut(work+"  "+more, width))}
	}
	return []string{st.Muted.Render(termtext.Cut(work, width)), st.Muted.Render(termtext.Cut(more, width))}
}

// viewed is a score from the side to move's point of view as the panel
// shows it: from White's unless SideView.
func (v View) viewed(sc engine.Score) engine.Score {
	if !v.SideView && v.Position != nil && v.Position.SideToMove() == chess.Black {
		return sc.Negate()
	}
	return sc
}

// line is a score and as many whole moves as fit.
func (v View) line(st Styles, l *Line, width int) string {
	sc := v.viewed(l.Score)
	rest := width - 7
	var b strings.Builder
	n := 0 // runes in b
	for _, s := range l.SAN {
		k := len([]rune(s))
		if n > 0 {
			if n+1+k > rest {
				break
			}
			b.WriteByte(' ')
			n++
		} else if k > rest {
			break
		}
		b.WriteString(s)
		n += k
	}
	return st.Score.Render(fmt.Sprintf("%6s", ScoreText(sc))) + " " + st.Text.Render(b.String())
}
