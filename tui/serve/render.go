package serve

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/themes"
)

// styles are built once per session from that session's renderer, so each
// client gets colours for its own terminal. The board's colours come from a
// Squall theme (the TUI's themes); each viewer picks their own.
type styles struct {
	r      *lipgloss.Renderer
	theme  themes.Theme
	mono   bool // no colours: letters by case, dark squares dotted
	square map[squareKey]lipgloss.Style

	title, dim, warn, selected lipgloss.Style
}

type squareKey struct{ bg, fg themes.Color }

func newStyles(r *lipgloss.Renderer, t themes.Theme) styles {
	ad := func(a themes.Adaptive) lipgloss.TerminalColor {
		if a.Light == "" && a.Dark == "" {
			return lipgloss.NoColor{}
		}
		return lipgloss.AdaptiveColor{Light: string(a.Light), Dark: string(a.Dark)}
	}
	return styles{
		r:        r,
		theme:    t,
		mono:     t.Monochrome,
		square:   map[squareKey]lipgloss.Style{},
		title:    r.NewStyle().Foreground(ad(t.Accent)).Bold(true),
		dim:      r.NewStyle().Faint(true),
		warn:     r.NewStyle().Foreground(ad(t.Error)).Bold(true),
		selected: r.NewStyle().Reverse(true),
	}
}

// colourless reports whether a client's terminal cannot draw the board in
// colour (no colour, or only the 16 ANSI colours whose shades vary by
// terminal): it then gets the monochrome theme, as the local TUI does.
func colourless(r *lipgloss.Renderer) bool {
	p := r.ColorProfile()
	return p == termenv.Ascii || p == termenv.ANSI
}

// sq returns the style of a board cell, made once per colour pair.
func (s *styles) sq(bg, fg themes.Color) lipgloss.Style {
	k := squareKey{bg, fg}
	st, ok := s.square[k]
	if !ok {
		st = s.r.NewStyle().Bold(true)
		if bg != "" {
			st = st.Background(lipgloss.Color(bg))
		}
		if fg != "" {
			st = st.Foreground(lipgloss.Color(fg))
		}
		s.square[k] = st
	}
	return st
}

// squareSize picks the board's cell size from the window: large 5×2 cells
// when they fit beside the panel, else small 3×1.
func squareSize(w, h int) (cw, ch int) {
	if w >= 5*8+2+40 && h >= 2*8+6 {
		return 5, 2
	}
	return 3, 1
}

func (m *sessionModel) roomView() string {
	s := m.snap
	if s == nil {
		return "joining…"
	}
	header := m.st.title.Render("Room "+s.Room) + m.st.dim.Render(fmt.Sprintf("  %s · %s · you are a%s", s.EngineName, plural(m.room.Viewers(), "viewer"), article(m.role)))
	board := m.boardView(s)
	var body string
	if m.panel {
		panelW := max(m.w-lipgloss.Width(board)-2, 20)
		panel := m.panelView(s, panelW)
		if lipgloss.Width(board)+2+30 <= m.w {
			body = lipgloss.JoinHorizontal(lipgloss.Top, board, "  ", panel)
		} else {
			body = lipgloss.JoinVertical(lipgloss.Left, board, panel)
		}
	} else {
		body = board
	}
	help := "f flip · p panel · t theme · esc rooms · q quit"
	if m.role == Owner {
		help = "←/→ navigate · m move · a analyse · L load FEN · " + help
	}
	return header + "\n\n" + body + "\n\n" + m.st.dim.Render(help)
}

// boardKey identifies a drawn board: while the room analyses one position
// the board does not change, so it is drawn once, not on every update.
type boardKey struct {
	theme     string
	fen       string
	ply       int
	flip      bool
	cellW     int
	moveCount int
}

func (m *sessionModel) boardView(s *Snapshot) string {
	cw, _ := squareSize(m.w, m.h)
	k := boardKey{m.st.theme.Name, s.Position.FEN(), s.Ply, m.flip, cw, len(s.Moves)}
	if k == m.boardKey && m.boardText != "" {
		return m.boardText
	}
	m.boardKey, m.boardText = k, m.drawBoard(s)
	return m.boardText
}

