package tui

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

// loadedMsg carries the games read from a PGN file.
type loadedMsg struct {
	path  string
	games []*Tree
	err   error
}

// Update handles one message; what changed the game or the shown position
// is then published (Options.Publish).
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := m.update(msg)
	m.syncSession()
	if m.unpublished {
		m.publish()
	}
	if probe := m.askTables(); probe != nil {
		cmd = tea.Batch(cmd, probe)
	}
	if look := m.askExplorer(); look != nil {
		cmd = tea.Batch(cmd, look)
	}
	if m.startList != "" && m.dialog == nil && len(m.queued) == 0 {
		// The game list of squall FILE.pgn, after the questions the
		// start asks (resume the unsaved analysis?), which it would hide.
		cmd = tea.Batch(cmd, m.openList(m.startList))
		m.startList = ""
	}
	return m, cmd
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
		m.fitHelp()
	case startMsg:
		m.startList = m.opt.List // opened once no question is up (Update)
		cmd := tea.Batch(m.sync(), m.startTicking(), m.startBeside())
		return m, cmd
	case view.GameMsg:
		m.listPath = msg.Path
		cmd := m.handleGame(msg)
		return m, cmd
	case livecmd.Msg:
		if msg.Gen == m.search.gen() { // else a view's, delivered below
			cmd := m.handleBatch(msg.Batch)
			return m, cmd
		}
	case besideMsg:
		cmd := m.handleBeside(msg)
		return m, cmd
	case engineOpenedMsg:
		cmd := m.engineOpened(msg)
		return m, cmd
	case bookMsg:
		cmd := m.handleBook(msg)
		return m, cmd
	case tbMsg:
		m.handleTB(msg)
		return m, nil
	case explorerMsg:
		m.handleExplorer(msg)
		return m, nil
	case pacedMoveMsg:
		cmd := m.handlePaced(msg)
		return m, cmd
	case tickMsg:
		cmd := m.handleTick()
		return m, cmd
	case savedMsg:
		if msg.err != nil {
			m.setError(msg.err)
		} else {
			m.setMessage("saved " + msg.path)
		}
		if msg.game {
			cmd := m.saved(msg.rev, msg.err)
			return m, cmd
		}
		return m, nil
	case replacedMsg:
		m.handleReplaced(msg)
		cmd := m.saved(msg.rev, msg.err)
		return m, cmd
	case existsMsg:
		g := msg.g
		m.dialog = &choiceDialog{
			title:    "Replace file?",
			question: termtext.SafeLine(msg.path) + " exists. Replace it with this game alone?",
			choices: []choice{
				{key: "y", label: "replace", answer: replaceFileMsg{path: msg.path, g: g, rev: msg.rev}},
				{key: "n", label: "cancel", answer: notSavedMsg{}},
			},
			cancel: notSavedMsg{},
		}
		return m, nil
	case loadedMsg:
		cmd := m.handleLoaded(msg)
		return m, cmd
	case listFileMsg:
		cmd := m.openList(msg.path)
		return m, cmd
	case editedMsg:
		if msg.err != nil {
			m.setError(fmt.Errorf("comment not changed: %w", msg.err))
			return m, nil
		}
		m.setComment(msg.n, msg.text, pgn.CommentText(msg.n))
		return m, nil
	case pathsMsg:
		if d, ok := m.dialog.(*promptDialog); ok {
			d.completed(msg)
		}
		return m, nil
	case view.ScoredMsg:
		m.scores.keep(msg.Node, msg.Eval) // a review's, for the eval graph
		return m, nil
	case view.OpenMsg:
		cmd := m.openView(msg.View)
		return m, cmd
	case view.CloseMsg:
		m.popView()
		cmd := m.sync()
		return m, cmd
	}
	if len(m.views) > 0 {
		top := len(m.views) - 1
		if k, ok := msg.(tea.KeyMsg); ok && k.String() == "ctrl+c" {
			cmd := m.requestQuit("ctrl+c")
			return m, cmd
		}
		v, cmd := m.views[top].Update(msg)
		m.views[top] = v
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		cmd := m.handleKey(msg)
		return m, cmd
	case tea.MouseMsg:
		cmd := m.handleMouse(msg)
		return m, cmd
	}
	if m.focus == focusInput && m.dialog == nil {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

// quit stops the search and saves the game before the program ends:
// quitting mid-game loses nothing.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	m.search.stop()
	return tea.Sequence(m.autosave(), tea.Quit)
}

