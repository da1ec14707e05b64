package tui

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// The board editor (E, issue 36): a position set up by typing, the board
// drawing it as it grows. A square command takes effect the moment it is
// whole, with no Enter: Ke1 puts a white king on e1 (FEN letters: upper
// case White, lower case Black), e1 (or -e1, xe1) empties e1; a click on
// a square types its name. The rest
// are words ended by Enter: w or b the side to move, KQkq (any of them)
// or - the castling rights, ep e3 the en passant square, clear (c) or
// start (s) the whole board, a number 0–959 that Chess960 start
// position, a FEN all of it; Enter on nothing analyses the position and
// play (p) starts a game from it. The position is judged as it changes by
// the rules every set-up position meets (chess.Setup.Position, ParseFEN):
// the editor shows why it is illegal and starts nothing from it.

// setupHelp is the editor's grammar, shown under its text field.
const setupHelp = "Ke1 put (kq… Black) · e1 or xe1 empty · w/b to move · KQkq or - castling · " +
	"ep e3 · clear · start · 0-959 Chess960 · a FEN · tab side · enter: analyse · play: a game · esc"

// The editor's answers.
type (
	// setupPromptMsg opens the editor on the shown position, once
	// unsaved analysis is dealt with.
	setupPromptMsg struct{}
	// setUpMsg analyses pos, or (play) opens the new-game dialog to play
	// from it.
	setUpMsg struct {
		pos  *chess.Position
		play bool
	}
)

// setupDialog is the board editor. While it is open the board draws its
// placement (view.go) and it takes every key.
type setupDialog struct {
	s   chess.Setup
	in  textinput.Model
	err string // what the last command could not do
}

func newSetupDialog(st *view.Styles, p *chess.Position) *setupDialog {
	in := textinput.New()
	in.Prompt = "> "
	in.CharLimit = 120
	in.PromptStyle = st.Accent
	in.Placeholder = "Ke1, e1, w/b, KQkq, clear…"
	in.PlaceholderStyle = st.Muted
	in.Focus()
	return &setupDialog{s: chess.SetupOf(p), in: in}
}

// squareCommand is a command a square ends: a piece put on it, or the
// square emptied.
var squareCommand = regexp.MustCompile(`^([KQRBNPkqrbnp]|[-x])?([a-h][1-8])$`)

func (d *setupDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	switch k.String() {
	case "esc":
		return true, noteMsg("position not set up"), nil
	case "tab":
		d.s.Side ^= 1
		d.s.EnPassant = chess.NoSquare // it belongs to the other side's move
		return false, nil, nil
	case "enter":
		text := strings.TrimSpace(d.in.Value())
		d.in.SetValue("")
		return d.enter(text)
	}
	if text := strings.TrimSpace(string(k.Runes)); k.Paste && d.in.Value() == "" && strings.Count(text, "/") == 7 {
		return d.enter(text) // a FEN pasted: set up at once
	}
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 {
		// Keys typed fast, or pasted, arrive together: each is taken as
		// if typed alone, so that Ke2ke5 puts both kings.
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			cmds = append(cmds, d.typed(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
		}
		return false, nil, tea.Batch(cmds...)
	}
	return false, nil, d.typed(k)
}

// clicked is a click on square s: its name typed, so that K then a
// click on e1 puts a king there, and a click alone empties the square.
func (d *setupDialog) clicked(s chess.Square) tea.Cmd {
	_, _, cmd := d.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s.String())})
	return cmd
}

// typed takes a key into the text field, doing the square command it
// completes.
func (d *setupDialog) typed(k tea.KeyMsg) tea.Cmd {
	var cmd tea.Cmd
	d.in, cmd = d.in.Update(k)
	d.err = ""
	if v := strings.TrimSpace(d.in.Value()); squareCommand.MatchString(v) {
		d.apply(v)
		d.in.SetValue("")
	}
	return cmd
}

// enter does what Enter asks of the text typed: nothing typed finishes,
// else each word (a paste may hold several) is done in turn.
func (d *setupDialog) enter(text string) (bool, tea.Msg, tea.Cmd) {
	if strings.Count(text, "/") == 7 {
		p, err := chess.ParseFEN(text)
		if err != nil {
			d.err = err.Error()
			return false, nil, nil
		}
		d.s = chess.SetupOf(p)
		return false, nil, nil
	}
	words := strings.Fields(text)
	switch {
	case len(words) == 0:
		return d.finish(false)
	case len(words) == 1 && (words[0] == "play" || words[0] == "p"):
		return d.finish(true)
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "ep" && i+1 < len(words) {
			i++
			w += " " + words[i]
		}
		if err := d.apply(w); err != nil {
			d.err = err.Error()
			return false, nil, nil
		}
	}
	return false, nil, nil
}

