package serve

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
)

// Config is what the screens are given.
type Config struct {
	Rooms *room.Rooms
	// Games, when set, lets people play each other: `ssh -t host play`;
	// bare `ssh host` then opens the home screen (without it, the rooms).
	Games *server.Games
	// PublicAddr is how players reach the server, HOST or HOST:PORT, for
	// the commands the screens show (ssh -p PORT HOST pgn ID); default:
	// the address each connection came in on.
	PublicAddr string
}

// Screens are what each SSH session runs (an sshd.Handler): the commands
// that print (exec.go), the home screen, and the screens the commands
// name.
type Screens struct{ cfg Config }

// NewScreens are the screens of cfg.
func NewScreens(cfg Config) *Screens { return &Screens{cfg: cfg} }

// Program is the session's screen: the one its command names, or the
// home screen on a server with games.
func (s *Screens) Program(sess ssh.Session, r *lipgloss.Renderer, bell func(), role sshd.Role) (tea.Model, func(), error) {
	pty, _, _ := sess.Pty()
	sb := &sessionBell{ring: bell} // one for the session: its setting holds on every screen
	screen := s.screens(sess, r, sb, role)
	if cmd := sess.Command(); len(cmd) > 0 || s.cfg.Games == nil {
		return screen(cmd, pty.Window.Width, pty.Window.Height)
	}
	hm := newHomeModel(screen, r, s.sshCommand(sess), s.commands(), pty.Window.Width, pty.Window.Height)
	hm.games, hm.account, hm.bell = s.cfg.Games, fingerprint(sess.PublicKey()), sb
	return hm, hm.release, nil
}

// fingerprint names the account of an SSH key ("" for none: a guest).
func fingerprint(key ssh.PublicKey) string {
	if key == nil {
		return ""
	}
	return gossh.FingerprintSHA256(key)
}

// screens makes the screens of sess (Exec has checked its command): for
// the command it names, or from the home screen; bell is the session's,
// which rings the client's terminal (the player's screens ring it,
// playbell.go).
func (s *Screens) screens(sess ssh.Session, r *lipgloss.Renderer, bell *sessionBell, role sshd.Role) screenFunc {
	key, sshCmd := sess.PublicKey(), s.sshCommand(sess)
	return func(cmd []string, w, h int) (tea.Model, func(), error) {
		name := ""
		if len(cmd) > 0 {
			name = cmd[0]
		}
		switch name {
		case "play":
			pm, err := newPlayModel(s.cfg.Games, r, key, w, h)
			if err != nil {
				return nil, nil, err
			}
			pm.sshCmd, pm.bell = sshCmd, bell
			pm.openArenas = len(cmd) > 1 && cmd[1] == "arenas"
			pm.owner = role == sshd.Owner
			return pm, pm.release, nil
		case "challenge": // the lobby, the challenge made
			pm, err := newPlayModel(s.cfg.Games, r, key, w, h)
			if err != nil {
				return nil, nil, err
			}
			pm.sshCmd, pm.bell, pm.initial = sshCmd, bell, strings.Join(cmd[1:], " ")
			return pm, pm.release, nil
		case "watch":
			sm := newSpectatorModel(s.cfg.Games, r, key, w, h)
			sm.sshCmd = sshCmd
			if len(cmd) > 1 {
				sm.following = cmd[1] // followed once the account's lookup answers
			}
			return sm, sm.release, nil
		case "online":
			life := &lifetime{}
			om := newOnlineModel(s.cfg.Games, r, fingerprint(key), sshCmd, w, h)
			om.profile = func(handle string) *profileModel {
				return newProfileModel(s.cfg.Games, r, life, fingerprint(key), handle, sshCmd, om.w, om.h)
			}
			return om, life.end, nil
		case "leaderboard":
			life := &lifetime{}
			lb := newLeaderboardModel(s.cfg.Games.Store, r, w, h)
			lb.profile = func(handle string) *profileModel {
				return newProfileModel(s.cfg.Games, r, life, fingerprint(key), handle, sshCmd, lb.w, lb.h)
			}
			return lb, life.end, nil
		case "profile":
			pm := newProfileModel(s.cfg.Games, r, nil, fingerprint(key), "", sshCmd, w, h)
			return pm, pm.release, nil
		}
		sm, err := newSessionModel(s.cfg.Rooms, r, role, cmd, w, h)
		if err != nil {
			return nil, nil, err
		}
		return sm, sm.sub.release, nil
	}
}
