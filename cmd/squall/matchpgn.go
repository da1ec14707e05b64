package main

import (
	"io"
	"strconv"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/match"
	"github.com/squall-chess/squall/pgn"
)

// writeMatchGame writes a finished match game through package pgn,
// Squall's one PGN writer: the Seven Tag Roster (event "" is "Squall
// match"), the setup of the opening, the clock and how the game ended,
// then the moves with the ending in a comment after the last one. It lives
// here, not in engine/match, so that the engine side knows games and not
// file formats (match.Config.Finished hands each game over).
func writeMatchGame(w io.Writer, g *match.Game, names [2]string, event string, tc clock.TimeControl) error {
	pg := pgn.NewGame()
	if event == "" {
		event = "Squall match"
	}
	control := "-"
	if tc.Base > 0 {
		control = tc.PGNTag()
	}
	for _, t := range [][2]string{
		{"Event", event},
		{"Date", g.Date.Format("2006.01.02")},
		{"Round", strconv.Itoa(g.Number)},
		{"White", names[g.White]},
		{"Black", names[1-g.White]},
		{"Result", g.Result},
	} {
		pg.SetTag(t[0], t[1])
	}
	if fen := g.Start.FEN(); fen != chess.StartFEN || g.Start.Chess960() {
		pg.SetTag("SetUp", "1")
		pg.SetTag("FEN", fen)
	}
	if g.Start.Chess960() {
		pg.SetTag("Variant", "Chess960")
	}
	pg.SetTag("TimeControl", control)
	pg.SetTag("PlyCount", strconv.Itoa(len(g.Moves)))
	pg.SetTag("Termination", g.Termination.PGN())

	n := pg.Root
	p := g.Start.Clone()
	var u chess.Undo
	for _, m := range g.Moves {
		n = n.AddChild(m, p.SAN(m))
		p.MakeMove(m, &u)
	}
	n.After = append(n.After, g.Detail)
	return pgn.Write(w, pg)
}
