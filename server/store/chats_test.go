package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestChats: a game's chat is kept across a restart — its last lines and
// the mute — each change written at the revision it read, so two servers'
// changes both land; a spectator's line is refused while muted; the chat
// goes with its game.
func TestChats(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for i := range 5 {
		if _, err := s.AddChatLine(ctx, "g1", ChatLine{Handle: "ann", Text: fmt.Sprint(i), At: at}, 3); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.MuteChat(ctx, "g1", true)
	if err != nil || !c.Muted || c.Rev == 0 {
		t.Fatalf("mute: %+v, %v", c, err)
	}
	if _, err := s.AddChatLine(ctx, "g1", ChatLine{Handle: "eve", Text: "psst", At: at, Spectator: true}, 3); !errors.Is(err, ErrChatMuted) {
		t.Errorf("a spectator's line while muted: %v", err)
	}
	s.Close()

	s = open(t, dir)
	defer s.Close()
	c, err = s.Chat(ctx, "g1")
	if err != nil || !c.Muted || len(c.Lines) != 3 || c.Lines[0].Text != "2" || c.Lines[2].Text != "4" || !c.Lines[2].At.Equal(at) {
		t.Errorf("after a restart: %+v, %v; want lines 2 to 4, muted", c, err)
	}
	// Two servers' writes at once: each reads again when the other's came
	// first, and both lines are kept.
	errs := make(chan error)
	for _, h := range []string{"ann", "bob"} {
		go func() {
			_, err := s.AddChatLine(ctx, "g2", ChatLine{Handle: h, Text: "hi", At: at}, 10)
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if c, err := s.Chat(ctx, "g2"); err != nil || len(c.Lines) != 2 {
		t.Errorf("two lines written at once: %+v, %v", c, err)
	}
	if err := s.DropGame(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Chat(ctx, "g1"); err != nil || len(c.Lines) != 0 || c.Muted || c.Rev != 0 {
		t.Errorf("the chat of a dropped game: %+v, %v", c, err)
	}
}
