package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/squall-chess/squall/server/account"
)

// MaxFollowing is how many players one account may follow.
const MaxFollowing = 200

// ErrFollowingFull refuses a follow past MaxFollowing.
var ErrFollowingFull = fmt.Errorf("you follow %d players already (the most)", MaxFollowing)

// followingKey is where the accounts bucket keeps the handles handle
// follows: one value per account, so that following is one write, made at
// the value's revision (two servers changing one list at once cannot lose
// either change).
func followingKey(handle string) string { return "following." + key(account.Key(handle)) }

// Following is the handles handle follows, as their players spell them,
// sorted; none for an account that follows nobody.
func (s *Store) Following(ctx context.Context, handle string) ([]string, error) {
	var out []string
	if _, err := getJSON(ctx, s.accounts, followingKey(handle), &out); err != nil {
		return nil, fmt.Errorf("following of %s: %w", handle, err)
	}
	return out, nil
}

// SetFollowing makes handle follow other (on) or stop following them, and
// returns whom handle follows now. other must be a player's handle, not
// handle's own; it is kept as its player spells it.
func (s *Store) SetFollowing(ctx context.Context, handle, other string, on bool) ([]string, error) {
	if on {
		a, found, err := s.AccountOf(ctx, other)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, fmt.Errorf("no player has the handle %s", other)
		case account.Key(a.Handle) == account.Key(handle):
			return nil, errors.New("you cannot follow yourself")
		}
		other = a.Handle
	}
	k := followingKey(handle)
	for range 5 { // another server changed the list between the read and the write: again
		var list []string
		var rev uint64
		e, err := s.accounts.Get(ctx, k)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
		case err != nil:
			return nil, fmt.Errorf("following of %s: %w", handle, err)
		default:
			rev = e.Revision()
			if err := json.Unmarshal(e.Value(), &list); err != nil {
				return nil, fmt.Errorf("following of %s: %w", handle, err)
			}
		}
		i := slices.IndexFunc(list, func(h string) bool { return account.Key(h) == account.Key(other) })
		switch {
		case on && i >= 0, !on && i < 0:
			return list, nil // as asked already
		case on && len(list) >= MaxFollowing:
			return list, ErrFollowingFull
		case on:
			list = append(list, other)
			slices.SortFunc(list, func(a, b string) int { return strings.Compare(account.Key(a), account.Key(b)) })
		default:
			list = slices.Delete(list, i, i+1)
		}
		data, err := json.Marshal(list)
		if err != nil {
			return nil, err
		}
		if rev == 0 {
			_, err = s.accounts.Create(ctx, k, data)
		} else {
			_, err = s.accounts.Update(ctx, k, data, rev)
		}
		if err == nil {
			return list, nil
		}
		if !errors.Is(stale(err), ErrStale) {
			return nil, fmt.Errorf("following of %s: %w", handle, err)
		}
	}
	return nil, fmt.Errorf("following of %s: changed elsewhere meanwhile, try again", handle)
}