func (m *Model) handleKey(k tea.KeyMsg) tea.Cmd {
	if k.String() == "ctrl+c" {
		return m.requestQuit("ctrl+c")
	}
	if k.Alt && k.Type == tea.KeyRunes && m.dialog == nil {
		// Esc and a key typed quickly arrive as one alt+key: the user
		// meant board keys, then that key.
		k.Alt = false
		if m.focus == focusInput {
			m.focus = focusBoard
			m.input.Blur()
		}
	}
	if _, ok := m.geometry(); !ok && len(m.views) == 0 {
		// The too-small screen shows no board and no input: q and esc
		// quit from it (they were typed into the hidden move box). It
		// cannot show a question either; nothing is lost all the same
		// (the autosave, the session file).
		switch k.String() {
		case "q", "esc":
			return m.quit()
		}
		return nil
	}
	if m.msgIsErr && m.dialog == nil {
		// An error stays until the next key: then it has been read, and
		// the key's own result (or nothing) takes its place.
		m.message, m.msgIsErr = "", false
	}
	if m.dialog != nil {
		d := m.dialog
		done, answer, cmd := d.key(k)
		if answer != nil {
			// Acted on now, as the dialog's key: what it opens (another
			// question) replaces the dialog.
			cmd = tea.Batch(cmd, m.answer(answer))
		}
		if done && m.dialog == d {
			m.dialog = nil
		}
		if m.dialog == nil && len(m.queued) > 0 {
			m.dialog, m.queued = m.queued[0], m.queued[1:]
		}
		return cmd
	}
	if m.focus == focusInput {
		return m.inputKey(k)
	}
	return m.boardKey(k)
}

