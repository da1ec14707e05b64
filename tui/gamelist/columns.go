package gamelist

import (
	"cmp"
	"fmt"
	"strings"
)

// A column of the list: its title, how a row's cell reads, how two rows
// compare when the list is sorted by it, and its width (fixed, or a share
// of the room left when flex).
type column struct {
	title string
	cell  func(*row) string
	cmp   func(a, b *row) int
	width int // fixed width, or the least a flexible column gets
	flex  int // its share of the room left (0: fixed)
	// drop: the order in which columns go on a narrow screen (0 stays).
	drop int
}

// columns are the list's columns in screen order; the first, the game's
// number, is the file's order.
var columns = []column{
	{title: "#", cell: func(r *row) string { return fmt.Sprint(r.num) }, cmp: func(a, b *row) int { return cmp.Compare(a.num, b.num) }, width: 1},
	{title: "White", cell: func(r *row) string { return r.white }, cmp: func(a, b *row) int { return fold(a.white, b.white) }, width: 12, flex: 2},
	{title: "Elo", cell: func(r *row) string { return elo(r.welo) }, cmp: func(a, b *row) int { return cmp.Compare(a.welo, b.welo) }, width: 4, drop: 3},
	{title: "Black", cell: func(r *row) string { return r.black }, cmp: func(a, b *row) int { return fold(a.black, b.black) }, width: 12, flex: 2},
	{title: "Elo", cell: func(r *row) string { return elo(r.belo) }, cmp: func(a, b *row) int { return cmp.Compare(a.belo, b.belo) }, width: 4, drop: 3},
	{title: "Result", cell: func(r *row) string { return r.result }, cmp: func(a, b *row) int { return cmp.Compare(a.result, b.result) }, width: 7},
	{title: "Date", cell: func(r *row) string { return shortDate(r.date) }, cmp: func(a, b *row) int { return cmp.Compare(a.date, b.date) }, width: 10, drop: 4},
	{title: "Event", cell: func(r *row) string { return unknown(r.event) }, cmp: func(a, b *row) int { return fold(a.event, b.event) }, width: 10, flex: 2, drop: 2},
	{title: "ECO", cell: func(r *row) string { return r.eco }, cmp: func(a, b *row) int { return cmp.Compare(a.eco, b.eco) }, width: 3, drop: 5},
	{title: "Opening", cell: opening, cmp: func(a, b *row) int { return fold(opening(a), opening(b)) }, width: 12, flex: 3, drop: 1},
	{title: "Plies", cell: func(r *row) string { return fmt.Sprint(r.plies) }, cmp: func(a, b *row) int { return cmp.Compare(a.plies, b.plies) }, width: 5, drop: 6},
}

// fold compares two strings ignoring case, as a reader sorts names.
func fold(a, b string) int {
	return cmp.Compare(strings.ToLower(a), strings.ToLower(b))
}

// opening is the Opening tag with its Variation, if any.
func opening(r *row) string {
	if r.variation == "" {
		return r.opening
	}
	if r.opening == "" {
		return r.variation
	}
	return r.opening + ", " + r.variation
}

// unknown blanks the "?" a file writes for an unknown tag.
func unknown(s string) string {
	if strings.Trim(s, "?") == "" {
		return ""
	}
	return s
}

// shortDate is a PGN date with its unknown parts dropped: "2024.05.17",
// "2024.05", "2024", or "".
func shortDate(d string) string {
	for strings.HasSuffix(d, ".??") {
		d = d[:len(d)-3]
	}
	return unknown(d)
}

// layout chooses the columns that fit width and their widths: columns are
// dropped (Opening first) until the fixed ones and the least of the
// flexible ones fit, then the flexible ones share what is left. Columns
// are separated by one space.
func layout(width, numWidth int) (shown []int, widths []int) {
	for drop := 0; ; drop++ {
		shown, widths = shown[:0], widths[:0]
		need, shares := 0, 0
		for i, c := range columns {
			if c.drop != 0 && c.drop <= drop {
				continue
			}
			w := c.width
			if i == 0 {
				w = numWidth
			}
			shown, widths = append(shown, i), append(widths, w)
			need += w + 1
			shares += c.flex
		}
		need--
		if need <= width || drop > len(columns) {
			spare := max(width-need, 0)
			for k, i := range shown {
				if f := columns[i].flex; f > 0 {
					add := spare * f / shares
					widths[k] += add
					spare -= add
					shares -= f
				}
			}
			return shown, widths
		}
	}
}
