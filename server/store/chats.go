package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ChatLine is one line of a game's chat as kept (server/chat's Line).
type ChatLine struct {
	Handle    string    `json:"handle"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
	Spectator bool      `json:"spectator,omitempty"`
}

// Chat is a game's chat as kept: its last lines, oldest first, and
// whether the players have muted the spectators. Rev is the record's
// revision (0: nothing kept yet): a later write has a higher one, which
// tells a server which of two states it heard of is the newer.
type Chat struct {
	Lines []ChatLine `json:"lines"`
	Muted bool       `json:"muted,omitempty"`
	Rev   uint64     `json:"-"`
}

// ErrChatMuted refuses a spectator's line while the players have the
// spectators muted: the kept chat decides, whichever server the mute was
// made on.
var ErrChatMuted = errors.New("the players have muted the spectators")

// chatTries bounds the writes of one change that another server's change
// to the same chat gets ahead of.
const chatTries = 10

func chatKey(id string) string { return "chat." + key(id) }

// Chat is game id's chat as kept (empty if nothing is).
func (s *Store) Chat(ctx context.Context, id string) (Chat, error) {
	c, err := s.chat(ctx, id)
	if err != nil {
		return Chat{}, fmt.Errorf("chat of game %s: %w", id, err)
	}
	return c, nil
}

func (s *Store) chat(ctx context.Context, id string) (Chat, error) {
	e, err := s.chats.Get(ctx, chatKey(id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Chat{}, nil
	}
	if err != nil {
		return Chat{}, err
	}
	var c Chat
	if err := json.Unmarshal(e.Value(), &c); err != nil {
		return Chat{}, err
	}
	c.Rev = e.Revision()
	return c, nil
}

// AddChatLine adds l to game id's chat, keeping its last keep lines, and
// returns the chat as written, once JetStream has it. A spectator's line
// is refused with ErrChatMuted while the kept chat says muted.
func (s *Store) AddChatLine(ctx context.Context, id string, l ChatLine, keep int) (Chat, error) {
	return s.changeChat(ctx, id, func(c *Chat) error {
		if l.Spectator && c.Muted {
			return ErrChatMuted
		}
		c.Lines = append(c.Lines, l)
		c.Lines = c.Lines[max(len(c.Lines)-keep, 0):]
		return nil
	})
}

// MuteChat mutes (or unmutes) the spectators of game id's chat, and
// returns the chat as written, once JetStream has it.
func (s *Store) MuteChat(ctx context.Context, id string, on bool) (Chat, error) {
	return s.changeChat(ctx, id, func(c *Chat) error {
		c.Muted = on
		return nil
	})
}

// changeChat writes change to game id's chat at the revision it read,
// reading again when another server's write came between.
func (s *Store) changeChat(ctx context.Context, id string, change func(*Chat) error) (Chat, error) {
	for try := 1; ; try++ {
		c, err := s.chat(ctx, id)
		if err != nil {
			return Chat{}, fmt.Errorf("chat of game %s: %w", id, err)
		}
		if err := change(&c); err != nil {
			return c, err
		}
		data, err := json.Marshal(c)
		if err != nil {
			return Chat{}, err
		}
		if c.Rev == 0 {
			c.Rev, err = s.chats.Create(ctx, chatKey(id), data)
		} else {
			c.Rev, err = s.chats.Update(ctx, chatKey(id), data, c.Rev)
		}
		err = stale(err)
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, ErrStale) || try == chatTries {
			return Chat{}, fmt.Errorf("chat of game %s: %w", id, err)
		}
	}
}

// dropChat forgets game id's chat, with the game.
func (s *Store) dropChat(ctx context.Context, id string) error {
	if err := s.chats.Delete(ctx, chatKey(id)); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("chat of game %s: %w", id, err)
	}
	return nil
}
