package store

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/squall-chess/squall/server/account"
)

// The archive's read side for one game or one player (`ssh host pgn ID`,
// `ssh host games HANDLE`): the PGN as ArchiveGame stored it, byte for
// byte, as ExportPGN writes it.

// Archived is one archived game.
type Archived struct {
	ID  string
	PGN string
	// At is when it was archived: when the game ended, or shortly after.
	At time.Time
}

// ArchivedGame is game id's PGN as archived; found is false for a game
// that is not in the archive (unknown, in progress, or aborted: an
// aborted game is not kept).
func (s *Store) ArchivedGame(ctx context.Context, id string) (pgn string, found bool, err error) {
	m, err := s.archive.GetLastMsgForSubject(ctx, archiveSubject+"."+key(id))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("archive %s: %w", id, err)
	}
	return string(m.Data), true, nil
}

// ArchivedSince yields the archived games from the newest back to the
// first archived at or after since (the zero time: all of them). The
// archive is in the order the games ended, so the walk stops at the first
// game archived before since: every game before it ended earlier still.
// A read error ends the sequence with it.
func (s *Store) ArchivedSince(ctx context.Context, since time.Time) iter.Seq2[Archived, error] {
	return func(yield func(Archived, error) bool) {
		info, err := s.archive.Info(ctx)
		if err != nil {
			yield(Archived{}, fmt.Errorf("archive: %w", err))
			return
		}
		if info.State.Msgs == 0 {
			return
		}
		for seq := info.State.LastSeq; seq >= info.State.FirstSeq && seq > 0; seq-- {
			m, err := s.archive.GetMsg(ctx, seq)
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				continue // deleted by hand: a gap in the sequence
			}
			if err != nil {
				yield(Archived{}, fmt.Errorf("archive: message %d: %w", seq, err))
				return
			}
			if m.Time.Before(since) {
				return
			}
			if !yield(Archived{ID: archivedID(m.Subject), PGN: string(m.Data), At: m.Time}, nil) {
				return
			}
		}
	}
}

// archivedID is the game id an archive subject names ("" for a subject
// not written by ArchiveGame).
func archivedID(subject string) string {
	id, err := hex.DecodeString(strings.TrimPrefix(subject, archiveSubject+"."))
	if err != nil {
		return ""
	}
	return string(id)
}

// HandleHeld reports whether a player holds handle (as account.Key reads
// it: in any case).
func (s *Store) HandleHeld(ctx context.Context, handle string) (bool, error) {
	_, err := s.accounts.Get(ctx, "handle."+key(account.Key(handle)))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("handle %s: %w", handle, err)
	}
	return true, nil
}
