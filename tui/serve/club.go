package serve

import (
	"context"
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
)

// The club's notes (issue 37): what a player hears of anywhere on the
// server outside their game — at home, in the lobby, on the list of who is
// online: a challenge to them (answered in the lobby), and a game begun by
// a player they follow (v watches it). Following is kept per account in
// the store (store.Store.Following), the games in progress are every
// server's (play.Hub.Games): both work across a cluster.

// openMsg asks the home screen to open the screen cmd names (watch ID) in
// place of the one asking; a screen not opened from home says the command
// instead (clubNotes.watch).
type openMsg struct{ cmd []string }

// followingMsg is the list of whom the player follows, read or changed.
type followingMsg struct {
	list []string
	note string // said on success: the change made
	err  error
}

// readFollowing reads whom handle follows, as a command (a store read).
func readFollowing(st *store.Store, handle string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		list, err := st.Following(ctx, handle)
		return followingMsg{list: list, err: err}
	}
}

// setFollowing makes handle follow other or stop, as a command (a store
// write).
func setFollowing(st *store.Store, handle, other string, on bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		list, err := st.SetFollowing(ctx, handle, other, on)
		note := "you follow " + other + ": a note when they begin a game"
		if !on {
			note = "you no longer follow " + other
		}
		return followingMsg{list: list, note: termtext.SafeLine(note), err: err}
	}
}

// clubNotes are one screen's notes of the followed players' games: those
// begun since the screen first looked with the list of whom the player
// follows read, while they go on.
type clubNotes struct {
	following []string
	read      bool            // following has been read
	seen      map[string]bool // the games in progress looked at already
	begun     []store.GameRecord
}

// setFollowing takes the list read (or changed).
func (c *clubNotes) setFollowing(list []string) { c.following, c.read = list, true }

// follows reports whether the player follows handle.
func (c *clubNotes) follows(handle string) bool {
	return slices.ContainsFunc(c.following, func(h string) bool { return account.Key(h) == account.Key(handle) })
}

// look notes the games the followed players began since the last look
// (none at the first, or before the list is read) — not those handle
// plays in — and forgets the games that ended.
func (c *clubNotes) look(p *server.Games, handle string) {
	if !c.read || p == nil || p.Hub == nil {
		return
	}
	first := c.seen == nil
	if first {
		c.seen = map[string]bool{}
	}
	live := map[string]bool{}
	for _, g := range p.Hub.Games() {
		live[g.ID] = true
		if c.seen[g.ID] {
			continue
		}
		c.seen[g.ID] = true
		if !first && !g.Players.Plays(handle) && (c.follows(g.Players.White) || c.follows(g.Players.Black)) {
			c.begun = append(c.begun, g)
		}
	}
	c.begun = slices.DeleteFunc(c.begun, func(g store.GameRecord) bool { return !live[g.ID] })
	for id := range c.seen {
		if !live[id] {
			delete(c.seen, id)
		}
	}
}

// newest is the newest game noted, the one v watches.
func (c *clubNotes) newest() (store.GameRecord, bool) {
	if len(c.begun) == 0 {
		return store.GameRecord{}, false
	}
	return c.begun[len(c.begun)-1], true
}

// lines are the notes as the screens say them, the newest last, at most
// two.
func (c *clubNotes) lines() []string {
	var out []string
	for i, g := range c.begun[max(len(c.begun)-2, 0):] {
		line := c.line(g)
		if i == len(c.begun[max(len(c.begun)-2, 0):])-1 {
			line += " · v watches"
		}
		out = append(out, line)
	}
	return out
}

// line is the note of game g noted: who of it the player follows, began
// it with whom, at what control.
func (c *clubNotes) line(g store.GameRecord) string {
	who := g.Players.White
	if !c.follows(who) {
		who = g.Players.Black
	}
	kind := "casual"
	if g.Players.Rated {
		kind = "rated"
	}
	return fmt.Sprintf("%s began a game: %s vs %s, %s %s", termtext.SafeLine(who), ratedName(g.Players.White, g.Players.AtStart[0]),
		ratedName(g.Players.Black, g.Players.AtStart[1]), g.Game.TimeControl, kind)
}

// watch is v: the newest noted game opened by the home screen (fromHome),
// else the command that watches it, said (say) — a screen run as its own
// command cannot open another.
func (c *clubNotes) watch(fromHome bool, sshCmd string, say func(string)) tea.Cmd {
	g, ok := c.newest()
	if !ok {
		say("v watches a game a player you follow begins (follow players on the list of who is online, o at home)")
		return nil
	}
	return watchGame(fromHome, sshCmd, g.ID, say)
}

// watchGame watches game id as watch does: the home screen opens the
// watch screen on it in place of the screen asking (fromHome), else the
// command that watches it is said (say) — a screen run as its own command
// cannot open another. Every screen's "watch that game" key comes here.
func watchGame(fromHome bool, sshCmd, id string, say func(string)) tea.Cmd {
	if fromHome {
		return func() tea.Msg { return openMsg{cmd: []string{"watch", id}} }
	}
	say("watch it with: " + sshCmd + " watch " + id)
	return nil
}

// challengeLines are the challenges to handle as the home screen says
// them (the lobby lists them itself).
func challengeLines(p *server.Games, handle string) []string {
	if p == nil || p.Lobby == nil || handle == "" {
		return nil
	}
	var out []string
	for _, s := range p.Lobby.Seeks(handle) {
		if s.To != handle {
			continue
		}
		kind := "casual"
		if s.Rated {
			kind = "rated"
		}
		out = append(out, fmt.Sprintf("%s challenges you: %s %s, %s · p answers it in the lobby",
			ratedName(s.Handle, s.Rating), s.TC, kind, colourFor(s, handle)))
	}
	return out
}
