package uci

import (
	"fmt"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// FormatPosition writes g as "position startpos|fen … moves …";
// ParsePosition reads it back.
func FormatPosition(g engine.Game) string {
	var b strings.Builder
	fen := g.Start.FEN()
	if fen == chess.NewPosition().FEN() {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position fen " + fen)
	}
	writeMoves(&b, "moves", g.Moves, g.Start.Chess960())
	return b.String()
}

// ParsePosition reads the arguments of "position" (after the word):
// startpos or fen FEN, then optionally moves …. chess960 marks the start
// as Chess960 (UCI_Chess960 is set; a FEN with Shredder castling is one
// anyway). A move that is not legal ends the list: as Stockfish does, the
// game up to it is returned, with an error naming the move, so the engine
// searches the position the GUI reached and not the one before. Any other
// error returns no game (Start nil).
func ParsePosition(f []string, chess960 bool) (engine.Game, error) {
	if len(f) == 0 {
		return engine.Game{}, fmt.Errorf("position: expected startpos or fen")
	}
	var start *chess.Position
	i := 0
	switch f[0] {
	case "startpos":
		start = chess.NewPosition()
		i = 1
	case "fen":
		j := 1
		for j < len(f) && f[j] != "moves" {
			j++
		}
		if j == 1 {
			return engine.Game{}, fmt.Errorf("position fen: missing FEN")
		}
		p, err := chess.ParseFEN(strings.Join(f[1:j], " "))
		if err != nil {
			return engine.Game{}, fmt.Errorf("position fen: %w", err)
		}
		start, i = p, j
	default:
		return engine.Game{}, fmt.Errorf("position: expected startpos or fen, got %q", engine.Clip(f[0], quoted))
	}
	start.SetChess960(chess960 || start.Chess960())
	g := engine.Game{Start: start}
	if i == len(f) {
		return g, nil
	}
	if f[i] != "moves" {
		return engine.Game{}, fmt.Errorf("position: expected moves, got %q", engine.Clip(f[i], quoted))
	}
	p := start.Clone()
	var u chess.Undo
	for k, tok := range f[i+1:] {
		m, err := p.ParseUCI(tok)
		if err != nil {
			return g, fmt.Errorf("position: move %d %q refused (%v); the position is the one after move %d", k+1, engine.Clip(tok, quoted), err, k)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &u)
	}
	return g, nil
}
