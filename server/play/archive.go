package play

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/squall-chess/squall/server/store"
)

// Finished games as PGN for the players (`ssh host pgn ID`, `ssh host
// games HANDLE`): the archive's text as it is, the same bytes `squall
// serve export` writes, so that what a player gets re-reads as the export
// does.

// GamePGN writes finished game id's PGN to w. A game in progress is
// refused: its PGN would show the game ahead of what spectators see.
func GamePGN(ctx context.Context, st *store.Store, id string, w io.Writer) error {
	text, found, err := st.ArchivedGame(ctx, id)
	if err != nil {
		return err
	}
	if !found {
		rec, _, live, err := st.Game(ctx, id)
		switch {
		case err != nil:
			return err
		case live && rec.End == nil:
			return fmt.Errorf("game %s is in progress: its PGN is kept once it ends", id)
		case live && rec.End.PGN != "":
			// Over, and archived in a moment (or its host died between
			// the two writes, and the server taking it over archives it).
			text = rec.End.PGN
		default:
			return fmt.Errorf("no game %s (a game is kept once it ends; aborted games are not)", id)
		}
	}
	_, err = io.WriteString(w, text)
	return err
}

// PlayerPGN writes handle's finished games to w, newest first: those
// begun on since's day or later (UTC, as the PGN Date tag; the zero time:
// all of them). It returns how many it wrote; a handle nobody holds and
// no game names is an error. The games are found by the player's index
// (store.PlayedBy), each read from the archive by its id.
func PlayerPGN(ctx context.Context, st *store.Store, handle string, since time.Time, w io.Writer) (int, error) {
	games, err := st.PlayedBy(ctx, handle)
	if err != nil {
		return 0, err
	}
	since = since.UTC().Truncate(24 * time.Hour)
	n := 0
	for _, g := range games {
		if g.Started.Before(since) {
			continue
		}
		text, found, err := st.ArchivedGame(ctx, g.ID)
		if err != nil {
			return n, err
		}
		if !found {
			continue // deleted from the archive by hand
		}
		if _, err := io.WriteString(w, text); err != nil {
			return n, err
		}
		n++
	}
	if n == 0 {
		held, err := st.HandleHeld(ctx, handle)
		if err != nil {
			return 0, err
		}
		if !held {
			return 0, fmt.Errorf("no player %s", handle)
		}
	}
	return n, nil
}
