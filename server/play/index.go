package play

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// The players' index of games (store.Played) is written by the hub as each
// game ends (Hub.index). A store whose archive was written before the
// index existed has its archive indexed once, from the games' PGN tags, by
// the first hub opened on it (indexArchive): after that the index alone
// answers for a player's games.

// indexArchive indexes the archive's games, unless that was done. The
// archive is read once, newest first; a game indexed meanwhile by another
// server's hub is indexed again and read once (store.PlayedBy keeps one
// line of a game).
func indexArchive(ctx context.Context, st *store.Store) error {
	if done, err := st.IndexedArchive(ctx); err != nil || done {
		return err
	}
	for a, err := range st.ArchivedSince(ctx, time.Time{}) {
		if err != nil {
			return err
		}
		g, err := pgn.NewReader(strings.NewReader(a.PGN), a.ID).Next()
		if err != nil {
			continue // not a game a server wrote
		}
		for _, p := range playedOf(a, g) {
			if err := st.AddPlayed(ctx, p); err != nil {
				return err
			}
		}
	}
	if err := st.MarkIndexedArchive(ctx); err != nil {
		return fmt.Errorf("index of the archive: %w", err)
	}
	return nil
}

// playedOf are both players' lines of archived game g, as its tags tell
// them: the ratings rounded (WhiteElo, WhiteRatingDiff), the start to the
// second (Date, UTCTime).
func playedOf(a store.Archived, g *pgn.Game) []store.Played {
	tc, err := clock.ParseSeconds(g.Tag("TimeControl"))
	if err != nil {
		return nil
	}
	started, _ := time.Parse("2006.01.02 15:04:05", g.Tag("Date")+" "+g.Tag("UTCTime"))
	var score float64
	switch g.Result {
	case "1-0":
		score = 1
	case "1/2-1/2":
		score = 0.5
	case "0-1":
	default:
		return nil
	}
	rated := strings.HasPrefix(g.Tag("Event"), "Rated ")
	names := [2]string{g.Tag("White"), g.Tag("Black")}
	var out []store.Played
	for side, colour := range []string{"White", "Black"} {
		p := store.Played{
			ID: a.ID, Handle: names[side], Opponent: names[1-side], White: side == 0,
			Score: score, Result: g.Result, Termination: termination(g),
			TimeControl: tc.String(), Speed: tc.Speed().String(), Rated: rated,
			Started: started, Ended: a.At.UTC(),
		}
		if side == 1 {
			p.Score = 1 - score
		}
		elo, err1 := strconv.ParseFloat(g.Tag(colour+"Elo"), 64)
		diff, err2 := strconv.ParseFloat(g.Tag(colour+"RatingDiff"), 64)
		if rated && err1 == nil && err2 == nil {
			p.Before, p.After = rating.Rating{Rating: elo}, rating.Rating{Rating: elo + diff}
		}
		out = append(out, p)
	}
	return out
}

// termination is how g ended, as Hub.index writes it (game.Termination,
// "checkmate"): read from the sentence the hub ends the last move's
// comment with ("White wins by resignation."), else the Termination tag.
func termination(g *pgn.Game) string {
	said := ""
	if line := g.Mainline(); len(line) > 0 {
		said = strings.Join(line[len(line)-1].After, " ")
	}
	switch {
	case strings.Contains(said, "left the game"):
		return string(game.Abandoned)
	case strings.Contains(said, "on time"), strings.Contains(said, "time ran out"):
		return string(game.TimeForfeit)
	}
	for _, t := range []game.Termination{game.Checkmate, game.Stalemate, game.Repetition, game.FiftyMoves,
		game.InsufficientMaterial, game.Resignation, game.Agreement} {
		if strings.Contains(said, string(t)) {
			return string(t)
		}
	}
	return g.Tag("Termination")
}
