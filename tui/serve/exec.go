package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/charmbracelet/ssh"

	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/termtext"
)

// The server's commands: `ssh host COMMAND`. The screens need a terminal;
// pgn, games, profile, arena and help print to the client's standard output and need none,
// so that `ssh host pgn ID > game.pgn` works from a script.

// command is one SSH command.
type command struct {
	name string
	args string // as the list shows them
	what string
	// minArgs and maxArgs bound the words after the name.
	minArgs, maxArgs int
	// games: only on a server with games (Config.Games).
	games bool
	// run prints the command's output; nil for a screen.
	run func(s *Screens, sess ssh.Session, args []string) error
}

// execTimeout bounds one printing command's reads of the store.
const execTimeout = time.Minute

// commandTable lists the commands in the order the help shows them.
func commandTable() []command {
	return []command{
		{name: "", what: "home: play, watch, rooms, leaderboard, help"},
		{name: "play", what: "the lobby: seek, challenge, play Squall", games: true},
		{name: "challenge", args: "HANDLE CONTROL [white|black] [casual]", what: "the lobby, with a challenge to a player made", minArgs: 2, maxArgs: 4, games: true},
		{name: "watch", args: "[GAME_ID]", what: "follow games in progress (or that one), with analysis", maxArgs: 1, games: true},
		{name: "online", what: "who is online, with ratings; follow players", games: true},
		{name: "rooms", what: "the rooms of live analysis"},
		{name: "room", args: "NAME", what: "one room of live analysis", minArgs: 1, maxArgs: 1},
		{name: "leaderboard", what: "the best ratings at each speed", games: true},
		{name: "pgn", args: "GAME_ID", what: "print a finished game's PGN", minArgs: 1, maxArgs: 1, games: true, run: (*Screens).printGame},
		{name: "games", args: "HANDLE [--since YYYY-MM-DD]", what: "print a player's games, newest first", minArgs: 1, maxArgs: 3, games: true, run: (*Screens).printGames},
		{name: "profile", args: "HANDLE", what: "print a player's ratings, results and recent games", minArgs: 1, maxArgs: 1, games: true, run: (*Screens).printProfile},
		{name: "arena", args: "[NAME|ID] [--pgn]", what: "print the arenas, one's standings, or with --pgn all its games", maxArgs: 12, games: true, run: (*Screens).printArena},
		{name: "help", what: "this list", run: (*Screens).printHelp},
	}
}

// commands are the commands this server offers: those of games only with
// Config.Games.
func (s *Screens) commands() []command {
	var out []command
	for _, c := range commandTable() {
		if c.games && s.cfg.Games == nil {
			continue
		}
		if c.name == "" && s.cfg.Games == nil {
			c.what = "the rooms of live analysis" // a server of rooms alone opens on their list
		}
		out = append(out, c)
	}
	return out
}

// commandList is the commands, one line each, as help prints them.
func (s *Screens) commandList() string {
	var b strings.Builder
	cmds := s.commands()
	w := 0
	for _, c := range cmds {
		w = max(w, len(commandUse(c)))
	}
	for _, c := range cmds {
		fmt.Fprintf(&b, "  %-*s  %s\n", w, commandUse(c), c.what)
	}
	return b.String()
}

// commandUse is how a command is typed: its name and arguments.
func commandUse(c command) string {
	if c.name == "" {
		return "(nothing)"
	}
	return strings.TrimSpace(c.name + " " + c.args)
}

// Exec runs the printing commands and refuses unknown ones with the list
// of commands, reporting whether it did; the screens go on to their
// program. It runs before the terminal is required: printing needs none.
func (s *Screens) Exec(sess ssh.Session) bool {
	args := sess.Command()
	if len(args) == 0 {
		return false
	}
	var c *command
	for _, k := range commandTable() {
		if k.name != "" && k.name == args[0] {
			c = &k
			break
		}
	}
	switch {
	case c == nil:
		exitWith(sess, 1, fmt.Sprintf("squall: unknown command %q; the commands (ssh host COMMAND):\n%s", termtext.SafeLine(strings.Join(args, " ")), s.commandList()))
	case c.games && s.cfg.Games == nil:
		exitWith(sess, 1, "squall: this server has no games, only rooms of live analysis; the commands:\n"+s.commandList())
	case len(args)-1 < c.minArgs || len(args)-1 > c.maxArgs:
		exitWith(sess, 1, fmt.Sprintf("squall: usage: %s %s", c.name, c.args))
	case c.run == nil:
		return false
	default:
		if err := c.run(s, sess, args[1:]); err != nil {
			exitWith(sess, 1, "squall: "+termtext.SafeLine(err.Error()))
			return true
		}
		sess.Exit(0)
	}
	return true
}

