package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/rating"
)

// The players' index of finished games: one line per player of each
// archived game, in the stream SQUALL_PLAYED under a subject of the
// player's own (squall.played.HANDLE), so that a player's games, results
// and rating history are read from that player's lines alone — never by
// walking the whole archive. The hub writes both players' lines before the
// game's last record (its end as the players are told it), so a game
// acknowledged as over is in the index; a server that finishes a game after
// its host died writes them again, and JetStream keeps one (deduplicated by
// game and player for a day).

// Played is one finished game as one of its players played it.
type Played struct {
	ID       string `json:"id"`
	Handle   string `json:"handle"`
	Opponent string `json:"opponent"`
	// White: the player had White.
	White bool `json:"white"`
	// Score is the player's: 1 a win, ½ a draw, 0 a loss.
	Score float64 `json:"score"`
	// Result is the game's, as PGN has it ("1-0"); Termination how it
	// ended, in words ("checkmate").
	Result      string `json:"result"`
	Termination string `json:"termination"`
	// TimeControl is as the lobby writes it ("3+2"); Speed its speed
	// ("blitz").
	TimeControl string    `json:"tc"`
	Speed       string    `json:"speed"`
	Rated       bool      `json:"rated"`
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	// Before and After are the player's ratings at the game's speed
	// before and after a rated game (zero for a casual one). A line
	// indexed from an old archive knows the ratings only as its PGN tags
	// had them: rounded, with no deviation.
	Before rating.Rating `json:"before,omitzero"`
	After  rating.Rating `json:"after,omitzero"`
}

// Outcome is the player's result in a word: "won", "drew" or "lost".
func (p Played) Outcome() string {
	switch {
	case p.Score > 0.5:
		return "won"
	case p.Score == 0.5:
		return "drew"
	}
	return "lost"
}

const (
	playedStream  = "SQUALL_PLAYED"
	playedSubject = "squall.played"
	// playedIndexedKey, in the accounts bucket, says the archive from
	// before the index has been indexed (IndexedArchive).
	playedIndexedKey = "played.indexed"
)

// playedStreamConfig is the index's stream.
var playedStreamConfig = jetstream.StreamConfig{
	Name: playedStream, Description: "Squall's finished games by player", Subjects: []string{playedSubject + ".>"},
	Storage: jetstream.FileStorage, MaxMsgSize: 4 << 10,
	Duplicates: 24 * time.Hour, // a game's end written again by the server taking it over
}

func playedSubjectOf(handle string) string { return playedSubject + "." + key(account.Key(handle)) }

// AddPlayed adds p to its player's index. A line already added (the same
// game and player) within a day is not added again.
func (s *Store) AddPlayed(ctx context.Context, p Played) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	id := key(p.ID) + "." + key(account.Key(p.Handle))
	if _, err := s.js.Publish(ctx, playedSubjectOf(p.Handle), data, jetstream.WithMsgID(id)); err != nil {
		return fmt.Errorf("index game %s for %s: %w", p.ID, p.Handle, err)
	}
	return nil
}

// PlayedBy is handle's finished games (as handles are compared: in any
// case), newest first. It reads that player's lines only.
func (s *Store) PlayedBy(ctx context.Context, handle string) ([]Played, error) {
	subj := playedSubjectOf(handle)
	var out []Played
	seen := map[string]bool{} // an old line indexed again after the day of deduplication
	for seq := uint64(1); ; {
		m, err := s.played.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subj))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("games of %s: %w", handle, err)
		}
		seq = m.Sequence + 1
		var p Played
		if json.Unmarshal(m.Data, &p) != nil || seen[p.ID] {
			continue // a line of another version's, or one read already
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	// Newest first: by the end (the stream's order is the order the lines
	// were written, and an old archive indexed late comes after newer games).
	slices.Reverse(out)
	slices.SortStableFunc(out, func(a, b Played) int { return b.Ended.Compare(a.Ended) })
	return out, nil
}

// IndexedArchive reports whether the games archived before the index
// existed have been indexed (MarkIndexedArchive).
func (s *Store) IndexedArchive(ctx context.Context) (bool, error) {
	_, err := s.accounts.Get(ctx, playedIndexedKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// MarkIndexedArchive notes that the archive has been indexed.
func (s *Store) MarkIndexedArchive(ctx context.Context) error {
	_, err := s.accounts.Put(ctx, playedIndexedKey, []byte("1"))
	return err
}

// AccountOf is the account holding handle (as account.Key reads it);
// found is false for a handle nobody holds.
func (s *Store) AccountOf(ctx context.Context, handle string) (a Account, found bool, err error) {
	e, err := s.accounts.Get(ctx, "handle."+key(account.Key(handle)))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Account{}, false, nil
	}
	if err != nil {
		return Account{}, false, fmt.Errorf("handle %s: %w", handle, err)
	}
	return s.Account(ctx, string(e.Value()))
}
