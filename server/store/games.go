package store

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/rating"
)

// GameRecord is the one record of a game on the server: as its host
// writes it after each of its events, as every server of a cluster
// follows it (the games bucket is how the servers follow the games the
// others host), and as the screens and Squall's seats get it (play.Update
// is this record with its moves replayed, decoded once where the hub
// writes or observes it). It holds enough to rebuild the game after a
// crash (game.Resume).
type GameRecord struct {
	ID string `json:"id"`
	Players
	Game game.State `json:"game"`
	// Host is the server hosting the game when it was written.
	Host string `json:"host,omitempty"`
	// Ratings are a rated game's ratings as its end computed them,
	// written before either player's rating is: a server that finishes
	// the game after its host died writes these, not ratings computed
	// again from ones that may already include the game.
	Ratings *Ratings `json:"ratings,omitempty"`
	// End is set once the game is over; the record stays a little while
	// after (for the screens of other servers), then is dropped.
	End *End `json:"end,omitempty"`
}

// Players are a game's two handles and its kind.
type Players struct {
	White string `json:"white"`
	Black string `json:"black"`
	Rated bool   `json:"rated"`
	// AtStart are both players' ratings at the game's speed as it began,
	// by colour, for the screens (zero for Squall's seat, and in a record
	// from before they were kept).
	AtStart [2]rating.Rating `json:"at_start,omitzero"`
	// Arena is the id of the arena tournament the game is played in (""
	// for any other game), ArenaName that arena's name: the archive's
	// Event ("Hourly Bullet Arena", as lichess names its arenas' games).
	Arena     string `json:"arena,omitempty"`
	ArenaName string `json:"arena_name,omitempty"`
}

// Plays tells whether handle is one of the players, as handles are told
// apart (account.Key): a player's own keys never get the spectators'
// analysis of their game in progress, on any server of a cluster, each of
// which knows the players from the game's record.
func (p Players) Plays(handle string) bool {
	k := account.Key(handle)
	return handle != "" && (k == account.Key(p.White) || k == account.Key(p.Black))
}

// Handles are the two handles by colour, White's first.
func (p Players) Handles() [2]string { return [2]string{p.White, p.Black} }

// Over tells whether the record is of a game over (its End written).
func (g GameRecord) Over() bool { return g.End != nil }

// Clocks are both sides' clocks at at, the one way to read them
// (game.State.Clocks): at is on the clock that read the record (its
// Game.Saved).
func (g GameRecord) Clocks(at time.Time) [2]time.Duration { return g.Game.Clocks(at, g.Over()) }

// Ratings are a rated game's ratings by colour, before and after it.
type Ratings struct {
	Before [2]rating.Rating `json:"before"`
	After  [2]rating.Rating `json:"after"`
}

// End is how a game ended, as its last record says.
type End struct {
	Result game.Result `json:"result"`
	// Ratings are a rated game's (zero for a casual one).
	Ratings
	// PGN is the game as archived; "" for an aborted game.
	PGN string `json:"pgn,omitempty"`
}

// ErrStale refuses a write made at a revision that is no longer the
// record's last: another server has written it since (a game taken over,
// a seek taken), a write of this server's that timed out reached the
// store after all, or the record is gone.
var ErrStale = errors.New("the record was written since")

func gameKey(id string) string { return "game." + key(id) }

// SaveGame stores a game's state and returns its new revision, once
// JetStream has it. rev is the revision the writer last wrote or read: 0
// makes a new game (refused if the id exists); any other revision must
// still be the game's last (ErrStale otherwise), so two servers that both
// believe they host a game cannot both write it.
func (s *Store) SaveGame(ctx context.Context, g GameRecord, rev uint64) (uint64, error) {
	data, err := json.Marshal(g)
	if err != nil {
		return 0, err
	}
	if rev == 0 {
		rev, err = s.games.Create(ctx, gameKey(g.ID), data)
	} else {
		rev, err = s.games.Update(ctx, gameKey(g.ID), data, rev)
	}
	if err := stale(err); err != nil {
		return 0, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return rev, nil
}

// Game is game id's last record and its revision; found is false once it
// is dropped.
func (s *Store) Game(ctx context.Context, id string) (g GameRecord, rev uint64, found bool, err error) {
	e, err := s.games.Get(ctx, gameKey(id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return GameRecord{}, 0, false, nil
	}
	if err != nil {
		return GameRecord{}, 0, false, err
	}
	if err := json.Unmarshal(e.Value(), &g); err != nil {
		return GameRecord{}, 0, false, fmt.Errorf("game %s: %w", id, err)
	}
	return g, e.Revision(), true, nil
}

// Games are the stored games — in progress, or over and not yet dropped —
// as last written.
func (s *Store) Games(ctx context.Context) ([]GameRecord, error) {
	keys, err := s.games.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	var out []GameRecord
	for k := range keys.Keys() {
		var g GameRecord
		if found, err := getJSON(ctx, s.games, k, &g); err != nil {
			return nil, err
		} else if found {
			out = append(out, g)
		}
	}
	return out, nil
}

// ArchiveGame appends a finished game's PGN to the archive. A game
// archived twice (a crash between archiving and the game's last write) is
// archived once: the message carries the game id, which JetStream
// deduplicates for a day.
func (s *Store) ArchiveGame(ctx context.Context, id, pgn string) error {
	if _, err := s.js.Publish(ctx, archiveSubject+"."+key(id), []byte(pgn), jetstream.WithMsgID(id)); err != nil {
		return fmt.Errorf("archive %s: %w", id, err)
	}
	return nil
}

// DropGame forgets a game, and its chat: one over and archived, or
// aborted.
func (s *Store) DropGame(ctx context.Context, id string) error {
	if err := s.games.Delete(ctx, gameKey(id)); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return err
	}
	return s.dropChat(ctx, id)
}

// GameEvent is a change to a stored game: its new record, or its drop.
type GameEvent struct {
	ID string
	// Game is the new record; nil when the game was dropped.
	Game *GameRecord
	Rev  uint64
}

// FollowGames follows every stored game until ctx ends: first each
// game's last record, then each change as it is written, in order, each
// given to fn (from FollowGames's goroutine). A broken watch is followed
// again a second later, from each game's last record again (report, if
// not nil, hears of each break). A record that cannot be read is skipped:
// a server of another version may have written it. It returns once ctx
// has ended.
func (s *Store) FollowGames(ctx context.Context, fn func(GameEvent), report func(error)) {
	follow(ctx, s.games, func(e jetstream.KeyValueEntry) {
		id, err := hex.DecodeString(strings.TrimPrefix(e.Key(), "game."))
		if err != nil {
			return
		}
		ev := GameEvent{ID: string(id), Rev: e.Revision()}
		if e.Operation() == jetstream.KeyValuePut {
			var g GameRecord
			if json.Unmarshal(e.Value(), &g) != nil {
				return
			}
			ev.Game = &g
		}
		fn(ev)
	}, report)
}
