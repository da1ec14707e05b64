// Package tui is Squall's terminal chess board: play against the engine,
// watch engine games, analyse with live multi-PV lines. It is a bubbletea
// program built from small views (board, analysis panel, move list, clocks,
// status, dialogs) composed by the root Model. The engine is reached only
// through engine.Analyzer; its progress arrives as messages, and the model
// shares no mutable state with the searching goroutine. The model does no
// terminal I/O: the caller supplies the lipgloss renderer (one per SSH
// session) and runs the program.
package tui

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/level"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// Mode is who plays the game.
type Mode int

const (
	VsEngine  Mode = iota // a human against the engine
	Watch                 // engine against engine
	TwoHumans             // two humans at one keyboard
	Analysis              // free analysis: every move makes a variation
)

var modeNames = []string{"vs engine", "engine vs engine", "human vs human", "analysis"}

func (m Mode) String() string { return modeNames[m] }

// Levels are the strengths offered in the new-game dialog, weakest first:
// package level's, shared with the server's seats against Squall.
var Levels = level.All

// DefaultLevel is the moderate level `squall` starts with (1-based).
const DefaultLevel = level.Default

// Options configure a Model. The zero value is a game against the engine at
// the default level with the classic theme, the user playing White.
type Options struct {
	Theme    themes.Theme   // zero: classic
	Themes   []themes.Theme // user themes, offered by "t" after the built-in ones
	Letters  bool           // letters instead of piece glyphs
	NoColor  bool           // the terminal shows no colours: keep the monochrome theme
	Board    string         // "auto", "small" or "large"
	ScoreSTM bool           // scores from the side to move instead of White
	Mode     Mode
	Human    chess.Color // the human's side in VsEngine
	Level    int         // 1…len(Levels); 0 means DefaultLevel
	// MoveLimits, when not zero, replace the level's limits for the
	// engine's moves in games without a clock (fast watch games, tests).
	MoveLimits engine.Limits
	// Clock: base time and increment per move; zero base means no clock.
	Clock, Increment time.Duration
	MultiPV          int
	// Games opens games (from a PGN file) for analysis instead of a new
	// game: the first one, with a picker when there are several.
	Games []*Tree
	// List is a PGN file of several games whose game list (the Views
	// entry marked Games) opens at the start instead.
	List string
	// GamesErr is what reading Games reported (ReadPGN's error: the games
	// of the file left out), shown as a warning when the board opens.
	GamesErr error
	// Warnings are problems found while setting up (an engine that did not
	// start, a bad config or theme file), shown when the board opens: the
	// terminal's own output is hidden behind the board.
	Warnings []string
	// Settings are the saved preferences; when ConfigPath is set, changes
	// made in the program (theme, score view) are written back there.
	Settings   Settings
	ConfigPath string
	// EngineName is what the config calls the engine New is given
	// (EngineName of its spec: "squall", a configured name or its command
	// line): the engine picker (U) marks it, and its options are
	// remembered under it. "" stands for "squall".
	EngineName string
	// OpenEngine starts an engine for the engine picker (U) and for
	// Settings.Beside, with the board's own settings (threads, hash,
	// tables) and then sp's options. It is called off the Update
	// goroutine, and the board closes what it returns; nil offers no
	// other engine than the one New is given.
	OpenEngine func(ctx context.Context, sp spec.Spec) (engine.Analyzer, error)
	// Start is the start position of new games (nil: the standard one).
	Start *chess.Position
	// Autosave is the PGN file every game is saved to as it is played.
	Autosave string
	// Session is the file unsaved analysis is kept in as it changes, and
	// offered back from at the next start (session.go); "" keeps none.
	Session string
	// Clipboard copies text for the user (OSC 52 for a terminal or SSH).
	Clipboard func(string) error
	// Open reads a PGN file into games; nil when PGN reading is unavailable.
	Open func(path string) ([]*Tree, error)
	// Views are extra full-screen views the user can open by key.
	Views []view.Entry
	// Now is the clock (tests use a fake one); nil means time.Now.
	Now func() time.Time
	// QuitOnGameOver ends the program when a game ends (watching, tests).
	QuitOnGameOver bool
	// WatchPace is the least time between two moves of a watched engine
	// game, so that a person can follow it (the command line's default is
	// a second); zero plays them as fast as the engines move.
	WatchPace time.Duration

	// Publish, when set, is given the game on the board whenever its
	// moves or the shown position change (moves, navigation, a new game,
	// a PGN or FEN opened), never for engine progress alone: the line
	// through the shown position and the ply shown (0: the start). The
	// broadcast of `squall --broadcast` is one; it is called from Update,
	// so it must not block. After an error the board reports it once and
	// publishes no more.
	Publish func(g engine.Game, ply int) error

	// Book is an opening book whose moves for the shown position are
	// listed with their weights; in a game (not in analysis) the engine
	// plays from it while it has a move. BookLearning (nil: none) is its
	// learning side file: the never/always marks set from the board go
	// there, and each game's result is credited to the book moves the
	// engine played in it.
	Book         *book.Book
	BookLearning *book.Learning
	// BookRand is the random source of the engine's choice among book
	// moves (tests seed it); nil means one seeded unpredictably.
	BookRand *rand.Rand
	// Tablebase, when set, gives the Syzygy result of shown positions
	// with few enough pieces.
	Tablebase *tablebase.Tablebase
}

