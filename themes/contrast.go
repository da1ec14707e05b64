package themes

import (
	"math"
	"strconv"
	"strings"
)

// MinPieceContrast is the least contrast ratio (WCAG 2: (L1+0.05)/(L2+0.05)
// of relative luminances) a built-in theme keeps between either side's
// pieces and every square colour a piece can stand on. Both sides use the
// same filled glyphs, so colour is all that tells a piece from its square:
// the classic pale light squares of web boards (ratio ≈1.4 to a white piece)
// make White's pieces vanish, which is why the built-in squares are
// mid-tones.
//
// Measured by TestPiecesVisible, the lowest piece/square ratio of each
// built-in theme (highlights included):
//
//	classic        2.51:1
//	green          2.59:1
//	blue           2.55:1
//	high-contrast  6.08:1 (black pieces, White's as outlines: WCAG AA)
//	colorblind     2.60:1
const MinPieceContrast = 2.5

// rgb returns a colour's red, green and blue in 0…255. ANSI colours 0–15
// depend on the terminal's palette and the empty colour on its background,
// so they have no fixed value (ok = false).
func (c Color) rgb() (r, g, b int, ok bool) {
	s := string(c)
	if strings.HasPrefix(s, "#") && len(s) == 7 {
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err != nil {
			return 0, 0, 0, false
		}
		return int(v >> 16), int(v >> 8 & 0xff), int(v & 0xff), true
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil || n < 16 || n > 255:
		return 0, 0, 0, false
	case n < 232: // the xterm 6×6×6 cube
		level := func(i int) int {
			if i == 0 {
				return 0
			}
			return 55 + 40*i
		}
		n -= 16
		return level(n / 36), level(n / 6 % 6), level(n % 6), true
	default: // the grey ramp 232–255: 8, 18, …, 238
		v := 8 + 10*(n-232)
		return v, v, v, true
	}
}

// Luminance is a colour's relative luminance (WCAG 2, sRGB) in [0, 1];
// ok is false for colours without a fixed value (see rgb).
func (c Color) Luminance() (float64, bool) {
	r, g, b, ok := c.rgb()
	if !ok {
		return 0, false
	}
	lin := func(v int) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b), true
}

// Contrast is the WCAG 2 contrast ratio of two colours, from 1 (same
// luminance) to 21 (black on white); ok is false when either colour has no
// fixed value.
func Contrast(a, b Color) (float64, bool) {
	la, oka := a.Luminance()
	lb, okb := b.Luminance()
	if !oka || !okb {
		return 0, false
	}
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05), true
}

// PieceBackgrounds are the colours a piece may be drawn on: the squares,
// every highlight and every mark.
func (t Theme) PieceBackgrounds() []Color {
	return []Color{t.Light, t.Dark, t.LastLight, t.LastDark, t.Selected, t.Check, t.Hint, t.Cursor,
		t.MarkGreen, t.MarkRed, t.MarkYellow, t.MarkBlue}
}
