package tui

import (
	"errors"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/pgn"
)

// Arrows and squares (issue 36): A asks for a square (d4) or two (e2e4)
// with a colour letter, and draws it after the shown move, or takes it off
// if it is there; the tree keeps it as lichess writes it ([%csl Rd4],
// [%cal Ge2e4]: pgn.Edits.ToggleMark, undoable) and the board draws the
// shown move's marks (boardview.Scene.Marks).

// markMsg toggles mark k after n's move.
type markMsg struct {
	n *pgn.Node
	k pgn.Mark
}

// errTypedMark says what the mark prompt takes.
var errTypedMark = errors.New("type a square (d4) or two (e2e4), a colour G R Y B first or last")

// typedMark reads a mark as typed in the prompt: a square or two, spaces
// and dashes ignored, in any case, with a colour letter (G green, the
// default; R red, Y yellow, B blue) before or after them: "e2e4",
// "R d4", "e2-e4 b". A colour letter first is read first, so "bb4" and
// "b4b" are both b4 in blue.
func typedMark(s string) (pgn.Mark, error) {
	t := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(s))
	tok := "G" + t
	if n := len(t); n == 3 || n == 5 {
		if c := strings.ToUpper(t[:1]); strings.Contains(pgn.MarkColours, c) && squares(t[1:]) {
			tok = c + t[1:]
		} else if c := strings.ToUpper(t[n-1:]); strings.Contains(pgn.MarkColours, c) {
			tok = c + t[:n-1]
		}
	}
	k, ok := pgn.ParseMark(tok)
	switch {
	case ok:
		return k, nil
	case len(tok) == 5 && tok[1:3] == tok[3:5]:
		return pgn.Mark{}, errors.New("an arrow joins two different squares")
	}
	return pgn.Mark{}, errTypedMark
}

// squares reports whether s is one square's name or two.
func squares(s string) bool {
	for ; len(s) >= 2; s = s[2:] {
		if _, ok := chess.ParseSquare(s[:2]); !ok {
			return false
		}
	}
	return s == ""
}

// markName is how the board names k: "green arrow e2→e4", "red square d4".
func markName(k pgn.Mark) string {
	colour := map[byte]string{'G': "green", 'R': "red", 'Y': "yellow", 'B': "blue"}[k.Colour]
	if k.Arrow() {
		return colour + " arrow " + k.From.String() + "→" + k.To.String()
	}
	return colour + " square " + k.From.String()
}

// openMark asks for an arrow or a square after the shown move (on the
// start position before the first). With the cursor shown, its square is
// typed already: enter marks it, or a second square makes an arrow.
func (m *Model) openMark() {
	n := m.cur
	value := ""
	if m.board.cursorOn {
		value = m.board.cursor.String()
	}
	title := "Arrow or square after " + m.moveName(n)
	if n.Parent == nil {
		title = "Arrow or square at the start"
	}
	d := newPrompt(m.st, title, value, func(s string) tea.Msg {
		if s == "" {
			return noteMsg("nothing marked")
		}
		k, _ := typedMark(s) // check has passed it
		return markMsg{n: n, k: k}
	})
	d.check = func(s string) error { _, err := typedMark(s); return err }
	d.hint = "e2e4 an arrow, d4 a square; a colour first or last: G green (the default), R red, Y yellow, B blue. The same mark again takes it off."
	m.dialog = d
}

// toggleMark draws k after n's move, or takes it off.
func (m *Model) toggleMark(n *pgn.Node, k pgn.Mark) {
	m.tree.edits.ToggleMark(n, k)
	m.annotated()
	for _, have := range n.Marks() {
		if have == k {
			m.setMessage(markName(k) + " drawn · A again takes it off")
			return
		}
	}
	msg := markName(k) + " taken off"
	if m.mode == Analysis {
		msg += " · ctrl+z undoes it"
	}
	m.setMessage(msg)
}
