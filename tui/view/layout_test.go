package view

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/boardview"
)

// TestTerminalTheme: a terminal without colours, or with only the 16 ANSI
// ones, gets the monochrome theme; one with 256 colours or more keeps the
// theme asked for.
func TestTerminalTheme(t *testing.T) {
	th, _ := themes.ByName(themes.Default)
	for p, mono := range map[termenv.Profile]bool{termenv.Ascii: true, termenv.ANSI: true, termenv.ANSI256: false, termenv.TrueColor: false} {
		r := lipgloss.NewRenderer(&strings.Builder{})
		r.SetColorProfile(p)
		if got := TerminalTheme(r, th); got.Monochrome != mono || Colourless(r) != mono {
			t.Errorf("profile %v: theme %s, colourless %v; want monochrome %v", p, got.Name, Colourless(r), mono)
		}
	}
}

// TestSquareSize: the largest board whose eval bar and panel fit, the
// smallest when none does.
func TestSquareSize(t *testing.T) {
	mins := PanelMins{30, 40, 45, 50}
	sizes := boardview.Sizes()
	for _, c := range []struct{ w, h, want int }{
		{20, 5, 0},
		{sizes[1].Width() + EvalBarWidth + 40, sizes[1].Height(), 1},
		{sizes[1].Width() + EvalBarWidth + 39, sizes[1].Height(), 0},
		{sizes[1].Width() + EvalBarWidth + 40, sizes[1].Height() - 1, 0},
		{300, 100, 3},
	} {
		if got := SquareSize(c.w, c.h, mins); got != c.want {
			t.Errorf("%d×%d: size %d, want %d", c.w, c.h, got, c.want)
		}
	}
}
