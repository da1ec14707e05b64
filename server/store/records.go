package store

import (
	"cmp"
	"context"
	"errors"
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

// Leaderboard is the n best ratings at a speed, best first: the
// established ones, then the provisional ones (rating.Provisional), which
// lichess leaves out — a new server's leaderboard would stay empty until
// someone's deviation fell below 110.
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
		} else if found {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b Standing) int {
		if pa, pb := a.Rating.Provisional(), b.Rating.Provisional(); pa != pb {
			if pa {
				return 1
			}
			return -1
		}
		return cmp.Compare(b.Rating.Rating, a.Rating.Rating)
	})
	return out[:min(n, len(out))], nil
}

// RatedPlayers counts the players with a rating at each speed named (the
// length of its Leaderboard were n unbounded), by speed.
func (s *Store) RatedPlayers(ctx context.Context, speeds ...string) (map[string]int, error) {
	keys, err := s.ratings.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	suffixes := map[string]string{}
	for _, sp := range speeds {
		suffixes["."+key(sp)] = sp
	}
	out := map[string]int{}
	for k := range keys.Keys() {
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			if sp, ok := suffixes[k[i:]]; ok {
				out[sp]++
			}
		}
	}
	return out, nil
}

func ratingKey(handle, speed string) string { return key(account.Key(handle)) + "." + key(speed) }
