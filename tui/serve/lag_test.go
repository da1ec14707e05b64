package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/sshd"
)

// TestLagOnScreen (issue 37): each player's lag is said under their
// clock with the clock's flat allowance beside it — the player's own as
// their session measured it (sshd.LagMsg), the opponent's through
// presence (on any server: presence's TestListAndLag); a lag not measured
// yet says so.
func TestLagOnScreen(t *testing.T) {
	_, p := startPlayServer(t)
	p.Presence.Join("ann")
	p.Presence.Join("bob")
	ann, bob := startGame(t, p)
	wantOnScreen(t, "ann", ann, "lag not measured · clock allows 100 ms a move")
	ann.Update(sshd.LagMsg(340 * time.Microsecond))
	wantOnScreen(t, "ann", ann, "lag 0.3 ms · clock allows 100 ms a move")
	ann.Update(sshd.LagMsg(37 * time.Millisecond))
	bob.Update(sshd.LagMsg(120 * time.Millisecond))
	for who, m := range map[string]*playModel{"ann": ann, "bob": bob} {
		wantOnScreen(t, who, m, "lag 37 ms · clock allows 100 ms a move", "lag 120 ms · clock allows 100 ms a move")
	}
}

// TestLagOverSSH: over SSH, each player's screen shows a measured lag
// (their server's keepalive round trip).
func TestLagOverSSH(t *testing.T) {
	ts, _ := startPlayServer(t)
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	defer ann.close()
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	defer bob.close()
	enterLobby(t, ann, bob)
	seekAndPlay(t, ann, bob, "5+0")
	for _, c := range []*client{ann, bob} {
		c.waitFor(t, " ms · clock allows 100 ms a move")
	}
}

// TestLagUnderItsPlayer: each lag is under its own player's name on both
// players' screens, Black's (the board flipped, White's clock on top)
// included. Found in tmux (acc37): Black's screen swapped the names but
// not the lines under them, so each player's lag was under the other's.
func TestLagUnderItsPlayer(t *testing.T) {
	_, p := startPlayServer(t)
	p.Presence.Join("ann")
	p.Presence.Join("bob")
	ann, bob := startGame(t, p)
	ann.Update(sshd.LagMsg(37 * time.Millisecond))
	bob.Update(sshd.LagMsg(120 * time.Millisecond))
	for who, m := range map[string]*playModel{"ann": ann, "bob": bob} {
		lines := strings.Split(screen(m), "\n")
		for name, lag := range map[string]string{"White ann": "lag 37 ms", "Black bob": "lag 120 ms"} {
			found := false
			for i, l := range lines {
				if strings.Contains(l, name) && i+1 < len(lines) {
					found = true
					if !strings.Contains(lines[i+1], lag) {
						t.Errorf("%s's screen: under %q the line is %q, want %q", who, name, strings.TrimSpace(lines[i+1]), lag)
					}
				}
			}
			if !found {
				t.Errorf("%s's screen lacks %q", who, name)
			}
		}
	}
}