// exitWith ends a session with status code, saying msg on its standard
// error (line ends as a terminal in raw mode needs them, with a PTY).
func exitWith(sess ssh.Session, code int, msg string) {
	io.WriteString(lineEnds(sess, sess.Stderr()), strings.TrimRight(msg, "\n")+"\n")
	sess.Exit(code)
}

// lineEnds is w, writing \r\n for each \n when the session has a
// terminal: the client's terminal is in raw mode and would not return
// the cursor to the left.
func lineEnds(sess ssh.Session, w io.Writer) io.Writer {
	if _, _, pty := sess.Pty(); pty {
		return crlfWriter{w}
	}
	return w
}

type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write([]byte(strings.ReplaceAll(string(p), "\n", "\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// printGame is `pgn GAME_ID`: the game as archived.
func (s *Screens) printGame(sess ssh.Session, args []string) error {
	ctx, cancel := context.WithTimeout(sess.Context(), execTimeout)
	defer cancel()
	return play.GamePGN(ctx, s.cfg.Games.Store, args[0], lineEnds(sess, sess))
}

// printGames is `games HANDLE [--since YYYY-MM-DD]`: the player's
// finished games, newest first.
func (s *Screens) printGames(sess ssh.Session, args []string) error {
	handle, since, err := gamesArgs(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(sess.Context(), execTimeout)
	defer cancel()
	n, err := play.PlayerPGN(ctx, s.cfg.Games.Store, handle, since, lineEnds(sess, sess))
	if err == nil && n == 0 {
		note := termtext.SafeLine(handle) + " has no finished games"
		if !since.IsZero() {
			note += " since " + since.Format(time.DateOnly)
		}
		io.WriteString(lineEnds(sess, sess.Stderr()), "squall: "+note+"\n")
	}
	return err
}

// gamesArgs reads `games`' words: a handle, and --since DATE (or
// --since=DATE) before or after it.
func gamesArgs(args []string) (handle string, since time.Time, err error) {
	date := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--since" && i+1 < len(args):
			date = args[i+1]
			i++
		case strings.HasPrefix(a, "--since="):
			date = strings.TrimPrefix(a, "--since=")
		case strings.HasPrefix(a, "-") || handle != "":
			return "", time.Time{}, fmt.Errorf("usage: games HANDLE [--since YYYY-MM-DD]")
		default:
			handle = a
		}
	}
	if handle == "" {
		return "", time.Time{}, fmt.Errorf("usage: games HANDLE [--since YYYY-MM-DD]")
	}
	if date != "" {
		if since, err = time.Parse(time.DateOnly, date); err != nil {
			return "", time.Time{}, fmt.Errorf("--since %q: want a date YYYY-MM-DD (UTC)", termtext.SafeLine(date))
		}
	}
	return handle, since, nil
}

// printHelp is `help`: the commands.
func (s *Screens) printHelp(sess ssh.Session, _ []string) error {
	_, err := io.WriteString(lineEnds(sess, sess), "Squall's commands (ssh host COMMAND):\n"+s.commandList())
	return err
}

// sshCommand is how this session's client reaches the server: "ssh -p
// PORT HOST" (no -p for port 22), from Config.PublicAddr, else the address
// the connection came in on.
func (s *Screens) sshCommand(sess ssh.Session) string {
	addr := s.cfg.PublicAddr
	if addr == "" && sess.LocalAddr() != nil {
		addr = sess.LocalAddr().String()
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host, port = addr, "22" // a host name alone
	}
	if port == "22" {
		return "ssh " + host
	}
	return "ssh -p " + port + " " + host
}

// pgnCommand is the command that prints game id's PGN, for the screens
// of its end; "" when the screen does not know how the client connects.
func pgnCommand(sshCmd, id string) string {
	if sshCmd == "" || id == "" {
		return ""
	}
	return termtext.SafeLine(sshCmd + " pgn " + id)
}

// pgnNote is what a review's s says: the command that prints the game.
func pgnNote(pgnCmd string) string {
	if pgnCmd == "" {
		return ""
	}
	return "the game's PGN: " + pgnCmd + " > game.pgn"
}

// pgnLines say how to get a finished game's PGN, on its end screen,
// wrapped to width (cut, the command would lose the id); none before the
// end, or for a game not kept (aborted).
func pgnLines(st styles, sshCmd string, u *play.Update, width int) []string {
	if u == nil || !u.Over() || u.Ended == nil || u.Ended.PGN == nil {
		return nil
	}
	c := pgnCommand(sshCmd, u.ID)
	if c == "" {
		return nil
	}
	lines := wrapped("PGN: "+c, width)
	for i, l := range lines {
		lines[i] = st.Muted.Render(l)
	}
	return lines
}
