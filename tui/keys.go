package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap holds the bindings shown by the help bar and the "?" overlay.
type keyMap struct {
	Play, Focus, Board                          key.Binding
	Prev, Next, First, Last, Variation, Swing   key.Binding
	Cursor, Pick                                key.Binding
	Flip, Analysis, MorePV, LessPV, Best, Hint  key.Binding
	Explorer                                    key.Binding
	Takeback, New, Resign, Draw, Level, Clock   key.Binding
	Open, Save, PasteFEN, CopyFEN, Theme, Score key.Binding
	BookMove, BookMark                          key.Binding
	Comment, Glyph, Mark, Promote, MainLine     key.Binding
	DeleteVariation, DeleteAfter, Undo, Redo    key.Binding
	SetUp, Tags, Games, Position, Engines       key.Binding
	Help, Quit                                  key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, h string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, h))
	}
	return keyMap{
		Play:      b([]string{"enter"}, "enter", "play move"),
		Focus:     b([]string{"esc"}, "esc", "board keys"),
		Board:     b([]string{"tab", "i", "/"}, "tab", "type a move"),
		Prev:      b([]string{"left", "k"}, "←/k", "back"),
		Next:      b([]string{"right", "j"}, "→/j", "forward"),
		First:     b([]string{"up", "home"}, "↑/home", "start"),
		Last:      b([]string{"down", "end"}, "↓/end", "end"),
		Variation: b([]string{"]", "["}, "[/]", "other move here"), // also in the move input: no move starts with a bracket
		Swing:     b([]string{"J"}, "J", "biggest eval swings"),
		Cursor:    b([]string{"enter"}, "enter", "cursor (hjkl, space picks)"),
		Pick:      b([]string{"enter", " "}, "space", "pick/drop"),
		Flip:      b([]string{"f"}, "f", "flip"),
		Analysis:  b([]string{"a"}, "a", "analysis"),
		MorePV:    b([]string{"+", "="}, "+/-", "lines"),
		LessPV:    b([]string{"-"}, "-", "fewer lines"),
		Best:      b([]string{" "}, "space", "play best"),
		Hint:      b([]string{"h"}, "h", "hint"),
		Takeback:  b([]string{"u"}, "u", "takeback"),
		New:       b([]string{"n"}, "n", "new game"),
		Resign:    b([]string{"R"}, "R", "resign"),
		Draw:      b([]string{"D"}, "D", "offer draw"),
		Level:     b([]string{"L"}, "L", "engine level"),
		Clock:     b([]string{"C"}, "C", "change clock"),
		Open:      b([]string{"o"}, "o", "open PGN"),
		Save:      b([]string{"s", "ctrl+s"}, "s", "save PGN"),
		PasteFEN:  b([]string{"p"}, "p", "paste FEN"),
		CopyFEN:   b([]string{"c"}, "c", "copy FEN"),
		Theme:     b([]string{"t"}, "t", "theme"),
		Score:     b([]string{"v"}, "v", "score view"),
		BookMove:  b([]string{"b"}, "b", "next book move"),
		BookMark:  b([]string{"B"}, "B", "mark it always/never"),
		Comment:   b([]string{";"}, ";", "comment"),
		Glyph:     b([]string{"!"}, "!", "glyph (!? ± …)"),
		Mark:      b([]string{"A"}, "A", "arrow/square (e2e4, d4)"),
		Promote:   b([]string{"P"}, "P", "promote variation"),
		MainLine:  b([]string{"M"}, "M", "make main line"),
		// Analysis only, with ctrl+z to undo: x is no move's first letter.
		DeleteVariation: b([]string{"x"}, "x", "delete variation"),
		DeleteAfter:     b([]string{"X"}, "X", "delete moves after"),
		Undo:            b([]string{"ctrl+z"}, "ctrl+z", "undo"),
		Redo:            b([]string{"ctrl+y"}, "ctrl+y", "redo"),
		SetUp:           b([]string{"E"}, "E", "set up a position"),
		Tags:            b([]string{"T"}, "T", "edit tags"),
		// The game list is a view (Options.Views); its key is here so
		// that the help shows it and the move box lets it through.
		Games:    b([]string{"G"}, "G", "game list"),
		Position: b([]string{"Y"}, "Y", "games reaching this position"),
		Engines:  b([]string{"U"}, "U", "engines"),
		Explorer: b([]string{"Z"}, "Z", "explorer"),
		Help:     b([]string{"?"}, "?", "help"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// inputHelp is the help bar while the move input has focus. command, when
// set, is the board command that Enter runs on the one letter typed (a:
// analysis, until a3 is typed): the bar says so, and that tab completes
// the move instead.
type inputHelp struct {
	k       keyMap
	command *key.Binding
}

func (h inputHelp) ShortHelp() []key.Binding {
	enter := h.k.Play
	var complete []key.Binding
	if h.command != nil {
		enter = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", h.command.Help().Desc))
		complete = []key.Binding{key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete the move"))}
	}
	return append(append([]key.Binding{enter}, complete...), h.k.Focus, h.k.Help,
		key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")), h.k.Prev, h.k.Next)
}
func (h inputHelp) FullHelp() [][]key.Binding { return nil }

// boardHelp is the help bar and full help in board focus; book adds the
// book keys, which do nothing without one.
type boardHelp struct {
	k    keyMap
	book bool
}

func (h boardHelp) ShortHelp() []key.Binding {
	k := h.k
	return []key.Binding{k.Board, k.Help, k.Quit, k.Analysis, k.Flip, k.New, k.Takeback, k.Prev, k.Next}
}

func (h boardHelp) FullHelp() [][]key.Binding {
	k := h.k
	groups := [][]key.Binding{
		{k.Board, k.Focus, k.Play, k.Cursor, k.Pick},
		{k.Prev, k.Next, k.First, k.Last, k.Variation, k.Swing, k.Flip},
		{k.Analysis, k.MorePV, k.Best, k.Hint, k.Score, k.Engines, k.Explorer},
		{k.New, k.Takeback, k.Resign, k.Draw, k.Level, k.Clock},
		{k.Open, k.Games, k.Position, k.Save, k.PasteFEN, k.CopyFEN, k.SetUp, k.Tags, k.Theme, k.Quit},
		{k.Comment, k.Glyph, k.Mark, k.Promote, k.MainLine, k.DeleteVariation, k.DeleteAfter, k.Undo, k.Redo},
	}
	if h.book {
		groups = append(groups, []key.Binding{k.BookMove, k.BookMark})
	}
	return groups
}
