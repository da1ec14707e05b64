package match

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// writePGN writes g in PGN export format: the Seven Tag Roster, the setup
// of the opening, the clock and how the game ended, then SAN movetext
// wrapped at 80 columns with the ending in a final comment. It is kept to
// what a match needs; the pgn package is the full reader and writer.
func writePGN(w io.Writer, g *Game, names [2]string, cfg Config) error {
	event := cfg.Event
	if event == "" {
		event = "Squall match"
	}
	var b strings.Builder
	tag := func(name, value string) {
		value = strings.ReplaceAll(value, `\`, `\\`)
		value = strings.ReplaceAll(value, `"`, `\"`)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
	}
	tag("Event", event)
	tag("Site", "?")
	tag("Date", g.Date.Format("2006.01.02"))
	tag("Round", strconv.Itoa(g.Number))
	tag("White", names[g.White])
	tag("Black", names[1-g.White])
	tag("Result", g.Result)
	if fen := g.Start.FEN(); fen != chess.StartFEN {
		tag("SetUp", "1")
		tag("FEN", fen)
	}
	if g.Start.Chess960() {
		tag("Variant", "Chess960")
	}
	if cfg.TC.Base > 0 {
		tag("TimeControl", cfg.TC.String())
	} else {
		tag("TimeControl", "-")
	}
	tag("PlyCount", strconv.Itoa(len(g.Moves)))
	tag("Termination", g.Termination.pgnTag())
	b.WriteByte('\n')

	var tokens []string
	p := g.Start.Clone()
	var u chess.Undo
	for i, m := range g.Moves {
		switch {
		case p.SideToMove() == chess.White:
			tokens = append(tokens, strconv.Itoa(p.FullmoveNumber())+".")
		case i == 0:
			tokens = append(tokens, strconv.Itoa(p.FullmoveNumber())+"...")
		}
		tokens = append(tokens, p.SAN(m))
		p.MakeMove(m, &u)
	}
	// A comment ends at the first closing brace; keep braces out of it.
	comment := strings.NewReplacer("{", "(", "}", ")").Replace(g.Detail)
	tokens = append(tokens, "{"+comment+"}", g.Result)
	col := 0
	for _, t := range tokens {
		if col > 0 && col+1+len(t) > 80 {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(t)
		col += len(t)
	}
	b.WriteString("\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}
