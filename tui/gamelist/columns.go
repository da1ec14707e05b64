package gamelist

import (
	"cmp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A column of the list: its title, how a row's cell reads, how two rows
// compare when the list is sorted by it, and its width (fixed, or a share
// of the room left).
type column struct {
	title string
	cell  func(n names, r *row) string
	cmp   func(n names, a, b *row) int
	width int // fixed width, or the least a flexible column gets
	flex  int // its share of the room left (0: fixed)
	right bool
	// drop: the order in which columns go on a narrow screen (0 stays).
	drop int
}

// text is a column of a text tag, compared as a reader sorts names.
func text(title string, of func(*row) name, width, flex, drop int) column {
	return column{title: title, width: width, flex: flex, drop: drop,
		cell: func(n names, r *row) string { return unknown(n[of(r)]) },
		cmp:  func(n names, a, b *row) int { return foldCompare(n[of(a)], n[of(b)]) },
	}
}

// number is a column of a number, on the right.
func number[T int16 | int32](title string, of func(*row) T, width, drop int) column {
	return column{title: title, width: width, drop: drop, right: true,
		cell: func(_ names, r *row) string {
			if v := of(r); v > 0 {
				return strconv.Itoa(int(v))
			}
			return ""
		},
		cmp: func(_ names, a, b *row) int { return cmp.Compare(of(a), of(b)) },
	}
}

// columns are the list's columns in screen order; the first, the game's
// number, is the file's order.
var columns = []column{
	number("#", func(r *row) int32 { return r.num }, 2, 0),
	text("White", func(r *row) name { return r.white }, 12, 2, 0),
	number("Elo", func(r *row) int16 { return r.welo }, 4, 3),
	text("Black", func(r *row) name { return r.black }, 12, 2, 0),
	number("Elo", func(r *row) int16 { return r.belo }, 4, 3),
	text("Result", func(r *row) name { return r.result }, 7, 0, 0),
	{title: "Date", width: 10, drop: 4,
		cell: func(n names, r *row) string { return shortDate(n[r.date]) },
		cmp:  func(n names, a, b *row) int { return cmp.Compare(n[a.date], n[b.date]) }},
	text("Event", func(r *row) name { return r.event }, 10, 2, 2),
	text("ECO", func(r *row) name { return r.eco }, 3, 0, 5),
	{title: "Opening", width: 12, flex: 3, drop: 1,
		cell: func(n names, r *row) string { return opening(n, r) },
		cmp:  func(n names, a, b *row) int { return foldCompare(opening(n, a), opening(n, b)) }},
	number("Plies", func(r *row) int32 { return r.plies }, 5, 6),
}

// foldCompare compares two texts ignoring case, as a reader sorts names,
// without making lower-case copies (a sort compares a million times).
func foldCompare(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if c := cmp.Compare(unicode.ToLower(ra), unicode.ToLower(rb)); c != 0 {
			return c
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

// opening is the Opening tag with its Variation, if any.
func opening(n names, r *row) string {
	o, v := n[r.opening], n[r.variation]
	switch {
	case v == "":
		return o
	case o == "":
		return v
	}
	return o + ", " + v
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
