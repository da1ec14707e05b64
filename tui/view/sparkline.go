package view

import "strings"

// sparks are a sparkline's eight heights, lowest first.
var sparks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws values as one line of at most width cells, the last
// width values, the lowest as ▁ and the highest as █ (all ▄ when they are
// equal): a rating's history on a player's profile. No values, or width 0,
// is "".
func Sparkline(values []float64, width int) string {
	if width <= 0 || len(values) == 0 {
		return ""
	}
	values = values[max(len(values)-width, 0):]
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	var b strings.Builder
	for _, v := range values {
		level := 3
		if hi > lo {
			level = int((v - lo) / (hi - lo) * float64(len(sparks)-1))
		}
		b.WriteRune(sparks[level])
	}
	return b.String()
}
