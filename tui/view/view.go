// Package view is the seam between the board and the full-screen views it
// opens over itself (the suite runner, game review): the View interface,
// what a view gets from the board (Env), how a view opens and closes, and
// the small kit of styles and layout helpers the board and the views draw
// with alike. A view lives in its own package and imports this one; the
// board imports the views it offers.
package view

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/themes"
)

// View is a full-screen view the board can open over itself. While a view
// is open it receives every message (keys, window sizes, its own commands'
// results) and the board's own search is stopped, so the view may use
// Env.Runner freely. A view returns to the board by returning Close as a
// command.
type View interface {
	Init() tea.Cmd
	Update(tea.Msg) (View, tea.Cmd)
	// View draws the whole screen.
	View(width, height int) string
}

// Env is what a view gets from the board.
type Env struct {
	Renderer *lipgloss.Renderer
	Theme    themes.Theme
	// Runner is the engine the view searches with (nil without an
	// engine). It is the board's: a view's search starts only once the
	// board's has returned. A view starts its searches with Env.Start,
	// never Runner.Start, so that they run at full strength.
	Runner *live.Runner
	// Setup, if set, runs on the engine before each of the view's
	// searches (Start), before the job's own Setup: the board's engine may
	// be set weaker for the board's moves (a level's UCI_Elo), and the
	// board's Setup puts it back to full strength, since a review, a suite
	// or an analysis is only worth anything at full strength.
	Setup func(engine.Analyzer) error
	// Game is the line up to the shown position (a copy).
	Game engine.Game
	// PGN is the game on the board as it would be saved: tags, result,
	// start position and moves (nil when there is no board). It shares the
	// board's tree: a view reads it and never changes it, and a view that
	// evaluates its positions tells the board (ScoredMsg).
	PGN *pgn.Game
	// Path is the PGN file the board works in: the one its game came from,
	// else the one whose game list was last open ("" for neither).
	Path string
	// Player is the side the user played in the game (the board's game
	// against the engine), whose moves "your mistakes" are; nil when the
	// user played both sides or neither (analysis, a watched game).
	Player *chess.Color
	// Flipped: a view's board is drawn from Black's side (Black at the
	// bottom), as the board showing the game was, or the player whose
	// game it is had Black.
	Flipped bool
}

// ScoredMsg tells the board that a view's engine evaluated the position
// after Node, a node of Env.PGN's tree (its root for the start): the
// board keeps the evaluation for its eval graph, as it keeps its own
// analysis'. Where no board reads it (a server's review), it is dropped.
type ScoredMsg struct {
	Node *pgn.Node
	Eval pgn.Eval
}

// Start starts one of the view's searches on the Runner (which must not
// be nil), with Env.Setup run on the engine before the job's own Setup.
func (e Env) Start(job live.Job) *live.Search {
	if e.Setup != nil {
		own := job.Setup
		job.Setup = func(a engine.Analyzer) error {
			if err := e.Setup(a); err != nil {
				return err
			}
			if own != nil {
				return own(a)
			}
			return nil
		}
	}
	return e.Runner.Start(job)
}

// Entry makes a view available on the board: the key that opens it and
// the help text shown for that key.
type Entry struct {
	Key  string
	Help string
	New  func(Env) View
	// Games marks the view of a PGN file's games (Env.Path): the board
	// opens it, rather than one game, for a file that holds several.
	Games bool
}

// OpenMsg opens a view (a view may also open another one this way).
type OpenMsg struct{ View View }

// GameMsg opens a game of a file on the board (the game list's choice):
// the board closes the view, keeping it to show again by its key, and
// loads the game as it loads one it opened itself, asking first about
// unsaved analysis. Offset and End (-1: the end of the file) are the
// game's bytes, Number its place among the file's games; Sum, the file's
// SHA-256 as the view read it, lets the board save the game back in place
// while the file is unchanged (nil: the view has not read it all, and the
// game is saved elsewhere). Err is a problem reading the game: Game then
// holds its moves up to the problem.
type GameMsg struct {
	Game        *pgn.Game
	Err         error
	Path        string
	Number      int
	Offset, End int64
	Sum         *[32]byte
}

// Kept is a view the board keeps when it closes for a GameMsg and shows
// again, with the board's Env of then, when its key is pressed: the game
// list, whose file took a while to read. Reopen returns nil where the
// view should be built anew instead (the Env names another file).
type Kept interface {
	View
	Reopen(Env) View
}

// PositionMsg asks the game list, just opened by the board's Y, for the
// games of its file that reach the board's position (FEN), any move
// order.
type PositionMsg struct{ FEN string }

// CloseMsg closes the top view.
type CloseMsg struct{}

// Close is the command a view returns to go back.
func Close() tea.Msg { return CloseMsg{} }

// Program shows one view as a whole program (`squall suite --tui`):
// closing the view, or ctrl+c, ends the program.
type Program struct {
	v    View
	w, h int
}

// NewProgram builds the program model for a view.
func NewProgram(v View) *Program { return &Program{v: v, w: 80, h: 24} }

// Init starts the view.
func (p *Program) Init() tea.Cmd { return p.v.Init() }

// Update passes messages to the view; closing it quits.
func (p *Program) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case CloseMsg:
		return p, tea.Quit
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
	case tea.KeyMsg:
		if msg.String() == "ctrl+c" {
			p.Close()
			return p, tea.Quit
		}
	}
	var cmd tea.Cmd
	p.v, cmd = p.v.Update(msg)
	return p, cmd
}

// View draws the view.
func (p *Program) View() string { return p.v.View(p.w, p.h) }

// Close stops the view's background work (call it after the program ends).
func (p *Program) Close() {
	if c, ok := p.v.(interface{ Close() }); ok {
		c.Close()
	}
}