func (m *sessionModel) drawBoard(s *Snapshot) string {
	cw, ch := squareSize(m.w, m.h)
	p := s.Position
	var last chess.Move
	if s.Ply > 0 {
		last = s.Moves[s.Ply-1]
	}
	check := chess.NoSquare
	if p.InCheck() {
		check = p.KingSquare(p.SideToMove())
	}
	var b strings.Builder
	for row := 0; row < 8; row++ {
		rank := 7 - row
		if m.flip {
			rank = row
		}
		for line := 0; line < ch; line++ {
			label := "  "
			if line == ch/2 {
				label = fmt.Sprintf("%d ", rank+1)
			}
			b.WriteString(m.st.dim.Render(label))
			for col := 0; col < 8; col++ {
				file := col
				if m.flip {
					file = 7 - col
				}
				b.WriteString(m.cell(p, chess.MakeSquare(file, rank), last, check, cw, line == ch/2))
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString("  ")
	for col := 0; col < 8; col++ {
		file := col
		if m.flip {
			file = 7 - col
		}
		b.WriteString(m.st.dim.Render(fmt.Sprintf("%-*s", cw, strings.Repeat(" ", cw/2)+string(rune('a'+file)))))
	}
	return b.String()
}

// cell draws one line of one square, cw cells wide; mid is the line that
// holds the piece. Pieces are FEN letters (upper case White) in the theme's
// piece colours, so the board reads the same with or without colour.
func (m *sessionModel) cell(p *chess.Position, sq chess.Square, last chess.Move, check chess.Square, cw int, mid bool) string {
	t := m.st.theme
	light := (sq.File()+sq.Rank())%2 == 1
	isLast := last != chess.NullMove && (sq == last.From() || sq == lastTo(last))
	bg := t.Dark
	switch {
	case sq == check:
		bg = t.Check
	case isLast && light:
		bg = t.LastLight
	case isLast:
		bg = t.LastDark
	case light:
		bg = t.Light
	}
	fill := " "
	if m.st.mono && !light {
		fill = "."
	}
	cells := []byte(strings.Repeat(fill, cw))
	fg := t.WhitePiece
	if mid {
		if pc := p.Piece(sq); pc != chess.NoPiece {
			if pc.Color() == chess.Black {
				fg = t.BlackPiece
			}
			cells[cw/2] = pc.Letter()
		}
		// Without colour, brackets mark what the background would.
		switch {
		case m.st.mono && sq == check:
			cells[0], cells[cw-1] = '>', '<'
		case m.st.mono && isLast:
			cells[0], cells[cw-1] = '[', ']'
		}
	}
	if m.st.mono {
		return string(cells)
	}
	return m.st.sq(bg, fg).Render(string(cells))
}

// lastTo is where a move's piece lands (the king's square for castling,
// which chess.Move stores as the rook's square).
func lastTo(mv chess.Move) chess.Square {
	if mv.IsCastle() {
		return mv.KingTo()
	}
	return mv.To()
}

// panelView shows the analysis: a status line, then one line per PV with
// its score from White's point of view (as lichess does).
func (m *sessionModel) panelView(s *Snapshot, width int) string {
	var b strings.Builder
	state := "analysis stopped"
	if s.Analysing {
		state = "analysing"
	}
	b.WriteString(m.st.title.Render(s.EngineName) + " " + m.st.dim.Render(state) + "\n")
	if len(s.Lines) > 0 {
		top := s.Lines[0]
		nodes, nps, el, cur := top.Nodes, top.NPS, top.Time, ""
		// Between lines (deep iterations take many seconds) the counters
		// come from the newer progress reports.
		if p := s.Progress; p.Time > top.Time {
			nodes, nps, el = p.Nodes, p.NPS, p.Time
			if s.CurrMoveSAN != "" {
				cur = fmt.Sprintf("  move %d %s", p.CurrMoveNumber, s.CurrMoveSAN)
			}
		}
		line := fmt.Sprintf("depth %d/%d  nodes %s  nps %s  hash %d%%  %.1fs%s",
			top.Depth, top.SelDepth, humanCount(nodes), humanCount(nps), top.HashFull/10, el.Seconds(), cur)
		b.WriteString(truncate(line, width) + "\n")
	}
	for i, info := range s.Lines {
		if info.String != "" {
			b.WriteString(m.st.warn.Render(info.String) + "\n")
			continue
		}
		score := info.Score
		if s.Position.SideToMove() == chess.Black {
			score = score.Negate()
		}
		line := fmt.Sprintf("%6s  %s", score.String(), s.LinesSAN[i])
		b.WriteString(truncate(line, width) + "\n")
	}
	b.WriteString("\n" + truncate(moveListLine(s), width))
	return b.String()
}

// pvSAN writes a PV in SAN with move numbers ("12... Nf6 13. e5").
func pvSAN(p *chess.Position, pv []chess.Move) string {
	q := p.Clone()
	var b strings.Builder
	var u chess.Undo
	for i, mv := range pv {
		if !q.IsLegal(mv) {
			break
		}
		if q.SideToMove() == chess.White {
			fmt.Fprintf(&b, "%d. ", q.FullmoveNumber())
		} else if i == 0 {
			fmt.Fprintf(&b, "%d... ", q.FullmoveNumber())
		}
		b.WriteString(q.SAN(mv) + " ")
		q.MakeMove(mv, &u)
	}
	return strings.TrimSpace(b.String())
}

// moveListLine shows the game's moves up to the shown ply.
func moveListLine(s *Snapshot) string {
	if s.Ply == 0 {
		return "start position"
	}
	return s.GameSAN
}

// plural writes a count of things: "1 viewer", "3 viewers".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func truncate(s string, w int) string {
	r := []rune(s)
	if len(r) <= w {
		return s
	}
	if w <= 1 {
		return string(r[:max(w, 0)])
	}
	return string(r[:w-1]) + "…"
}

func humanCount(n uint64) string {
	switch {
	case n >= 1_000_000_000:
		return fmt.Sprintf("%.1fG", float64(n)/1e9)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