// inputKey handles keys while the move input has focus: text goes to the
// input; navigation keys still move through the game.
func (m *Model) inputKey(k tea.KeyMsg) tea.Cmd {
	// No focus trap: from the empty move box, a key that is a board
	// command and cannot begin any legal move here runs the command (s
	// saves, q quits, n starts a game). A file letter that begins a move
	// (a for a3) is typed; Enter on it alone then runs its command.
	if m.input.Value() == "" && m.commandKey(k) && !m.beginsMove(k.Runes[0]) {
		return m.boardKey(k)
	}
	if k.Paste || len(k.Runes) > 1 {
		// A paste arrives whole: a FEN or a game is offered for loading,
		// never cut at the move box's length and read as a move.
		if cmd, ok := m.pasted(string(k.Runes)); ok {
			return cmd
		}
	}
	switch k.String() {
	case "enter":
		if k, _, ok := m.pendingCommand(); ok {
			m.input.SetValue("")
			return m.boardKey(k)
		}
		return m.submitMove()
	case "tab":
		if m.input.Value() != "" {
			m.completeMove()
			return nil
		}
	case "esc":
		m.focus = focusBoard
		m.input.Blur()
		return nil
	case "left", "right", "up", "down", "home", "end", "[", "]":
		if m.input.Value() == "" {
			return m.navigate(k.String())
		}
	case "?":
		m.openHelp()
		return nil
	case "ctrl+s":
		return m.savePrompt()
	case "ctrl+z":
		return m.undo()
	case "ctrl+y":
		return m.redo()
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// commandKey reports whether k is a single letter (or +, -, =, ; or !)
// bound to a board command. Space and other punctuation are left to the
// move box: a stray one must not play the engine's move.
func (m *Model) commandKey(k tea.KeyMsg) bool {
	_, ok := m.commandBinding(k)
	return ok
}

// commandBinding is the board command bound to k, if k is a single letter
// (or +, -, =, ; or !: no move begins with them) bound to one.
func (m *Model) commandBinding(k tea.KeyMsg) (key.Binding, bool) {
	if k.Type != tea.KeyRunes || len(k.Runes) != 1 || k.Alt {
		return key.Binding{}, false
	}
	r := k.Runes[0]
	if !unicode.IsLetter(r) && !strings.ContainsRune("+-=;!", r) {
		return key.Binding{}, false
	}
	for _, group := range (boardHelp{k: m.keys, book: true}).FullHelp() {
		for _, b := range group {
			if key.Matches(k, b) {
				return b, true
			}
		}
	}
	for _, b := range []key.Binding{m.keys.Prev, m.keys.Next} {
		if key.Matches(k, b) {
			return b, true
		}
	}
	return key.Binding{}, false
}

// pendingCommand is the board command that Enter runs when the move box
// holds one letter that is a command and not a whole move (a, before a3
// or a4 is typed): the key, its binding (for the help line) and whether
// there is one.
func (m *Model) pendingCommand() (tea.KeyMsg, key.Binding, bool) {
	v := []rune(m.input.Value())
	if len(v) != 1 {
		return tea.KeyMsg{}, key.Binding{}, false
	}
	k := tea.KeyMsg{Type: tea.KeyRunes, Runes: v}
	b, ok := m.commandBinding(k)
	if !ok {
		return tea.KeyMsg{}, key.Binding{}, false
	}
	if _, err := m.pos.ParseTyped(string(v)); err == nil {
		return tea.KeyMsg{}, key.Binding{}, false
	}
	return k, b, true
}

// beginsMove reports whether some legal move of the shown position is
// typed starting with r, in SAN (e4, Nf3, O-O, or nf3: ParseTyped) or UCI
// (e2e4).
func (m *Model) beginsMove(r rune) bool {
	if r == 'O' || r == '0' || r == 'o' {
		return m.pos.HasLegalMoves() // castling may be typed in any of these
	}
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	for _, mv := range ml.Slice() {
		san := m.pos.SAN(mv)
		if rune(san[0]) == r || rune(mv.UCI(m.pos.Chess960())[0]) == r {
			return true
		}
		if strings.IndexByte("NRQK", san[0]) >= 0 && unicode.ToLower(rune(san[0])) == r {
			return true // nf3: ParseTyped reads a lower-case piece letter
		}
	}
	return false
}

// submitMove plays the typed move.
func (m *Model) submitMove() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	if text == "" {
		return nil
	}
	if err := m.humanMayMove(); err != nil {
		m.setError(err)
		return nil
	}
	mv, err := m.pos.ParseTyped(text)
	if err != nil {
		// A promotion typed without its piece opens the picker rather than
		// queening silently.
		if pm, perr := m.pos.ParseTyped(text + "q"); perr == nil && pm.Promotion() != chess.NoPieceType {
			mv, err = pm, nil
		} else if pm, perr := m.pos.ParseTyped(text + "=Q"); perr == nil {
			mv, err = pm, nil
		}
		if err == nil {
			m.input.SetValue("")
			if d, ok := newPromotion(m.pos, mv.From(), mv.To()); ok {
				m.dialog = d
			}
			return nil
		}
		if cmd, ok := m.pasted(text); ok {
			return cmd
		}
		m.setError(fmt.Errorf("illegal move %q", termtext.Cut(text, 20)))
		m.input.SetValue("")
		return nil
	}
	m.input.SetValue("")
	return m.playMove(mv)
}

func (m *Model) navigate(k string) tea.Cmd {
	n := m.cur
	switch k {
	case "left", "k":
		if n.Parent != nil {
			n = n.Parent
		}
	case "right", "j":
		if len(n.Children) > 0 {
			n = n.Children[0]
		}
	case "up", "home":
		n = m.tree.Root
	case "down", "end":
		n = End(n)
	case "]", "[":
		// The other moves played in this position: the variations
		// beside the shown move, in file order, round and round.
		p := n.Parent
		if p == nil || len(p.Children) < 2 {
			m.setMessage("no other move here")
			return nil
		}
		i := 0
		for p.Children[i] != n {
			i++
		}
		step := 1
		if k == "[" {
			step = len(p.Children) - 1
		}
		n = p.Children[(i+step)%len(p.Children)]
	}
	if n != m.cur {
		m.setCur(n)
	}
	return m.sync()
}

// boardKey handles keys in board focus.
func (m *Model) boardKey(k tea.KeyMsg) tea.Cmd {
	ks := k.String()
	if m.board.cursorOn {
		switch ks {
		case "left", "h":
			m.board.moveCursor(-1, 0)
			return nil
		case "right", "l":
			m.board.moveCursor(1, 0)
			return nil
		case "up", "k":
			m.board.moveCursor(0, -1)
			return nil
		case "down", "j":
			m.board.moveCursor(0, 1)
			return nil
		case "enter", " ":
			return m.clickSquare(m.board.cursor)
		case "esc":
			m.board.cursorOn = false
			m.board.selected = chess.NoSquare
			return nil
		}
	}
	for _, v := range m.opt.Views {
		if ks == v.Key {
			return m.openEntry(v, "")
		}
	}
	km := m.keys
	switch {
	case key.Matches(k, km.Quit):
		return m.requestQuit(ks)
	case key.Matches(k, km.Board):
		m.focus = focusInput
		m.board.cursorOn = false
		return m.input.Focus()
	case ks == "esc":
		m.board.selected = chess.NoSquare
		m.message = ""
	case ks == "enter":
		m.board.cursorOn = true
	case key.Matches(k, km.Prev, km.Next, km.First, km.Last, km.Variation):
		return m.navigate(ks)
	case key.Matches(k, km.Flip):
		m.board.flipped = !m.board.flipped
	case key.Matches(k, km.Analysis):
		m.analysisOn = !m.analysisOn
		return m.sync()
	case key.Matches(k, km.MorePV):
		m.multiPV = min(maxPV, m.multiPV+1)
		return m.sync()
	case key.Matches(k, km.LessPV):
		m.multiPV = max(1, m.multiPV-1)
		m.panel.keep(m.multiPV)
		m.besidePanel.keep(m.multiPV)
		return m.sync()
	case key.Matches(k, km.Best):
		if err := m.humanMayMove(); err != nil {
			m.setError(err)
			return nil
		}
		if b := m.panel.best(); b != nil && len(b.info.PV) > 0 && m.pos.IsLegal(b.info.PV[0]) {
			return m.playMove(b.info.PV[0])
		}
		m.setError(fmt.Errorf("no engine move yet: a starts analysis"))
	case key.Matches(k, km.Hint):
		if b := m.panel.best(); b != nil && m.analysisOn && len(b.info.PV) > 0 {
			m.board.hint = b.info.PV[0]
			return nil
		}
		m.hintWanted = true
		m.setMessage("thinking of a hint…")
		return m.sync()
	case key.Matches(k, km.Takeback):
		return m.takeback()
	case key.Matches(k, km.New):
		m.dialog = &newGameDialog{newGameChoices: m.lastNew, given: m.opt.Start != nil}
	case key.Matches(k, km.SetUp):
		return m.whenSaved("set up another position", setupPromptMsg{})
	case key.Matches(k, km.Tags):
		m.openTags()
	case key.Matches(k, km.Engines):
		m.openEngines()
	case key.Matches(k, km.Explorer):
		m.toggleExplorer()
	case key.Matches(k, km.Position):
		return m.openPositionList()
	case key.Matches(k, km.Level):
		// Mid-game too, deliberately: the engine plays its next move at
		// the level chosen.
		m.dialog = &levelDialog{sel: m.level, inGame: m.gameInProgress() && (m.mode == VsEngine || m.mode == Watch)}
		return nil
	case key.Matches(k, km.Clock):
		if m.over || m.mode == Analysis {
			m.setError(fmt.Errorf("no game in progress: the clock is set in the New game dialog (n)"))
			return nil
		}
		m.dialog = newClockDialog(&m.clock)
		return nil
	case key.Matches(k, km.Resign):
		return m.resign()
	case key.Matches(k, km.Draw):
		return m.offerDraw()
	case key.Matches(k, km.Open):
		return m.whenSaved("open another game", openPromptMsg{})
	case key.Matches(k, km.Save):
		return m.savePrompt()
	case key.Matches(k, km.PasteFEN):
		return m.whenSaved("set up another position", fenPromptMsg{})
	case key.Matches(k, km.CopyFEN):
		return m.copyFEN()
	case key.Matches(k, km.Theme):
		if m.opt.NoColor {
			m.setError(fmt.Errorf("this terminal shows no colours (NO_COLOR or 16 colours)"))
			return nil
		}
		m.cycleTheme()
		m.setMessage(m.message + savedNote(m.opt.ConfigPath))
		return m.saveSettings()
	case key.Matches(k, km.Score):
		// A saved setting changes: say so, and that it lasts.
		m.panel.sideView = !m.panel.sideView
		m.besidePanel.sideView = m.panel.sideView
		view := "White's view"
		if m.panel.sideView {
			view = "the side to move's view"
		}
		m.setMessage("scores now from " + view + savedNote(m.opt.ConfigPath))
		return m.saveSettings()
	case key.Matches(k, km.BookMove):
		return m.nextBookMove()
	case key.Matches(k, km.BookMark):
		return m.markBookMove()
	case key.Matches(k, km.Comment):
		m.openComment(m.cur, pgn.CommentText(m.cur))
	case key.Matches(k, km.Glyph):
		m.openGlyphs()
	case key.Matches(k, km.Mark):
		m.openMark()
	case key.Matches(k, km.Promote):
		return m.reshape("promoting a variation")
	case key.Matches(k, km.MainLine):
		return m.reshape("making the main line")
	case key.Matches(k, km.DeleteVariation):
		return m.reshape("deleting a variation")
	case key.Matches(k, km.DeleteAfter):
		return m.reshape("deleting the moves after")
	case key.Matches(k, km.Undo):
		return m.undo()
	case key.Matches(k, km.Redo):
		return m.redo()
	case key.Matches(k, km.Help):
		m.openHelp()
	case key.Matches(k, km.Swing):
		m.nextSwing()
		return m.sync()
	}
	return nil
}

// clickSquare is a click (or cursor pick/drop) on s: select a piece of the
// side to move, or move the selected piece there.
func (m *Model) clickSquare(s chess.Square) tea.Cmd {
	pc := m.pos.Piece(s)
	sel := m.board.selected
	if sel != chess.NoSquare && m.targets().Has(s) {
		m.board.selected = chess.NoSquare
		if err := m.humanMayMove(); err != nil {
			m.setError(err)
			return nil
		}
		if d, ok := newPromotion(m.pos, sel, s); ok {
			m.dialog = d
			return nil
		}
		var ml chess.MoveList
		m.pos.GenerateLegal(&ml)
		for _, mv := range ml.Slice() {
			if mv.From() == sel && (mv.To() == s || (mv.IsCastle() && mv.KingTo() == s)) {
				return m.playMove(mv)
			}
		}
		return nil
	}
	if pc != chess.NoPiece && pc.Color() == m.pos.SideToMove() && s != sel {
		m.board.selected = s
		return nil
	}
	m.board.selected = chess.NoSquare
	return nil
}

// targets are the legal destinations of the selected piece (castling shown
// on the king's destination square).
func (m *Model) targets() chess.Bitboard {
	if m.board.selected == chess.NoSquare {
		return 0
	}
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	var bb chess.Bitboard
	for _, mv := range ml.Slice() {
		if mv.From() == m.board.selected {
			bb |= chess.SquareBB(lastTo(mv))
		}
	}
	return bb
}

func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	_, editing := m.dialog.(*setupDialog)
	if msg.Action != tea.MouseActionPress || msg.Button != tea.MouseButtonLeft || (m.dialog != nil && !editing) {
		return nil
	}
	g, ok := m.geometry()
	if !ok {
		return nil
	}
	s, ok := m.board.squareAt(g, msg.X, msg.Y)
	if !ok {
		return nil
	}
	if editing {
		return m.dialog.(*setupDialog).clicked(s)
	}
	return m.clickSquare(s)
}

