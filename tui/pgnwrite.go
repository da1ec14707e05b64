package tui

import (
	"fmt"

	"github.com/squall-chess/squall/engine/chess"
	"sort"
	"strings"
)

// sevenTags are PGN's Seven Tag Roster, written first and in this order.
var sevenTags = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// WritePGN renders the tree as one PGN game (tags, movetext with variations
// in parentheses, result), lines wrapped under 80 columns.
func (t *Tree) WritePGN() string {
	var b strings.Builder
	tags := map[string]string{}
	for k, v := range t.Tags {
		tags[k] = v
	}
	tags["Result"] = t.Result
	if fen := t.Start.FEN(); fen != chess.StartFEN {
		tags["SetUp"] = "1"
		tags["FEN"] = fen
	}
	defaults := map[string]string{"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "-", "White": "?", "Black": "?"}
	for _, k := range sevenTags {
		v, ok := tags[k]
		if !ok {
			v = defaults[k]
		}
		fmt.Fprintf(&b, "[%s \"%s\"]\n", k, escapeTag(v))
	}
	var rest []string
	for k := range tags {
		if !contains(sevenTags, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", k, escapeTag(tags[k]))
	}
	b.WriteByte('\n')
	var toks []string
	startPly := gamePly(t.Start)
	toks = t.movetext(t.Root, startPly, toks, true)
	toks = append(toks, t.Result)
	col := 0
	for i, tok := range toks {
		if i > 0 && (toks[i-1] == "(" || tok == ")") {
			// glued: "(2. d4)"
		} else if i > 0 {
			if col+1+len(tok) > 79 {
				b.WriteByte('\n')
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(tok)
		col += len(tok)
	}
	b.WriteString("\n\n")
	return b.String()
}

// movetext appends the tokens of the line after n (ply = plies from the
// standard start before n's children) with variations of each move.
func (t *Tree) movetext(n *Node, ply int, toks []string, needNumber bool) []string {
	for len(n.Children) > 0 {
		main := n.Children[0]
		toks = appendMove(toks, main, ply, needNumber)
		needNumber = false
		for _, v := range n.Children[1:] {
			toks = append(toks, "(")
			toks = appendMove(toks, v, ply, true)
			toks = t.movetext(v, ply+1, toks, false)
			toks = append(toks, ")")
			needNumber = true
		}
		if main.Comment != "" {
			toks = append(toks, "{"+strings.ReplaceAll(main.Comment, "}", ")")+"}")
			needNumber = true
		}
		n = main
		ply++
	}
	return toks
}

func appendMove(toks []string, n *Node, ply int, needNumber bool) []string {
	num := ply/2 + 1
	switch {
	case ply%2 == 0:
		toks = append(toks, fmt.Sprintf("%d.", num))
	case needNumber:
		toks = append(toks, fmt.Sprintf("%d...", num))
	}
	return append(toks, n.SAN)
}

func escapeTag(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, `"`, `\"`)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
