package tui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/movelist"
	"github.com/squall-chess/squall/tui/view"
)

// commentDialog edits a move's comment in a few lines of text: a blank
// line between paragraphs makes them separate comments ({…} {…}), an
// empty text deletes the comment, ctrl+e hands it to $EDITOR.
type commentDialog struct {
	title string
	n     *pgn.Node
	// shown is the text it opened with: the comment as drawn (a file's
	// control characters made visible), so that closing it unchanged
	// changes nothing.
	shown string
	ta    textarea.Model
}

// commentMaxChars bounds a comment typed in the dialog (a file's may be
// longer; $EDITOR takes any length).
const commentMaxChars = 8000

func newCommentDialog(st *view.Styles, title string, n *pgn.Node, text string) *commentDialog {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = commentMaxChars
	ta.Placeholder = "a comment (empty: none)"
	style := textarea.Style{Base: st.Text, CursorLine: st.Text, CursorLineNumber: st.Muted, EndOfBuffer: st.Muted,
		LineNumber: st.Muted, Placeholder: st.Muted, Prompt: st.Accent, Text: st.Text}
	ta.FocusedStyle, ta.BlurredStyle = style, style
	ta.Cursor.Style = st.Text
	ta.Cursor.SetMode(cursor.CursorStatic) // the board sends the dialog keys only
	// Enter saves, as in every other dialog; a new line is ctrl+j (or
	// alt+enter), a paragraph a blank line.
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("ctrl+j", "alt+enter"))
	ta.SetHeight(5)
	ta.Focus()
	shown := termtext.Safe(text)
	ta.SetValue(shown)
	return &commentDialog{title: title, n: n, shown: shown, ta: ta}
}

func (d *commentDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	switch k.String() {
	case "esc":
		return true, noteMsg("comment not changed"), nil
	case "enter":
		return true, commentMsg{n: d.n, text: d.ta.Value(), shown: d.shown}, nil
	case "ctrl+e":
		return true, editorMsg{n: d.n, text: d.ta.Value()}, nil
	}
	var cmd tea.Cmd
	d.ta, cmd = d.ta.Update(k)
	return false, nil, cmd
}

func (d *commentDialog) view(st *view.Styles, width int) string {
	inner := max(10, width-4)
	d.ta.SetWidth(inner)
	help := strings.Join(view.WrapWords("enter save · ctrl+j new line (a blank line: another comment) · ctrl+e $EDITOR · empty: no comment · esc cancel", inner), "\n")
	return st.Dialog.Render(st.Title.Render(termtext.Cut(d.title, inner)) + "\n\n" + d.ta.View() + "\n\n" + st.Muted.Render(help))
}

// glyphDialog gives the move a glyph: typed as PGN writes it (!?, +/-, ~
// for ∞; chosen as soon as no other begins so, else by enter), or chosen
// from the list with ↑↓ and enter. A glyph the move has is taken off;
// another of the same kind (a ? for its !) is replaced.
type glyphDialog struct {
	title string
	n     *pgn.Node
	have  []uint8 // the move's NAGs, marked in the list
	sel   int
	typed string
	err   string
}

func (d *glyphDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	gs := movelist.Glyphs
	switch k.String() {
	case "esc":
		return true, nil, nil
	case "up":
		d.sel = (d.sel + len(gs) - 1) % len(gs)
		d.typed = ""
		return false, nil, nil
	case "down":
		d.sel = (d.sel + 1) % len(gs)
		d.typed = ""
		return false, nil, nil
	case "enter":
		return true, glyphMsg{d.n, gs[d.sel].NAG}, nil
	case "backspace", "delete":
		if d.typed == "" {
			return true, glyphMsg{d.n, 0}, nil
		}
		d.typed = d.typed[:len(d.typed)-1]
		return false, nil, nil
	}
	if k.Type != tea.KeyRunes {
		return false, nil, nil
	}
	typed := d.typed + string(k.Runes)
	var begin []int
	for i, g := range gs {
		if strings.HasPrefix(g.ASCII, typed) || strings.HasPrefix(g.Symbol, typed) {
			begin = append(begin, i)
		}
	}
	if len(begin) == 0 {
		d.err = "no glyph is written " + termtext.SafeLine(typed)
		d.typed = ""
		return false, nil, nil
	}
	d.err, d.typed, d.sel = "", typed, begin[0]
	if g := gs[begin[0]]; len(begin) == 1 && (g.ASCII == typed || g.Symbol == typed) {
		return true, glyphMsg{d.n, g.NAG}, nil
	}
	return false, nil, nil
}

func (d *glyphDialog) view(st *view.Styles, width int) string {
	inner := max(10, width-4)
	var b strings.Builder
	b.WriteString(st.Title.Render(termtext.Cut(d.title, inner)) + "\n")
	typed := "type a glyph: " + d.typed + "▏"
	if d.err != "" {
		b.WriteString(st.Err.Render(termtext.Cut(d.err, inner)) + "\n")
	} else {
		b.WriteString(st.Muted.Render(termtext.Cut(typed, inner)) + "\n")
	}
	for i, g := range movelist.Glyphs {
		mark := "  "
		if slices.Contains(d.have, g.NAG) {
			mark = "✓ "
		}
		line := termtext.Cut(mark+view.Pad(g.Symbol, 3)+" "+view.Pad(g.ASCII, 3)+" "+g.Name, inner)
		if i == d.sel {
			line = st.Selected.Render(line)
		}
		b.WriteString(line + "\n")
	}
	help := "↑↓ enter · ✓ again: off · ⌫ all off · esc"
	b.WriteString(st.Muted.Render(strings.Join(view.WrapWords(help, inner), "\n")))
	return st.Dialog.Render(b.String())
}
