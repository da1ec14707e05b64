// Package themes holds the colour themes of Squall's terminal board. A Theme
// is plain data: the board's square and piece colours, the highlight colours
// and the colours of the text around the board. Built-in themes are defined
// here; users add their own as small "key = value" files in
// $XDG_CONFIG_HOME/squall/themes/ (see Load).
package themes

import (
	"fmt"
	"sort"
	"strings"
)

// Color is a colour as "#rrggbb" (or an ANSI number "0"–"255"); empty means
// the terminal's default.
type Color string

// Adaptive is a colour for text drawn on the terminal's own background: one
// value for light backgrounds, one for dark ones.
type Adaptive struct {
	Light, Dark Color
}

// Theme is a complete set of colours for the board and the panels around it.
// Board colours are absolute (the squares carry their own background, so the
// pieces stay visible on any terminal); text colours adapt to the terminal.
type Theme struct {
	Name string
	// Squares.
	Light, Dark Color
	// Highlighted squares: last move's from/to, selected piece, legal
	// destinations, king in check, the engine's hint.
	LastLight, LastDark Color
	Selected            Color
	Target              Color // foreground of the destination marker
	Check               Color
	Hint                Color
	Cursor              Color // the keyboard cursor's square
	// Marks drawn by the game's annotator ([%csl], [%cal]): a square's
	// tint, and an arrow's squares, in green, red, yellow and blue (see
	// Mark).
	MarkGreen, MarkRed, MarkYellow, MarkBlue Color
	// Pieces: the same glyphs for both sides, told apart by colour.
	WhitePiece, BlackPiece Color
	// Text around the board.
	Text, Muted, Accent, Error Adaptive
	// Eval bar: White's share and Black's share.
	EvalWhite, EvalBlack Color
	// Monochrome themes draw no colours at all: the board then shows letters
	// (upper case White) and marks dark squares with a pattern.
	Monochrome bool
	// Outline themes draw both sides in BlackPiece and tell them apart by
	// shape instead: White's pieces as outlines (○ ♘ ♗ ♖ ♕ ♔), Black's
	// filled, and letters in FEN case. With colour no longer carrying the
	// side, every piece can stand out fully from every square: no pair of
	// square colours keeps both a white and a black piece at 4.5:1 and
	// still tells light squares from dark.
	Outline bool
}

