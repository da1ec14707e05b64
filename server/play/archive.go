package play

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/account"
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
// no game names is an error.
func PlayerPGN(ctx context.Context, st *store.Store, handle string, since time.Time, w io.Writer) (int, error) {
	want := account.Key(handle)
	day := ""
	if !since.IsZero() {
		since = since.UTC().Truncate(24 * time.Hour)
		day = since.Format("2006.01.02")
	}
	n := 0
	for a, err := range st.ArchivedSince(ctx, since) {
		if err != nil {
			return n, err
		}
		e, err := pgn.NewReader(strings.NewReader(a.PGN), a.ID).NextEntry()
		if err != nil {
			continue // not a game this server wrote
		}
		if account.Key(e.Tag("White")) != want && account.Key(e.Tag("Black")) != want {
			continue
		}
		// The archive's Date is the day the game began (YYYY.MM.DD, which
		// sorts as the dates do).
		if day != "" && e.Tag("Date") < day {
			continue
		}
		if _, err := io.WriteString(w, a.PGN); err != nil {
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
