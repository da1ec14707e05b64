package termtext

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want string
	}{
		{0, "0"},
		{9_999, "9999"},
		{10_000, "10k"},
		{148_400, "148k"},
		{999_999, "1000k"},
		{1_000_000, "1.0M"},
		{1_250_001, "1.3M"},
		{9_999_999, "10.0M"},
		{10_000_000, "10M"},
		{35_400_000, "35M"},
		{9_999_999_999, "10000M"},
		{10_000_000_000, "10G"},
		{12_345_678_901, "12G"},
	} {
		if got := Count(c.n); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestCut(t *testing.T) {
	r := lipgloss.NewRenderer(&strings.Builder{})
	r.SetColorProfile(termenv.TrueColor)
	bold := r.NewStyle().Bold(true).Render("depth 12/15")
	for _, c := range []struct {
		s     string
		w     int
		plain string // the result without its styles
	}{
		{"e4 e5 Nf3", 9, "e4 e5 Nf3"},
		{"e4 e5 Nf3", 20, "e4 e5 Nf3"},
		{"e4 e5 Nf3", 5, "e4 e…"},
		{"e4 e5 Nf3", 0, ""},
		{"Réti", 4, "Réti"},
		{"名人戦の棋譜", 6, "名人…"}, // two cells a rune
		{bold, 11, "depth 12/15"},
		{bold, 6, "depth…"},
	} {
		got := Cut(c.s, c.w)
		if plain := ansi.Strip(got); plain != c.plain {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.w, plain, c.plain)
		}
		if w := lipgloss.Width(got); w > max(c.w, 0) {
			t.Errorf("Cut(%q, %d) is %d cells wide", c.s, c.w, w)
		}
	}
	// Cutting keeps the styles: the bold run is closed, not left open.
	if got := Cut(bold, 6); !strings.HasPrefix(got, "\x1b[1m") || !strings.Contains(got, "\x1b[0m") {
		t.Errorf("Cut of a bold line lost its codes: %q", got)
	}
}