var builtin = []Theme{
	{
		Name: "classic", Light: "#b99a72", Dark: "#86603f",
		LastLight: "#a8a84e", LastDark: "#7f7a2a", Selected: "#6a8a4a", Target: "#2a1a0a",
		Check: "#c8402a", Hint: "#4f86b8", Cursor: "#3f6fae",
		MarkGreen: "#3f8f3f", MarkRed: "#c04848", MarkYellow: "#c09a00", MarkBlue: "#4070c0",
		WhitePiece: "#ffffff", BlackPiece: "#000000",
		Text:      Adaptive{"#262626", "#e4e4e4"},
		Muted:     Adaptive{"#6c6c6c", "#8a8a8a"},
		Accent:    Adaptive{"#875f00", "#ffaf5f"},
		Error:     Adaptive{"#af0000", "#ff5f5f"},
		EvalWhite: "#eeeeee", EvalBlack: "#3a3a3a",
	},
	{
		Name: "green", Light: "#9ea57a", Dark: "#5b7842",
		LastLight: "#aaa43a", LastDark: "#7f8a20", Selected: "#8f9a30", Target: "#1a2a0a",
		Check: "#c8402a", Hint: "#4f86b8", Cursor: "#3f6fae",
		MarkGreen: "#1e9e50", MarkRed: "#c04848", MarkYellow: "#c09a00", MarkBlue: "#4070c0",
		WhitePiece: "#ffffff", BlackPiece: "#000000",
		Text:      Adaptive{"#262626", "#e4e4e4"},
		Muted:     Adaptive{"#6c6c6c", "#8a8a8a"},
		Accent:    Adaptive{"#005f00", "#87d75f"},
		Error:     Adaptive{"#af0000", "#ff5f5f"},
		EvalWhite: "#eeeeee", EvalBlack: "#3a3a3a",
	},
	{
		Name: "blue", Light: "#8fa5b6", Dark: "#56728a",
		LastLight: "#93a85e", LastDark: "#6a8a44", Selected: "#5e8a3a", Target: "#0a1a2a",
		Check: "#c8402a", Hint: "#c08a2c", Cursor: "#2f5f98",
		MarkGreen: "#3f8f3f", MarkRed: "#c04848", MarkYellow: "#c09a00", MarkBlue: "#2f60d0",
		WhitePiece: "#ffffff", BlackPiece: "#000000",
		Text:      Adaptive{"#262626", "#e4e4e4"},
		Muted:     Adaptive{"#6c6c6c", "#8a8a8a"},
		Accent:    Adaptive{"#005f87", "#5fafff"},
		Error:     Adaptive{"#af0000", "#ff5f5f"},
		EvalWhite: "#eeeeee", EvalBlack: "#3a3a3a",
	},
	{
		// High contrast: pure white/black pieces on squares far from both.
		// WCAG AA for every piece on every square (≥ 4.5:1): black
		// pieces, White's as outlines, on white and mid-grey squares.
		Name: "high-contrast", Light: "#ffffff", Dark: "#8a8a8a", Outline: true,
		LastLight: "#ffff66", LastDark: "#b0b040", Selected: "#66cccc", Target: "#000000",
		Check: "#ff8080", Hint: "#80c0ff", Cursor: "#a0a0ff",
		MarkGreen: "#60d060", MarkRed: "#ff6060", MarkYellow: "#ffe040", MarkBlue: "#6090ff",
		WhitePiece: "#000000", BlackPiece: "#000000",
		Text:      Adaptive{"#000000", "#ffffff"},
		Muted:     Adaptive{"#303030", "#d0d0d0"},
		Accent:    Adaptive{"#0000d7", "#ffff00"},
		Error:     Adaptive{"#d70000", "#ff5f5f"},
		EvalWhite: "#ffffff", EvalBlack: "#000000",
	},
	{
		// Colour-blind safe: blue/orange (Okabe–Ito) highlights, no reliance
		// on telling red from green.
		Name: "colorblind", Light: "#aa9d86", Dark: "#6e675c",
		LastLight: "#c08a30", LastDark: "#a06e00", Selected: "#3f8fc0", Target: "#002a4a",
		Check: "#b84c00", Hint: "#00876a", Cursor: "#0060a0",
		MarkGreen: "#009e73", MarkRed: "#d55e00", MarkYellow: "#b8a000", MarkBlue: "#3a8fd0",
		WhitePiece: "#ffffff", BlackPiece: "#000000",
		Text:      Adaptive{"#262626", "#e4e4e4"},
		Muted:     Adaptive{"#6c6c6c", "#8a8a8a"},
		Accent:    Adaptive{"#0072b2", "#56b4e9"},
		Error:     Adaptive{"#d55e00", "#e69f00"},
		EvalWhite: "#eeeeee", EvalBlack: "#3a3a3a",
	},
	{
		Name: "monochrome", Monochrome: true,
	},
}

// Mark is the colour of a mark of colour letter c ('G', 'R', 'Y' or 'B',
// as PGN's [%csl] and [%cal] write them); empty for any other.
func (t Theme) Mark(c byte) Color {
	switch c {
	case 'G':
		return t.MarkGreen
	case 'R':
		return t.MarkRed
	case 'Y':
		return t.MarkYellow
	case 'B':
		return t.MarkBlue
	}
	return ""
}

// Default is the theme used when none is configured.
const Default = "classic"

// Builtin returns copies of the built-in themes in a fixed order.
func Builtin() []Theme {
	return append([]Theme(nil), builtin...)
}

// Names lists the built-in theme names.
func Names() []string {
	var n []string
	for _, t := range builtin {
		n = append(n, t.Name)
	}
	return n
}

// Monochrome is the colourless theme used under NO_COLOR or on terminals
// with too few colours to draw a board.
func Monochrome() Theme { return builtin[len(builtin)-1] }

// ByName finds a theme among the built-in ones and the extra ones given (user
// themes win over built-in ones of the same name).
func ByName(name string, extra ...Theme) (Theme, bool) {
	for _, t := range extra {
		if strings.EqualFold(t.Name, name) {
			return t, true
		}
	}
	for _, t := range builtin {
		if strings.EqualFold(t.Name, name) {
			return t, true
		}
	}
	return Theme{}, false
}

// Sorted returns the names of all themes, built-in first, then extra ones
// alphabetically (for a settings picker).
func Sorted(extra []Theme) []string {
	names := Names()
	var more []string
	for _, t := range extra {
		if _, ok := ByName(t.Name); !ok {
			more = append(more, t.Name)
		}
	}
	sort.Strings(more)
	return append(names, more...)
}

// Validate reports the first malformed colour of a theme.
func (t Theme) Validate() error {
	if t.Name == "" {
		return fmt.Errorf("theme has no name")
	}
	for _, f := range t.fields() {
		if err := checkColor(string(*f.c)); err != nil {
			return fmt.Errorf("theme %s: %s: %w", t.Name, f.key, err)
		}
	}
	return nil
}
