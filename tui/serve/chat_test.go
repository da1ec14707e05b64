package serve

import (
	"strings"
	"testing"
)

// TestChatOverSSH is issue 33's G6 over SSH: a chat line holding escape
// sequences, sent in one piece as a paste is, reaches the other player
// with nothing after a sequence lost and no payload shown (it showed
// "hi RED bell ]0;pwned", the OSC's title as text and " end" lost); a
// 1 MB paste is cut to what the line takes, with a note saying so, and
// the session goes on.
func TestChatOverSSH(t *testing.T) {
	ts, p := startPlayServer(t)
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	enterLobby(t, ann, bob)
	seekAndPlay(t, ann, bob, "5+0")

	bob.send(t, "say hi \x1b[2J\x1b[31mRED\x07 bell \x1b]0;pwned\x07 end", "\r")
	ann.waitFor(t, "hi RED bell  end")
	if strings.Contains(ann.out.String(), "pwned") {
		t.Errorf("the OSC's payload reached the screen:\n%q", ann.out.String())
	}

	bob.send(t, "say "+strings.Repeat("word ", 200_000))
	bob.waitFor(t, "cut to 144 characters")
	bob.send(t, "\r")
	id, _ := p.Hub.GameOf("ann")
	waitUntil(t, "the cut line in the chat", func() bool {
		l := p.Chats.Room(id).Lines(true, 1)
		return len(l) == 1 && l[0].Text == strings.Repeat("word ", 27)+"word" // "say " and 140 characters, the last a space, trimmed
	})
	bob.send(t, "say still here", "\r")
	ann.waitFor(t, "still here")
}
