package tui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/movelist"
)

// Annotating (issue 36): a comment after the shown move (before the first
// move at the start), a glyph (!?, ±) on it, and, in analysis, the
// variations deleted, promoted or made the main line, every change
// undoable. The tree does the work (pgn.Edits, Tree.edits); the board asks
// for it and shows the result.

// The dialogs' answers.
type (
	// commentMsg sets n's comment to text (shown is the text the dialog
	// opened with: unchanged text changes nothing).
	commentMsg struct {
		n           *pgn.Node
		text, shown string
	}
	// editorMsg edits n's comment, text so far, in $EDITOR.
	editorMsg struct {
		n    *pgn.Node
		text string
	}
	// editedMsg is what $EDITOR left in the comment's file.
	editedMsg struct {
		n    *pgn.Node
		text string
		err  error
	}
	// glyphMsg toggles the glyph nag on n; 0 removes all of n's glyphs.
	glyphMsg struct {
		n   *pgn.Node
		nag uint8
	}
)

// moveName is how a dialog names n: "12. Nf3", "12… Nf6", or "the start".
func (m *Model) moveName(n *pgn.Node) string {
	if n.Parent == nil {
		return "the start"
	}
	return movelist.Number(m.tree.Start.GamePly()+n.Ply()-1) + " " + n.SAN
}

// commentTitle is the comment dialog's title for n.
func (m *Model) commentTitle(n *pgn.Node) string {
	if n.Parent == nil {
		return "Comment before the first move"
	}
	return "Comment after " + m.moveName(n)
}

// openComment opens the comment dialog on the shown move with text in it.
func (m *Model) openComment(n *pgn.Node, text string) {
	m.dialog = newCommentDialog(m.st, m.commentTitle(n), n, text)
}

// setComment sets n's comment to text, as the dialog or $EDITOR left it.
func (m *Model) setComment(n *pgn.Node, text, shown string) {
	if text == shown {
		m.setMessage("comment unchanged")
		return
	}
	m.tree.edits.SetComment(n, text)
	m.annotated()
	if len(n.After) == 0 {
		m.setMessage("comment deleted · ctrl+z undoes it")
		return
	}
	m.setMessage("comment set")
}

// annotated records a comment or glyph changed: unsaved analysis to the
// session file (edited), a game in play or just ended to the autosave,
// which holds that game as it is now, so that nothing typed is lost.
func (m *Model) annotated() {
	m.edited()
	m.autosave()
}

// editor is the command line of the user's editor ($VISUAL, else
// $EDITOR), split into words; nil when neither is set.
func editor() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	return nil
}

// editComment hands the comment to the user's editor: the text is written
// to a temporary file, the editor runs on the terminal in the board's
// place, and the file's text comes back as an editedMsg. Without an
// editor the dialog opens again with the text, and the board says why.
func (m *Model) editComment(n *pgn.Node, text string) tea.Cmd {
	ed := editor()
	if ed == nil {
		m.openComment(n, text)
		m.setError(errors.New("no $EDITOR (or $VISUAL) set: edit the comment here"))
		return nil
	}
	cmd, done, err := editorCommand(ed, n, text)
	if err != nil {
		m.setError(fmt.Errorf("comment: %w", err))
		return nil
	}
	return tea.ExecProcess(cmd, done)
}

// editorCommand is the command that runs editor ed on a temporary file
// holding text, and what reads the file back once it has run (and
// removes it).
func editorCommand(ed []string, n *pgn.Node, text string) (*exec.Cmd, func(error) tea.Msg, error) {
	f, err := os.CreateTemp("", "squall-comment-*.txt")
	if err != nil {
		return nil, nil, err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, nil, err
	}
	path := f.Name()
	cmd := exec.Command(ed[0], append(ed[1:], path)...)
	done := func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return editedMsg{n: n, err: fmt.Errorf("%s: %w", ed[0], err)}
		}
		b, err := os.ReadFile(path)
		return editedMsg{n: n, text: strings.TrimRight(string(b), "\n"), err: err}
	}
	return cmd, done, nil
}

