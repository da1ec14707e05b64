package tui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/termtext"
)

// View is a full-screen view the root model can open over the board: the
// suite runner, game review and the like. While a view is open it receives
// every message (keys, window sizes, its own commands' results) and the
// board's own search is stopped, so the view may use Env.Runner freely. A
// view returns to the board by returning CloseView as a command.
type View interface {
	Init() tea.Cmd
	Update(tea.Msg) (View, tea.Cmd)
	// View draws the whole screen.
	View(width, height int) string
}

// Env is what a view gets from the root model.
type Env struct {
	Renderer *lipgloss.Renderer
	Theme    themes.Theme
	// Runner runs the view's searches (nil without an engine). It is the
	// board's: a view's search starts only once the board's has returned.
	Runner *live.Runner
	// Game is the line up to the shown position (a copy).
	Game engine.Game
	// Tree is the game on the board; a view may read it but must not
	// change it (it belongs to the root model).
	Tree *Tree
}

// ViewEntry makes a view available: the key that opens it from the board
// and the help text shown for that key.
type ViewEntry struct {
	Key  string
	Help string
	New  func(Env) View
}

// OpenViewMsg opens a view (a view may also open another one this way).
type OpenViewMsg struct{ View View }

// closeViewMsg closes the top view.
type closeViewMsg struct{}

// CloseView is the command a view returns to go back.
func CloseView() tea.Msg { return closeViewMsg{} }

func (m *Model) env() Env {
	return Env{Renderer: m.r, Theme: m.st.theme, Runner: m.search.runner, Game: m.tree.EngineGame(m.cur), Tree: m.tree}
}

// openView pushes a view, stopping the board's search first.
func (m *Model) openView(v View) tea.Cmd {
	m.views = append(m.views, v)
	m.search.stop()
	return tea.Batch(v.Init(), func() tea.Msg { return tea.WindowSizeMsg{Width: m.width, Height: m.height} })
}

// searchTitle is the first line of a view that searches positions one by
// one: its title, then the engine and the limits of each search.
func searchTitle(st *styles, title string, r *live.Runner, lim engine.Limits) string {
	name := "no engine"
	if r != nil {
		name = termtext.SafeLine(r.Analyzer().Name())
	}
	return st.title.Render(title) + st.muted.Render(fmt.Sprintf("  %s · %s", name, lim.String()))
}
