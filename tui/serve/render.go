package serve

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/squall-chess/squall/engine/chess"
)

// styles are built once per session from that session's renderer, so each
// client gets colours for its own terminal.
type styles struct {
	r                     *lipgloss.Renderer
	light, dark, lastMove lipgloss.Style
	whitePiece, blackPc   lipgloss.Style
	title, dim, warn      lipgloss.Style
	selected              lipgloss.Style
}

func newStyles(r *lipgloss.Renderer) styles {
	return styles{
		r:          r,
		light:      r.NewStyle().Background(lipgloss.Color("#c8b28a")),
		dark:       r.NewStyle().Background(lipgloss.Color("#8a6a46")),
		lastMove:   r.NewStyle().Background(lipgloss.Color("#b9a94a")),
		whitePiece: r.NewStyle().Foreground(lipgloss.Color("#ffffff")).Bold(true),
		blackPc:    r.NewStyle().Foreground(lipgloss.Color("#000000")).Bold(true),
		title:      r.NewStyle().Bold(true),
		dim:        r.NewStyle().Faint(true),
		warn:       r.NewStyle().Foreground(lipgloss.Color("#e05050")).Bold(true),
		selected:   r.NewStyle().Reverse(true),
	}
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
	header := m.st.title.Render("Room "+s.Room) + m.st.dim.Render(fmt.Sprintf("  %s · %d viewers · you are a%s", s.EngineName, m.room.Viewers(), article(m.role)))
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
	help := "f flip · p panel · esc rooms · q quit"
	if m.role == Owner {
		help = "←/→ navigate · m move · a analyse · L load FEN · " + help
	}
	return header + "\n\n" + body + "\n\n" + m.st.dim.Render(help)
}

// boardKey identifies a drawn board: while the room analyses one position
// the board does not change, so it is drawn once, not on every update.
type boardKey struct {
	fen       string
	ply       int
	flip      bool
	cellW     int
	moveCount int
}

func (m *sessionModel) boardView(s *Snapshot) string {
	cw, _ := squareSize(m.w, m.h)
	k := boardKey{s.Position.FEN(), s.Ply, m.flip, cw, len(s.Moves)}
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
				sq := chess.MakeSquare(file, rank)
				st := m.st.dark
				if (file+rank)%2 == 1 {
					st = m.st.light
				}
				if last != chess.NullMove && (sq == last.From() || sq == last.To() || (last.IsCastle() && sq == last.KingTo())) {
					st = m.st.lastMove
				}
				if pc := p.Piece(sq); pc != chess.NoPiece && line == ch/2 {
					pad := strings.Repeat(" ", cw/2)
					ps := m.st.whitePiece
					if pc.Color() == chess.Black {
						ps = m.st.blackPc
					}
					b.WriteString(st.Render(pad) + ps.Inherit(st).Render(string(pc.Type().Letter())) + st.Render(pad))
					continue
				}
				b.WriteString(st.Render(strings.Repeat(" ", cw)))
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
		b.WriteString(fmt.Sprintf("depth %d/%d  nodes %s  nps %s  hash %d%%  %.1fs\n",
			top.Depth, top.SelDepth, humanCount(top.Nodes), humanCount(top.NPS), top.HashFull/10, top.Time.Seconds()))
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