// openGlyphs opens the glyph dialog on the shown move.
func (m *Model) openGlyphs() {
	if m.cur.Parent == nil {
		m.setError(errors.New("a glyph is given to a move: step to one (→)"))
		return
	}
	m.dialog = &glyphDialog{title: "Glyph for " + m.moveName(m.cur), n: m.cur, have: m.cur.NAGs}
}

// setGlyph toggles a glyph on n (0: removes its glyphs).
func (m *Model) setGlyph(n *pgn.Node, nag uint8) {
	if nag == 0 {
		if m.tree.edits.ClearNAGs(n) {
			m.annotated()
			m.setMessage("glyphs removed from " + m.moveName(n))
		}
		return
	}
	m.tree.edits.ToggleNAG(n, nag)
	m.annotated()
	if sym := movelist.NAGSymbol(n.NAGs); sym != "" {
		m.setMessage(m.moveName(n) + sym)
	} else {
		m.setMessage("glyph removed from " + m.moveName(n))
	}
}

// inAnalysis reports whether the tree may be reshaped (variations, undo):
// in analysis only, where no clock or engine game depends on its moves.
// Otherwise it says why not.
func (m *Model) inAnalysis(what string) bool {
	if m.mode == Analysis {
		return true
	}
	m.setError(fmt.Errorf("%s is for analysis: in a game, u takes a move back", what))
	return false
}

// reshape is the variation keys: delete the variation holding the shown
// move, promote it one level, make it the main line, or delete the moves
// after the shown one.
func (m *Model) reshape(what string) tea.Cmd {
	if !m.inAnalysis(what) {
		return nil
	}
	e := &m.tree.edits
	var err error
	switch what {
	case "deleting a variation":
		var p *pgn.Node
		if p, err = e.DeleteVariation(m.cur); err == nil {
			m.edited()
			m.setCur(p)
			m.setMessage("variation deleted · ctrl+z undoes it")
			return m.sync()
		}
	case "promoting a variation":
		if err = e.Promote(m.cur); err == nil {
			m.setMessage("variation promoted")
		}
	case "making the main line":
		if err = e.MakeMainLine(m.cur); err == nil {
			m.setMessage("now the main line")
		}
	case "deleting the moves after":
		if !e.DeleteAfter(m.cur) {
			err = errors.New("no moves after this one")
		} else {
			m.setMessage("moves after " + m.moveName(m.cur) + " deleted · ctrl+z undoes it")
		}
	}
	if err != nil {
		if errors.Is(err, pgn.ErrMainLine) {
			err = errors.New("this move is on the main line, in no variation")
		}
		m.setError(err)
		return nil
	}
	m.edited()
	m.unpublished = true // the line through the shown move changed
	return nil
}

// undo undoes the last change to the tree in analysis (moves played or
// deleted, comments, glyphs, variations), step by step, and shows where it
// was made; redo makes the changes undone again, until another is made.
func (m *Model) undo() tea.Cmd { return m.history("undo", "undone", m.tree.edits.Undo) }

func (m *Model) redo() tea.Cmd { return m.history("redo", "redone", m.tree.edits.Redo) }

// history is undo or redo: step, named what, and done when it is done.
func (m *Model) history(what, done string, step func() (string, *pgn.Node, bool)) tea.Cmd {
	if !m.inAnalysis(what) {
		return nil
	}
	change, at, ok := step()
	if !ok {
		m.setError(errors.New("nothing to " + what))
		return nil
	}
	m.edited()
	m.setCur(at)
	msg := done + ": " + change
	if u, r := m.tree.edits.Len(), m.tree.edits.Redoable(); u+r > 0 {
		msg += fmt.Sprintf(" (%d to undo, %d to redo)", u, r)
	}
	m.setMessage(termtext.SafeLine(msg))
	return m.sync()
}
