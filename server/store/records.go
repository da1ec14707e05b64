package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/rating"
)

// ErrHandleTaken is returned for a handle another player holds (or one
// that reads like it: account.Key).
var ErrHandleTaken = errors.New("that handle is taken")

// Account is a player: the SSH key they connect with and the handle they
// chose at their first connection.
type Account struct {
	Fingerprint string    `json:"fingerprint"`
	Handle      string    `json:"handle"`
	Created     time.Time `json:"created"`
}

// Account is the account of an SSH key fingerprint; found is false for a
// key not seen before.
func (s *Store) Account(ctx context.Context, fingerprint string) (a Account, found bool, err error) {
	found, err = getJSON(ctx, s.accounts, "key."+key(fingerprint), &a)
	return a, found, err
}

// CreateAccount gives the key fingerprint the handle, which must be valid
// and free. The handle is claimed first, atomically (a bucket Create), so
// two players asking for it at once cannot both get it.
func (s *Store) CreateAccount(ctx context.Context, fingerprint, handle string, now time.Time) (Account, error) {
	if err := account.ValidHandle(handle); err != nil {
		return Account{}, err
	}
	if _, found, err := s.Account(ctx, fingerprint); err != nil || found {
		if err == nil {
			err = errors.New("this key has an account already")
		}
		return Account{}, err
	}
	claim := "handle." + key(account.Key(handle))
	if _, err := s.accounts.Create(ctx, claim, []byte(fingerprint)); err != nil {
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return Account{}, err
		}
		// Taken — unless by this key, in an earlier try that failed
		// before the account was written: then it is this key's to finish.
		e, gerr := s.accounts.Get(ctx, claim)
		if gerr != nil || string(e.Value()) != fingerprint {
			return Account{}, ErrHandleTaken
		}
	}
	a := Account{Fingerprint: fingerprint, Handle: handle, Created: now.UTC()}
	if err := putJSON(ctx, s.accounts, "key."+key(fingerprint), a); err != nil {
		return Account{}, err
	}
	return a, nil
}

// Standing is a handle's rating at a speed, as stored.
type Standing struct {
	Handle string        `json:"handle"`
	Speed  string        `json:"speed"`
	Rating rating.Rating `json:"rating"`
}

// Rating is a handle's rating at a speed (a new player's if none).
func (s *Store) Rating(ctx context.Context, handle, speed string) (rating.Rating, error) {
	st := Standing{Rating: rating.New()}
	_, err := getJSON(ctx, s.ratings, ratingKey(handle, speed), &st)
	return st.Rating, err
}

// PutRating stores a handle's rating at a speed.
func (s *Store) PutRating(ctx context.Context, handle, speed string, r rating.Rating) error {
	return putJSON(ctx, s.ratings, ratingKey(handle, speed), Standing{Handle: handle, Speed: speed, Rating: r})
}

// Leaderboard is the n best established ratings at a speed (a provisional
// rating is not ranked, as on lichess), best first.
func (s *Store) Leaderboard(ctx context.Context, speed string, n int) ([]Standing, error) {
	keys, err := s.ratings.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	suffix := "." + key(speed)
	var out []Standing
	for k := range keys.Keys() {
		if !strings.HasSuffix(k, suffix) {
			continue
		}
		var st Standing
		if found, err := getJSON(ctx, s.ratings, k, &st); err != nil {
			return nil, err
		} else if found && !st.Rating.Provisional() {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b Standing) int { return cmp.Compare(b.Rating.Rating, a.Rating.Rating) })
	return out[:min(n, len(out))], nil
}

func ratingKey(handle, speed string) string { return key(account.Key(handle)) + "." + key(speed) }

// MaxRecent is how many of a handle's finished games Recent keeps.
const MaxRecent = 10

// recentGame is one of Recent's lines, with the game it is about.
type recentGame struct {
	ID   string `json:"id"`
	Line string `json:"line"`
}

// AddRecent notes game id, finished, among handle's recent games (line is
// what the lobby shows). A game noted already is not noted again: a server
// that finishes a game after its host died repeats what the host did.
func (s *Store) AddRecent(ctx context.Context, handle, id, line string) error {
	recent, err := s.recent(ctx, handle)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(recent, func(r recentGame) bool { return r.ID == id }) {
		return nil
	}
	recent = append([]recentGame{{ID: id, Line: line}}, recent...)
	return putJSON(ctx, s.accounts, recentKey(handle), recent[:min(len(recent), MaxRecent)])
}

// Recent are handle's last finished games, newest first.
func (s *Store) Recent(ctx context.Context, handle string) ([]string, error) {
	recent, err := s.recent(ctx, handle)
	var lines []string
	for _, r := range recent {
		lines = append(lines, r.Line)
	}
	return lines, err
}

// recent reads handle's recent games; a list stored before the games'
// ids were (plain lines) reads as lines without ids.
func (s *Store) recent(ctx context.Context, handle string) ([]recentGame, error) {
	var raw json.RawMessage
	if found, err := getJSON(ctx, s.accounts, recentKey(handle), &raw); err != nil || !found {
		return nil, err
	}
	var recent []recentGame
	if err := json.Unmarshal(raw, &recent); err == nil {
		return recent, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return nil, fmt.Errorf("recent games of %s: %w", handle, err)
	}
	recent = nil // what the failed read left
	for _, l := range lines {
		recent = append(recent, recentGame{Line: l})
	}
	return recent, nil
}

func recentKey(handle string) string { return "recent." + key(account.Key(handle)) }