// focus is where key presses go.
type focus int

const (
	focusInput focus = iota // the move input
	focusBoard              // board and command keys
)

// Model is the root model.
type Model struct {
	opt    Options
	r      *lipgloss.Renderer
	st     *view.Styles
	eng    engine.Analyzer
	keys   keyMap
	help   help.Model
	width  int
	height int

	tree *Tree
	cur  *pgn.Node
	pos  *chess.Position

	mode   Mode
	human  chess.Color
	level  int
	over   bool
	banner string // result text when the game is over
	result string

	board boardView
	panel analysisPanel
	// besidePanel is the analysis of the engine beside the board's
	// (boardSearch.beside), drawn next to panel.
	besidePanel analysisPanel
	moves       movelist.List
	clock       clock.Clock
	input       textinput.Model
	focus       focus
	dialog      dialog
	views       []view.View
	viewKeys    []string // the key of each open view's entry ("" if none)
	// kept are views closed with a game to open (view.Kept), by their
	// entry's key, shown again by it; listPath is the file of the last
	// game list opened.
	kept     map[string]view.View
	listPath string
	// startList is Options.List until its list opens.
	startList string
	explorer  explorerPanel
	themeIdx  int

	analysisOn bool
	movedAt    time.Time // when the last move was played (watch pacing)
	multiPV    int
	hintWanted bool

	// search is the engine at work for the board.
	search boardSearch
	// scores are the engine's evaluations of the tree's positions seen in
	// this session, for the eval graph (evals.go).
	scores  scores
	ticking bool

	message  string
	msgIsErr bool

	autosavePrefix []byte
	saver          *autosaver
	autosaved      bool // the game in play has been written to the autosave
	quitting       bool

	// treeRev counts the changes to game trees (every tree, so a revision
	// is never reused); savedRev is the revision last in a file. Analysis
	// with treeRev != savedRev is unsaved (session.go).
	treeRev, savedRev int
	// sessions writes the session file; sessionWritten is the state it
	// was last written for, sessionKept that the file holds unsaved work.
	sessions       *autosaver
	sessionWritten sessionState
	sessionKept    bool
	// afterSave runs once the game is saved (quit, or open another game,
	// after "save" in the unsaved-analysis question).
	afterSave tea.Msg
	// queued are dialogs waiting for the open one to close.
	queued []dialog
	// lastNew are the new-game dialog's choices, as last made.
	lastNew newGameChoices
	// tab is the move box's completion: the prefix typed, the move last
	// completed to and its place among the candidates.
	tab struct {
		prefix, last string
		idx          int
	}

	// know is what the opening list, book and tablebase say about the
	// shown position, looked up when it is shown.
	know knowledge
	// bookPlay is the engine's book play in the game in progress.
	bookPlay bookPlayer
	// unpublished says the game or the shown position changed since the
	// last Publish; publishOff that Publish failed and is not called again.
	unpublished bool
	publishOff  bool
}

