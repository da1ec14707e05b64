package serve

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
)

// leaderboardSize is how many standings a leaderboard reads; the screen
// shows those its rows hold.
const leaderboardSize = 50

// boardMsg is a leaderboard read from the store; chosen: its speed was
// chosen by boardSpeed (the screen opening), not by the player.
type boardMsg struct {
	speed  clock.Speed
	chosen bool
	board  []store.Standing
	err    error
}

// boardSpeed is the speed a leaderboard opens at, the lobby's and the
// leaderboard screen's: the one the lobby is filtered to (f; every speed
// for the screen), else the one with the most rated players — ties, and a
// server where nobody is rated yet, go to blitz, then the faster. It read
// blitz's alone, "nobody rated yet" on a server of bullet players.
func boardSpeed(ctx context.Context, st *store.Store, f speedFilter) (clock.Speed, error) {
	if f != 0 {
		return clock.Speed(f - 1), nil
	}
	var names []string
	for sp := clock.Bullet; sp <= clock.Classical; sp++ {
		names = append(names, sp.String())
	}
	n, err := st.RatedPlayers(ctx, names...)
	if err != nil {
		return clock.Blitz, fmt.Errorf("leaderboard: %w", err)
	}
	best := clock.Blitz
	for _, sp := range []clock.Speed{clock.Bullet, clock.Rapid, clock.Classical} {
		if n[sp.String()] > n[best.String()] {
			best = sp
		}
	}
	return best, nil
}

// standingRow is the i-th (from 0) of a leaderboard: rank, handle,
// rating (marked ? while provisional) and deviation.
func standingRow(i int, b store.Standing) string {
	return fmt.Sprintf("%2d. %-20s %5s ±%.0f", i+1, termtext.SafeLine(b.Handle), b.Rating.Shown(), b.Rating.RD)
}

// leaderboardModel is the best established ratings at each speed
// (`ssh -t host leaderboard`, or l at home), as the store keeps them.
type leaderboardModel struct {
	st    *store.Store
	sty   styles
	w, h  int
	speed clock.Speed
	// choose: the speed is still boardSpeed's to choose (until the
	// first board is read or the player picks one).
	choose bool
	board  []store.Standing
	read   bool // the speed's board has been read
	err    error
	sel    int // the chosen row: enter opens its profile
	// profile makes the profile screen of a handle (nil: none from here);
	// prof is the one open.
	profile func(handle string) *profileModel
	prof    *profileModel
	quitKey
}

func newLeaderboardModel(st *store.Store, r *lipgloss.Renderer, w, h int) *leaderboardModel {
	return &leaderboardModel{st: st, sty: sessionStyles(r), w: w, h: h, speed: clock.Blitz, choose: true}
}

func (m *leaderboardModel) Init() tea.Cmd { return m.load() }

// load reads the chosen speed's leaderboard, or boardSpeed's at the
// opening, as a command (store reads).
func (m *leaderboardModel) load() tea.Cmd {
	st, speed, choose := m.st, m.speed, m.choose
	m.read = false
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		if choose {
			var err error
			if speed, err = boardSpeed(ctx, st, 0); err != nil {
				return boardMsg{speed: speed, chosen: true, err: err}
			}
		}
		board, err := st.Leaderboard(ctx, speed.String(), leaderboardSize)
		return boardMsg{speed: speed, chosen: choose, board: board, err: err}
	}
}

func (m *leaderboardModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
	}
	if _, done := msg.(profileDoneMsg); done {
		m.prof = nil
		return m, nil
	}
	if _, ours := msg.(boardMsg); m.prof != nil && !ours {
		_, cmd := m.prof.Update(msg)
		return m, cmd
	}
	switch msg := msg.(type) {
	case boardMsg:
		if msg.chosen && m.choose {
			m.speed, m.choose = msg.speed, false
		}
		if msg.speed == m.speed {
			m.board, m.err, m.read = msg.board, msg.err, true
			m.sel = min(m.sel, max(len(m.board)-1, 0))
		}
	case sshd.ClosingMsg:
		//lint:ignore ST1005 shown as a sentence on the screen, as the other screens' shutdown line
		m.err = fmt.Errorf("Server shutting down: %s", string(msg))
		return m, tea.Tick(closingDelay, func(time.Time) tea.Msg { return tea.QuitMsg{} })
	case tea.KeyMsg:
		switch msg.String() {
		case "q", "esc", "ctrl+c":
			return m, tea.Quit
		case "right", "l", "tab":
			m.speed, m.choose = (m.speed+1)%(clock.Classical+1), false
			return m, m.load()
		case "left", "h", "shift+tab":
			m.speed, m.choose = (m.speed+clock.Classical)%(clock.Classical+1), false
			return m, m.load()
		case "r":
			return m, m.load()
		case "up", "k":
			m.sel = max(m.sel-1, 0)
		case "down", "j":
			m.sel = max(min(m.sel+1, len(m.board)-1), 0)
		case "enter":
			if m.profile != nil && m.sel < len(m.board) {
				m.prof = m.profile(m.board[m.sel].Handle)
				m.prof.within = true
				return m, m.prof.Init()
			}
		}
	}
	return m, nil
}

func (m *leaderboardModel) View() string {
	if m.prof != nil {
		return m.prof.View()
	}
	var speeds []string
	for s := clock.Bullet; s <= clock.Classical; s++ {
		if s == m.speed {
			speeds = append(speeds, m.sty.Selected.Render(s.String()))
		} else {
			speeds = append(speeds, m.sty.Muted.Render(s.String()))
		}
	}
	out := []string{m.sty.Title.Render("Squall · leaderboard"), strings.Join(speeds, " "), ""}
	keys := []string{"←/→ speed", "r refresh", m.quitHelp()}
	if m.profile != nil && len(m.board) > 0 {
		keys = []string{"←/→ speed", "↑/↓ choose", "enter profile", "r refresh", m.quitHelp()}
	}
	help := wrapHelp(keys, m.w)
	switch {
	case m.err != nil:
		out = append(out, m.sty.Err.Render(termtext.SafeLine(m.err.Error())))
	case !m.read:
		out = append(out, m.sty.Muted.Render("reading…"))
	case len(m.board) == 0:
		out = append(out, m.sty.Muted.Render("nobody rated at "+m.speed.String()+" yet"))
	default:
		for _, l := range wrapped("? a provisional rating (deviation above 110), ranked after the established ones", m.w) {
			out = append(out, m.sty.Muted.Render(l))
		}
	}
	rows := len(m.board)
	if m.h > 0 {
		rows = min(rows, max(m.h-len(out)-len(help)-1, 0))
	}
	top := listWindow(m.sel, len(m.board), rows)
	for i := top; i < top+rows; i++ {
		row := standingRow(i, m.board[i])
		if m.profile != nil && i == m.sel {
			row = m.sty.Selected.Render(row)
		}
		out = append(out, row)
	}
	out = append(out, "")
	for _, l := range help {
		out = append(out, m.sty.Muted.Render(l))
	}
	return fitScreen(out, m.w, m.h, 24, 6, "leaderboard", m.quitSentence())
}