// savePrompt asks where to save the game: by default back into the file it
// came from (replacing it there, the file's other games untouched), or a
// new file named by the time.
func (m *Model) savePrompt() tea.Cmd {
	name := "squall-" + m.opt.Now().Format("20060102-150405") + ".pgn"
	if src := m.tree.source; src != nil {
		name = src.file.path
	}
	d := newPrompt(m.st, "Save PGN as", name, func(p string) tea.Msg { return saveToMsg{p} })
	d.cancel = cancelSaveMsg{}
	d.paths = true
	m.dialog = d
	return nil
}

func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return h + p[1:]
		}
	}
	return p
}

func (m *Model) openCmd(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	if m.opt.Open == nil {
		m.setError(fmt.Errorf("opening PGN files is not available in this build"))
		return nil
	}
	open := m.opt.Open
	path = expandHome(path)
	_, lists := m.gamesEntry()
	return func() tea.Msg {
		// A file of several games opens in the game list, streamed,
		// rather than read whole here.
		if lists {
			if several, err := severalGamesIn(path); err == nil && several {
				return listFileMsg{path}
			}
		}
		games, err := open(path)
		return loadedMsg{path: path, games: games, err: err}
	}
}

// handleLoaded opens what a PGN file gave: its only game, or a picker for
// several. Games that could not be read are reported on the message line
// while the others open.
func (m *Model) handleLoaded(msg loadedMsg) tea.Cmd {
	switch {
	case len(msg.games) == 0 && msg.err != nil:
		more, first := firstError(msg.err)
		if more > 0 {
			m.setError(fmt.Errorf("%w (+%d more)", first, more))
		} else {
			m.setError(first)
		}
		return nil
	case len(msg.games) == 0:
		m.setError(fmt.Errorf("%s holds no games", msg.path))
		return nil
	}
	var cmd tea.Cmd
	if msg.err != nil {
		m.queueDialog(problemsDialog(msg.path, msg.err, msg.games))
	}
	if len(msg.games) > 1 {
		m.queueDialog(newPicker(msg.games))
	} else {
		m.search.stop()
		m.loadGame(msg.games[0])
		m.setMessage("opened " + msg.path)
		cmd = m.sync()
	}
	if msg.err != nil {
		m.setError(errors.New(loadProblems(msg.err, msg.games)))
	}
	return cmd
}

