package serve

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/analysisview"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// styles are a session's: the board's kit (view.Styles) built from that
// session's renderer, so each client gets colours for its own terminal,
// and the renderer, to build them again when the viewer picks another
// theme or pieces.
type styles struct {
	*view.Styles
	r *lipgloss.Renderer
}

func newStyles(r *lipgloss.Renderer, t themes.Theme, pieces boardview.Pieces) styles {
	return styles{Styles: view.NewStyles(r, t, pieces == boardview.Letters), r: r}
}

// sessionStyles are a session's first styles: the default theme, or the
// monochrome one on a terminal without colours (view.TerminalTheme), as
// the local board's.
func sessionStyles(r *lipgloss.Renderer) styles {
	th, _ := themes.ByName(themes.Default)
	return newStyles(r, view.TerminalTheme(r, th), boardview.Glyphs)
}

// Layout around a room's board: the header and help take chromeLines, and
// each square size needs the panel beside it to keep roomPanel's columns.
// The rooms ask more of the panel than the local board does (view.go's
// minPanel): their panel is the room's whole analysis and move list.
const chromeLines = 5

var roomPanel = view.PanelMins{30, 40, 45, 50}

// squareSize picks the largest square size whose board, eval bar and
// panel fit the window.
func squareSize(w, h int) boardview.Size {
	return boardview.Sizes()[view.SquareSize(w, h-chromeLines, roomPanel)]
}

// roomView is the room in m.h rows less reserved (the lines the session
// adds above and under it): the header, the board with the eval bar, the
// panel beside it or, in a narrow window, under it, and the help.
func (m *sessionModel) roomView(reserved int) string {
	s := m.shown()
	if s == nil {
		return "joining…"
	}
	kind := ""
	if m.room.ReadOnly() {
		kind = " · broadcast (read-only)"
	}
	header := m.st.Title.Render("Room "+termtext.SafeLine(s.Room)) + m.st.Muted.Render(fmt.Sprintf("  %s · %s%s · you are a%s", termtext.SafeLine(s.EngineName), plural.Count(m.room.Viewers(), "viewer"), kind, article(m.role)))
	help := "←/→ browse · end live · f flip · p panel · t theme · g pieces · esc rooms · " + m.quitHelp()
	if m.role == sshd.Owner && !m.room.ReadOnly() {
		help = "←/→ step · m move · a analyse · L FEN · f flip · p panel · t theme · g pieces · esc rooms · " + m.quitHelp()
	}
	helpRows := wrapHelp(strings.Split(help, " · "), m.w)
	for i, l := range helpRows {
		helpRows[i] = m.st.Muted.Render(l)
	}
	rows := m.h - reserved - 4 - len(helpRows) // the header, the help, and a blank row after and before them
	board := m.boardWithBar(s)
	var body string
	if m.panel {
		boardW := squareSize(m.w, m.h).Width() + view.EvalBarWidth
		if boardW+30 <= m.w {
			body = lipgloss.JoinHorizontal(lipgloss.Top, board, "  ", m.panelView(s, max(m.w-boardW, 20), rows))
		} else {
			boardH := strings.Count(board, "\n") + 1
			body = lipgloss.JoinVertical(lipgloss.Left, board, m.panelView(s, max(m.w, 20), rows-boardH))
		}
	} else {
		body = board
	}
	if m.browse >= 0 {
		header += m.st.Muted.Render(fmt.Sprintf(" · browsing ply %d of %d, live at %d (end)", s.Ply, len(s.Moves), m.snap.Ply))
	}
	return header + "\n\n" + body + "\n\n" + strings.Join(helpRows, "\n")
}

// boardKey identifies a drawn board: while the room analyses one position
// the board does not change, so it is drawn once, not on every update.
type boardKey struct {
	theme  string
	pieces boardview.Pieces
	fen    string
	last   chess.Move
	flip   bool
	size   boardview.Size
}

// boardView is the board drawn by the shared renderer, from this viewer's
// side, in this viewer's theme and size.
func (m *sessionModel) boardView(s *room.Snapshot) string {
	sc := boardview.NewScene(s.Position)
	sc.Flipped = m.flip
	if s.Ply > 0 {
		sc.Last = s.Moves[s.Ply-1]
	}
	sz := squareSize(m.w, m.h)
	k := boardKey{m.st.Theme.Name, m.st.Board.Pieces(), s.Position.FEN(), sc.Last, m.flip, sz}
	if k == m.boardKey && m.boardText != "" {
		return m.boardText
	}
	m.boardKey, m.boardText = k, m.st.Board.Board(sc, sz)
	return m.boardText
}

// boardWithBar is the board with the eval bar of the best line on its
// right, White's share growing from White's side as in the local TUI.
func (m *sessionModel) boardWithBar(s *room.Snapshot) string {
	lines := strings.Split(m.boardView(s), "\n")
	bar := m.st.Board.EvalBar(len(lines)-1, whiteChances(s), m.flip)
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i < len(bar) {
			b.WriteString(" " + bar[i] + bar[i] + "\n")
		}
	}
	return b.String()
}

// whiteChances is the eval bar's fill from the best line.
func whiteChances(s *room.Snapshot) float64 {
	if len(s.Lines) > 0 && len(s.Lines[0].PV) > 0 {
		return boardview.BarChances(s.Position, &s.Lines[0].Score)
	}
	return boardview.BarChances(s.Position, nil)
}

// panelView shows the analysis (analysisview, as the board draws it),
// then the game's moves in the rows left of height.
func (m *sessionModel) panelView(s *room.Snapshot, width, height int) string {
	v := analysisview.View{Engine: s.EngineName, State: "analysis stopped", Position: s.Position}
	if s.Analysing {
		v.State = "analysing"
	}
	for i, info := range s.Lines {
		if info.Kind() == engine.Text { // the room's engine failed
			v.Note = info.String
			continue
		}
		if v.Stats == nil {
			// Between lines (deep iterations take many seconds) the
			// counters come from the newer progress reports.
			st := analysisview.Stats{Depth: info.Depth, SelDepth: info.SelDepth, Nodes: info.Nodes, NPS: info.NPS, HashFull: info.HashFull, Time: info.Time}
			if p := s.Progress; p.Time > info.Time {
				st.Nodes, st.NPS, st.Time = p.Nodes, p.NPS, p.Time
				if s.CurrMoveSAN != "" {
					st.CurrMove = fmt.Sprintf("%d %s", p.CurrMoveNumber, s.CurrMoveSAN)
				}
			}
			v.Stats = &st
		}
		v.Lines = append(v.Lines, &analysisview.Line{Score: info.Score, SAN: movelist.Numbered(s.Position.GamePly(), s.LinesSAN[i])})
	}
	lines := v.Render(m.st.Analysis(), width)
	var b strings.Builder
	b.WriteString(strings.Join(lines, "\n") + "\n")
	rows := len(lines)
	// The game gets the rows left (at least one), the shown move kept in
	// view (issue 18, B10: a line cut at the panel's edge hid every move
	// after the tenth or so).
	b.WriteString("\n" + strings.Join(m.moves.rows(m.st, s.SANs, s.Start.GamePly(), s.Ply, "start position", width, max(1, height-rows-1)), "\n"))
	return b.String()
}