// New builds the root model. It starts nothing: Init does.
func New(r *lipgloss.Renderer, a engine.Analyzer, opt Options) Model {
	if opt.Theme.Name == "" {
		opt.Theme, _ = themes.ByName(themes.Default)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Level <= 0 || opt.Level > len(Levels) {
		opt.Level = DefaultLevel
	}
	if opt.EngineName == "" {
		opt.EngineName = spec.Builtin
	}
	if opt.MultiPV <= 0 {
		opt.MultiPV = 3
	}
	m := Model{
		opt: opt, r: r, eng: a, search: newBoardSearch(a, opt.EngineName), keys: newKeyMap(), help: help.New(),
		width: 80, height: 24,
		board: newBoardView(), multiPV: min(opt.MultiPV, maxPV), panel: newAnalysisPanel(),
		bookPlay: newBookPlayer(), kept: map[string]view.View{},
		scores: scores{},
	}
	if opt.BookRand != nil {
		m.bookPlay.rng = opt.BookRand
	}
	m.st = view.NewStyles(r, opt.Theme, opt.Letters)
	if opt.Autosave != "" {
		m.saver = newAutosaver(opt.Autosave)
	}
	if opt.Session != "" {
		m.sessions = newAutosaver(opt.Session)
	}
	m.help.Styles.ShortKey = m.st.Accent
	m.help.Styles.ShortDesc = m.st.Muted
	m.help.Styles.FullKey = m.st.Accent
	m.help.Styles.FullDesc = m.st.Muted
	m.help.Styles.ShortSeparator = m.st.Muted
	m.help.Styles.FullSeparator = m.st.Muted
	m.panel.sideView = opt.ScoreSTM
	m.besidePanel.sideView = opt.ScoreSTM
	if a != nil {
		m.panel.engineName = a.Name()
	}
	m.input = textinput.New()
	m.input.Prompt = "move> "
	m.input.Placeholder = "e4, nf3 … (a letter no move begins with is a key)"
	m.input.ShowSuggestions = true
	// Long enough for a FEN or a short game typed or pasted: they are
	// recognised and offered for loading (pasted), not cut to a move.
	m.input.CharLimit = 4096
	m.input.PromptStyle = m.st.Accent
	m.input.TextStyle = m.st.Text
	m.input.PlaceholderStyle = m.st.Muted
	m.input.CompletionStyle = m.st.Muted
	m.input.Cursor.Style = m.st.Text
	m.input.Focus()
	if a == nil && (opt.Mode == VsEngine || opt.Mode == Watch) {
		opt.Mode = TwoHumans // nothing to play against
		m.opt.Mode = TwoHumans
		m.message, m.msgIsErr = "no engine available: human vs human", true
	}
	m.lastNew = newGameChoices{mode: int(opt.Mode), level: opt.Level - 1, tc: timeControlIndex(opt.Clock, opt.Increment)}
	if opt.Human == chess.Black {
		m.lastNew.color = 1
	}
	if len(opt.Games) > 0 {
		m.loadGame(opt.Games[0])
		if opt.GamesErr != nil {
			path := "the file"
			if src := opt.Games[0].source; src != nil {
				path = src.file.path
			}
			m.queueDialog(problemsDialog(path, opt.GamesErr, opt.Games))
			m.setError(errors.New(loadProblems(opt.GamesErr, opt.Games)))
		}
		if len(opt.Games) > 1 {
			m.queueDialog(newPicker(opt.Games))
		}
	} else {
		m.startGame(opt.Mode, opt.Human, opt.Level-1, opt.Clock, opt.Increment, nil)
		// --mode analysis is asked-for analysis: it starts analysing.
		m.analysisOn = opt.Mode == Analysis && a != nil
	}
	if opt.Session != "" {
		if s, t, err := readSession(opt.Session); err != nil {
			opt.Warnings = append(opt.Warnings, "unsaved analysis left by an earlier run cannot be read: "+err.Error())
		} else if s != nil {
			m.offerSession(s, t)
		}
	}
	if len(opt.Warnings) > 0 {
		w := strings.Join(opt.Warnings, "; ")
		if m.message != "" && m.msgIsErr {
			w = m.message + "; " + w
		}
		m.setError(errors.New(w))
	}
	return m
}

// startMsg asks Update to start what the first position needs (the
// engine's move when it plays White, the clocks): Init cannot change the
// model, so it only sends this.
type startMsg struct{}

// Init starts the program.
func (m Model) Init() tea.Cmd {
	return tea.Batch(textinput.Blink, func() tea.Msg { return startMsg{} })
}

// Close stops any search and flushes the autosave; the host calls it after
// the program ends so that every goroutine returns and nothing is lost.
func (m Model) Close() {
	m.search.close()
	for _, v := range m.views { // views that search (suite, review) stop too
		closeView(v)
	}
	for _, v := range m.kept {
		closeView(v)
	}
	m.explorer.close()
	if m.saver != nil {
		m.saver.close()
	}
	if m.sessions != nil {
		m.sessions.close()
	}
}

// startGame resets the board for a new game.
func (m *Model) startGame(mode Mode, human chess.Color, level int, base, inc time.Duration, start *chess.Position) {
	if start == nil {
		start = m.opt.Start
	}
	if start == nil {
		start = chess.NewPosition()
	}
	m.tree = NewTree(start)
	m.scores = scores{}
	m.edited()
	m.markSaved(m.treeRev)
	m.autosaved = false
	m.mode, m.human, m.level = mode, human, level
	m.over, m.banner, m.result = false, "", "*"
	m.bookPlay.newGame()
	m.clock = clock.New(base, inc)
	m.tagGame()
	m.search.newGame = true
	m.hintWanted = false
	m.board.flipped = mode == VsEngine && human == chess.Black
	m.setCur(m.tree.Root)
	if mode != Analysis {
		m.autosavePrefix = readAutosavePrefix(m.opt.Autosave)
		m.clock.Resume(m.pos.SideToMove(), 0, m.opt.Now())
	}
	m.focus = focusInput
	m.input.Focus()
}

// loadGame opens a finished game for analysis.
func (m *Model) loadGame(t *Tree) {
	m.tree = t
	m.scores = scores{}
	m.edited()
	m.markSaved(m.treeRev)
	m.mode, m.over, m.banner = Analysis, false, ""
	m.bookPlay.newGame()
	m.result = t.Result
	m.clock = clock.New(0, 0)
	m.search.newGame = true
	m.setCur(t.Root)
}

func (m *Model) tagGame() {
	t := m.tree
	now := m.opt.Now()
	t.SetTag("Event", "Squall "+m.mode.String())
	t.SetTag("Site", "squall")
	t.SetTag("Date", now.Format("2006.01.02"))
	engineName := "Squall"
	if m.eng != nil {
		engineName = m.eng.Name()
	}
	white, black := "You", "You"
	switch m.mode {
	case VsEngine:
		if m.human == chess.White {
			black = engineName
		} else {
			white = engineName
		}
	case Watch:
		white, black = engineName, engineName
	case TwoHumans, Analysis:
		white, black = "?", "?"
	}
	t.SetTag("White", white)
	t.SetTag("Black", black)
	if m.clock.Enabled() {
		t.SetTag("TimeControl", m.clock.TimeControl().PGNTag())
	}
	m.tagPlayers()
}

// setCur shows node n: position, highlights and the move input's
// completions follow it.
func (m *Model) setCur(n *pgn.Node) {
	m.cur = n
	m.pos = m.tree.Position(n)
	m.panel.reset()
	m.besidePanel.reset()
	m.explorer.forget()
	m.board.selected = chess.NoSquare
	m.board.hint = chess.NullMove
	m.hintWanted = false
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	sugg := make([]string, 0, 2*ml.N)
	for _, mv := range ml.Slice() {
		sugg = append(sugg, m.pos.SAN(mv))
	}
	for _, mv := range ml.Slice() {
		sugg = append(sugg, mv.UCI(m.pos.Chess960()))
	}
	m.input.SetSuggestions(sugg)
	m.know = m.lookUp()
	m.unpublished = true
}

// Game returns the game tree (for tests and hosts).
func (m Model) Game() *Tree { return m.tree }

// Over reports whether the game has ended, and how.
func (m Model) Over() (bool, string) { return m.over, m.banner }