// setFEN starts free analysis of a pasted position.
func (m *Model) setFEN(s string) tea.Cmd {
	if s == "" {
		return nil
	}
	p, err := chess.ParseFEN(s)
	if err != nil {
		m.setError(err)
		return nil
	}
	return m.setPosition(p, "position set: analysis mode")
}

// setPosition opens p for analysis, a new game of its own, saying note.
func (m *Model) setPosition(p *chess.Position, note string) tea.Cmd {
	m.search.stop()
	m.loadGame(NewTree(p))
	m.setMessage(note)
	return m.sync()
}

func (m *Model) copyFEN() tea.Cmd {
	fen := m.pos.FEN()
	if m.opt.Clipboard == nil {
		m.setMessage(fen)
		return nil
	}
	if err := m.opt.Clipboard(fen); err != nil {
		m.setError(fmt.Errorf("copy: %w", err))
		return nil
	}
	m.setMessage("FEN copied: " + fen)
	return nil
}

// savedNote tells that a setting changed by a key is kept for the next
// start, where it is (nothing without a config file).
func savedNote(configPath string) string {
	if configPath == "" {
		return ""
	}
	return " (saved in " + configPath + ")"
}

// completeMove is tab in the move box: the first legal move (SAN) that
// begins with what was typed, then, tab after tab, the next one, round
// and round; the message line lists them all.
func (m *Model) completeMove() {
	typed := m.input.Value()
	if m.tab.last == typed && typed != "" {
		typed = m.tab.prefix // cycling: the prefix the user typed
	} else {
		m.tab.idx = -1
	}
	var ml chess.MoveList
	m.pos.GenerateLegal(&ml)
	var cands []string
	for _, mv := range ml.Slice() {
		san := m.pos.SAN(mv)
		if strings.HasPrefix(strings.ToLower(san), strings.ToLower(typed)) {
			cands = append(cands, san)
		}
	}
	if len(cands) == 0 {
		m.setError(fmt.Errorf("no legal move begins with %q", termtext.Cut(typed, 12)))
		return
	}
	m.tab.idx = (m.tab.idx + 1) % len(cands)
	m.tab.prefix, m.tab.last = typed, cands[m.tab.idx]
	m.input.SetValue(m.tab.last)
	m.input.CursorEnd()
	if len(cands) > 1 {
		m.setMessage(fmt.Sprintf("tab %d/%d: %s", m.tab.idx+1, len(cands), strings.Join(cands, " ")))
	}
}