// finish answers with the position set up, or says why there is none.
func (d *setupDialog) finish(play bool) (bool, tea.Msg, tea.Cmd) {
	p, err := d.s.Position()
	if err != nil {
		d.err = "cannot start from it: " + reason(err)
		return false, nil, nil
	}
	return true, setUpMsg{pos: p, play: play}, nil
}

// apply does one command.
func (d *setupDialog) apply(w string) error {
	if m := squareCommand.FindStringSubmatch(w); m != nil {
		sq, _ := chess.ParseSquare(m[2])
		pc := chess.NoPiece
		if m[1] != "" && m[1] != "-" && m[1] != "x" {
			pc, _ = chess.ParsePiece(m[1][0])
		}
		d.s.Board[sq] = pc
		return nil
	}
	switch w {
	case "w":
		d.s.Side = chess.White
	case "b":
		d.s.Side = chess.Black
	case "c", "clear":
		d.s = chess.EmptySetup()
	case "s", "start":
		d.s = chess.SetupOf(chess.NewPosition())
	case "ep -":
		d.s.EnPassant = chess.NoSquare
	default:
		if sq, ok := strings.CutPrefix(w, "ep "); ok {
			s, ok := chess.ParseSquare(sq)
			if !ok {
				return fmt.Errorf("ep %s: not a square", termtext.Cut(sq, 8))
			}
			d.s.EnPassant = s
			return nil
		}
		if n, err := strconv.Atoi(w); err == nil {
			p, err := chess.Chess960(n)
			if err != nil {
				return fmt.Errorf("no Chess960 position %d: 0-959", n)
			}
			d.s = chess.SetupOf(p)
			return nil
		}
		if w == "-" || strings.Trim(w, "KQkqABCDEFGHabcdefgh") == "" && len(w) <= 4 {
			d.s.Castling = w
			return nil
		}
		return fmt.Errorf("%q: not a command (%s)", termtext.Cut(w, 12), "Ke1, e1, w, b, KQkq, ep e3, clear, start, 0-959")
	}
	return nil
}

// reason is what a set-up position breaks, in words for the editor: the
// FEN error's reason without its field.
func reason(err error) string {
	var fe *chess.FENError
	if errors.As(err, &fe) {
		return fe.Reason
	}
	return err.Error()
}

func (d *setupDialog) view(st *view.Styles, width int) string {
	inner := max(10, width-4)
	d.in.Width = max(10, inner-3)
	var b strings.Builder
	b.WriteString(st.Title.Render("Set up a position") + "\n\n")
	side := "White"
	if d.s.Side == chess.Black {
		side = "Black"
	}
	fmt.Fprintf(&b, "%s to move · castling %s · ep %s\n", side, d.s.Castling, d.s.EnPassant)
	if _, err := d.s.Position(); err != nil {
		b.WriteString(st.Err.Render(strings.Join(view.WrapWords("✗ "+reason(err), inner), "\n")) + "\n")
	} else {
		b.WriteString(st.Muted.Render("✓ legal") + "\n")
	}
	b.WriteString("\n" + d.in.View() + "\n")
	if d.err != "" {
		b.WriteString(st.Err.Render(strings.Join(view.WrapWords(termtext.SafeLine(d.err), inner), "\n")) + "\n")
	}
	b.WriteString("\n" + st.Muted.Render(strings.Join(view.WrapWords(setupHelp, inner), "\n")))
	return st.Dialog.Render(b.String())
}

// setUp starts from the position the editor set up: analysis at once, or
// (play) the new-game dialog, its Start row on that position.
func (m *Model) setUp(p *chess.Position, play bool) tea.Cmd {
	m.lastNew.setUp = p
	if play {
		c := m.lastNew
		c.start = startSetUp
		m.dialog = &newGameDialog{newGameChoices: c, given: m.opt.Start != nil}
		return nil
	}
	m.analysisOn = true
	return m.setPosition(p, "position set up: analysis")
}
