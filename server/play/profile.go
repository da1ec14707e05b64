package play

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
)

// A player's profile (`ssh host profile HANDLE`, and its screen): read
// from the account, the ratings and the player's index of games
// (store.PlayedBy), never from the whole archive.

// Profile is what the server knows of a player.
type Profile struct {
	// Handle is as the player chose it.
	Handle string
	// Since is when the account was made (zero for a handle with games and
	// no account: Squall's seats).
	Since time.Time
	// Speeds are the player's ratings, one for each speed, fastest first.
	Speeds []SpeedRating
	// Games are the player's finished games, newest first.
	Games []store.Played
	// Won, Drawn and Lost count Games.
	Won, Drawn, Lost int
}

// SpeedRating is a player's rating at one speed.
type SpeedRating struct {
	Speed clock.Speed
	// Rating is as stored (a new player's when the player has no rated
	// game at the speed).
	Rating rating.Rating
	// Rated counts the rated games at the speed.
	Rated int
	// History is the rating after each rated game at the speed, oldest
	// first.
	History []float64
}

// PlayerProfile is handle's profile; a handle nobody holds and no game
// names is an error.
func PlayerProfile(ctx context.Context, st *store.Store, handle string) (Profile, error) {
	acc, found, err := st.AccountOf(ctx, handle)
	if err != nil {
		return Profile{}, err
	}
	games, err := st.PlayedBy(ctx, handle)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{Handle: handle, Games: games}
	switch {
	case found:
		p.Handle, p.Since = acc.Handle, acc.Created
	case len(games) > 0:
		p.Handle = games[0].Handle
	default:
		return Profile{}, fmt.Errorf("no player %s", handle)
	}
	for _, g := range games {
		switch g.Outcome() {
		case "won":
			p.Won++
		case "drew":
			p.Drawn++
		default:
			p.Lost++
		}
	}
	for s := clock.Bullet; s <= clock.Classical; s++ {
		r, err := st.Rating(ctx, p.Handle, s.String())
		if err != nil {
			return Profile{}, err
		}
		sr := SpeedRating{Speed: s, Rating: r}
		for i := len(games) - 1; i >= 0; i-- {
			if g := games[i]; g.Rated && g.Speed == s.String() {
				sr.Rated++
				sr.History = append(sr.History, g.After.Rating)
			}
		}
		p.Speeds = append(p.Speeds, sr)
	}
	return p, nil
}

// ArchivedEnded is finished game id as archived, for its review; a game
// not in the archive (in progress, aborted, unknown) is an error.
func ArchivedEnded(ctx context.Context, st *store.Store, id string) (*Ended, error) {
	text, found, err := st.ArchivedGame(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("no game %s in the archive", id)
	}
	g, err := pgn.NewReader(strings.NewReader(text), id).Next()
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	return &Ended{ID: id, PGN: g}, nil
}