// pasted recognises a FEN or a PGN game pasted (or typed) into the move
// box and offers to load it; ok is false for text that is neither.
func (m *Model) pasted(text string) (tea.Cmd, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, false
	}
	if !strings.ContainsAny(text, " \n/") {
		// A move, or keys typed fast enough to arrive together ("e4"):
		// typed as they are, where the cursor is.
		return nil, false
	}
	if p, err := chess.ParseFEN(text); err == nil {
		m.input.SetValue("")
		fen := p.FEN()
		m.dialog = confirm("Load position?", "That is a FEN: "+termtext.SafeLine(fen)+". Set it up for analysis?", "load",
			savedFirst{"set up another position", setFENMsg{fen}})
		return nil, true
	}
	trees, err := ReadPGN(strings.NewReader(text), "pasted text")
	if len(trees) == 0 || len(trees[0].Root.Children) == 0 {
		return nil, false
	}
	m.input.SetValue("")
	q := fmt.Sprintf("That is PGN: %s, %s. Open it for analysis?", plural.Count(len(trees), "game"), plural.Count(countMoves(trees[0]), "move"))
	m.dialog = confirm("Open game?", q, "open", savedFirst{"open another game", loadedMsg{path: "pasted text", games: trees, err: err}})
	return nil, true
}
