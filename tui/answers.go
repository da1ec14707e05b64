package tui

import (
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// A dialog knows nothing of the board: a key that asks the board for
// something returns it as one of these messages (or one the board already
// takes, such as loadedMsg), and the board acts on it at once, in the same
// Update (answer). Questions asked before something else is done carry
// that something as a message too (savedFirst.next, Model.afterSave).

// playMoveMsg plays a move (the promotion dialog's piece).
type playMoveMsg struct{ move chess.Move }

// noteMsg says something in the message line.
type noteMsg string

// newGameMsg starts a game with the new-game dialog's choices.
type newGameMsg struct{ choices newGameChoices }

// startGameMsg starts the game chosen, once unsaved work is dealt with.
type startGameMsg struct {
	choices   newGameChoices
	human     chess.Color
	base, inc time.Duration
	start     *chess.Position // nil: the board's usual start
}

// levelMsg sets the engine's level (an index into Levels).
type levelMsg struct {
	level  int
	inGame bool
}

// clockMsg sets the time control named name for the rest of the game.
type clockMsg struct{ name string }

// savedFirst does next once the unsaved analysis is saved or discarded
// (the question is asked only if there is any); what says what next does
// ("open another game").
type savedFirst struct {
	what string
	next tea.Msg
}

// saveFirstMsg and discardFirstMsg are the unsaved-analysis question's
// answers: save, then next once the file is written; discard, then next.
type (
	saveFirstMsg    struct{ next tea.Msg }
	discardFirstMsg struct{ next tea.Msg }
)

// resignMsg resigns (or aborts) the game in progress.
type resignMsg struct{}

// reopenMsg reopens the finished game as analysis.
type reopenMsg struct{}

// resumeSessionMsg resumes the unsaved analysis t of an earlier run, shown
// at the node at (child indexes from the root); discardSessionMsg drops it.
type (
	resumeSessionMsg struct {
		t  *Tree
		at []int
	}
	discardSessionMsg struct{}
)

// quitMsg quits; quitAskedMsg quits, asking first if a game is in
// progress.
type (
	quitMsg      struct{}
	quitAskedMsg struct{}
)

// replaceFileMsg saves g as the whole of path, which exists.
type replaceFileMsg struct {
	path string
	g    *pgn.Game
	rev  int
}

// notSavedMsg and cancelSaveMsg: a save was cancelled (notSavedMsg says
// so); what was to follow it is forgotten.
type (
	notSavedMsg   struct{}
	cancelSaveMsg struct{}
)

// saveToMsg saves the game to path ("" cancels).
type saveToMsg struct{ path string }

// openPromptMsg asks for a PGN file to open, openFileMsg opens one;
// fenPromptMsg asks for a FEN, setFENMsg sets one up.
type (
	openPromptMsg struct{}
	openFileMsg   struct{ path string }
	fenPromptMsg  struct{}
	setFENMsg     struct{ fen string }
)

// openTreeMsg opens a game of the file open (the picker's choice).
type openTreeMsg struct{ t *Tree }

// answer does what a dialog's answer asks.
func (m *Model) answer(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case playMoveMsg:
		return m.playMove(msg.move)
	case noteMsg:
		m.setMessage(string(msg))
	case newGameMsg:
		return m.newGame(msg.choices)
	case startGameMsg:
		m.lastNew = msg.choices
		return m.newGameCmd(Mode(msg.choices.mode), msg.human, msg.choices.level, msg.base, msg.inc, msg.start)
	case levelMsg:
		m.setLevel(msg.level, msg.inGame)
	case clockMsg:
		return m.setClock(msg.name)
	case savedFirst:
		return m.whenSaved(msg.what, msg.next)
	case saveFirstMsg:
		m.afterSave = msg.next
		return m.savePrompt()
	case discardFirstMsg:
		m.discard()
		return m.answer(msg.next)
	case resignMsg:
		return m.doResign()
	case reopenMsg:
		return m.reopenAsAnalysis()
	case resumeSessionMsg:
		m.search.stop()
		m.queued = slices.DeleteFunc(m.queued, func(d dialog) bool { _, picker := d.(*pickerDialog); return picker })
		m.loadGame(msg.t)
		m.savedRev = m.treeRev - 1 // not in any file yet
		m.setCur(nodeAt(msg.t, msg.at))
		m.setMessage("resumed the unsaved analysis")
		return m.sync()
	case discardSessionMsg:
		m.sessions.save(nil)
		m.setMessage("discarded the unsaved analysis")
	case quitMsg:
		return m.quit()
	case quitAskedMsg:
		return m.askQuit()
	case replaceFileMsg:
		return saveCmd(msg.path, msg.g, true, msg.rev)
	case notSavedMsg:
		m.cancelQuit()
		m.setMessage("not saved")
	case cancelSaveMsg:
		m.cancelQuit()
	case saveToMsg:
		if msg.path == "" {
			m.cancelQuit()
			return nil
		}
		return m.saveTo(expandHome(msg.path))
	case openPromptMsg:
		d := newPrompt(m.st, "Open PGN file", "", func(p string) tea.Msg { return openFileMsg{p} })
		d.paths = true
		m.dialog = d
	case openFileMsg:
		return m.openCmd(msg.path)
	case listFileMsg:
		return m.openList(msg.path)
	case fenPromptMsg:
		d := newPrompt(m.st, "Paste a FEN", "", func(s string) tea.Msg { return setFENMsg{s} })
		d.check = func(s string) error { _, err := chess.ParseFEN(s); return err }
		m.dialog = d
	case setFENMsg:
		return m.setFEN(msg.fen)
	case openTreeMsg:
		m.search.stop()
		m.loadGame(msg.t)
		return m.sync()
	case loadedMsg:
		return m.handleLoaded(msg)
	case commentMsg:
		m.setComment(msg.n, msg.text, msg.shown)
	case editorMsg:
		return m.editComment(msg.n, msg.text)
	case glyphMsg:
		m.setGlyph(msg.n, msg.nag)
	case markMsg:
		m.toggleMark(msg.n, msg.k)
	case setupPromptMsg:
		m.dialog = newSetupDialog(m.st, m.pos)
	case setUpMsg:
		return m.setUp(msg.pos, msg.play)
	case tagMsg:
		m.setTag(msg)
	case useEngineMsg:
		return m.useEngine(msg)
	case engineOptionsMsg:
		m.openOptions(msg.beside)
	case setOptionsMsg:
		return m.setOptions(msg)
	}
	return nil
}
