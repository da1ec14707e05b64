package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/game"
)

// runExec runs cmd over SSH as a script does (`ssh host cmd > file`: no
// terminal) and returns its standard output, its standard error and its
// exit status.
func runExec(t *testing.T, addr string, key gossh.Signer, cmd string) (stdout, stderr string, code int) {
	t.Helper()
	conn, err := dial(t, addr, key)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errOut
	err = sess.Run(cmd)
	var exit *gossh.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitStatus()
	default:
		t.Fatalf("%s: %v", cmd, err)
	}
	return out.String(), errOut.String(), code
}

// playGame plays moves between white and black through the hub, to the
// game's end, and returns its id.
func playGame(t *testing.T, p *server.Games, white, black string, moves ...string) string {
	t.Helper()
	ctx := context.Background()
	id, err := p.Hub.Start(ctx, white, black, game.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range moves {
		who := white
		if i%2 == 1 {
			who = black
		}
		if _, err := p.Hub.Move(ctx, id, who, mv); err != nil {
			t.Fatalf("%s %s: %v", who, mv, err)
		}
	}
	return id
}

// readGames reads PGN text back with package pgn, every game whole.
func readGames(t *testing.T, what, text string) []*pgn.Game {
	t.Helper()
	var games []*pgn.Game
	r := pgn.NewReader(strings.NewReader(text), what)
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games
		}
		if err != nil {
			t.Fatalf("%s does not re-read: %v\n%s", what, err, text)
		}
		games = append(games, g)
	}
}

// TestExecPGN (issue 33, E2): `ssh host pgn ID > game.pgn` and `ssh host
// games HANDLE > games.pgn` print finished games to standard output,
// without a terminal, as the archive (and squall serve export) has them;
// what is not there is an error on standard error with exit status 1.
func TestExecPGN(t *testing.T) {
	ts, p := startPlayServer(t)
	ctx := context.Background()
	for _, h := range []string{"ann", "bob", "cid"} {
		if _, err := p.Store.CreateAccount(ctx, "key-"+h, h, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	first := playGame(t, p, "ann", "bob", "f3", "e5", "g4", "Qh4#")
	second := playGame(t, p, "bob", "ann", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
	var archive strings.Builder
	if n, err := p.Store.ExportPGN(ctx, &archive); err != nil || n != 2 {
		t.Fatalf("export: %d games, %v", n, err)
	}
	key := newSigner(t)

	out, errOut, code := runExec(t, ts.addr, key, "pgn "+first)
	if code != 0 || errOut != "" {
		t.Errorf("pgn %s: exit %d, stderr %q, stdout %q", first, code, errOut, out)
	}
	if games := readGames(t, "pgn "+first, out); len(games) != 1 || games[0].Tag("White") != "ann" || games[0].Tag("Result") != "0-1" || len(games[0].Mainline()) != 4 {
		t.Errorf("pgn %s printed %d games:\n%s", first, len(games), out)
	}
	if !strings.Contains(archive.String(), out) {
		t.Errorf("pgn %s is not the game as exported:\n%s\nexport:\n%s", first, out, archive.String())
	}

	out, errOut, code = runExec(t, ts.addr, key, "games ANN")
	games := readGames(t, "games ANN", out)
	if code != 0 || len(games) != 2 {
		t.Fatalf("games ANN: exit %d, %d games, stderr %q:\n%s", code, len(games), errOut, out)
	}
	if games[0].Tag("White") != "bob" || games[1].Tag("White") != "ann" {
		t.Errorf("games ANN: not newest first: %s vs %s, then %s vs %s", games[0].Tag("White"), games[0].Tag("Black"), games[1].Tag("White"), games[1].Tag("Black"))
	}
	_ = second

	today := time.Now().UTC().Format("2006-01-02")
	for _, c := range []struct {
		cmd   string
		games int
	}{
		{"games ann --since " + today, 2},
		{"games ann --since=2999-01-01", 0},
		{"games cid", 0}, // a player without games: nothing, and no error
	} {
		out, errOut, code := runExec(t, ts.addr, key, c.cmd)
		if n := len(readGames(t, c.cmd, out)); code != 0 || n != c.games {
			t.Errorf("%s: exit %d, %d games (want %d), stderr %q", c.cmd, code, n, c.games, errOut)
		}
	}

	for _, c := range []struct{ cmd, want string }{
		{"pgn 20000101T000000-ffff9", "no game 20000101T000000-ffff9"},
		{"games nobody", "no player nobody"},
		{"games ann --since yesterday", "YYYY-MM-DD"},
		{"pgn", "pgn GAME_ID"},
		{"games", "games HANDLE"},
	} {
		out, errOut, code := runExec(t, ts.addr, key, c.cmd)
		if code != 1 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q on stderr", c.cmd, code, out, errOut, c.want)
		}
	}

	// A game in progress has no PGN yet: spectators see it behind, and a
	// PGN now would not be.
	ctxStart := context.Background()
	live, err := p.Hub.Start(ctxStart, "ann", "cid", game.TimeControl{Base: 5 * time.Minute}, false)
	if err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runExec(t, ts.addr, key, "pgn "+live); code != 1 || out != "" || !strings.Contains(errOut, "in progress") {
		t.Errorf("pgn of a game in progress: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestPGNCommandShown (issue 33, E2): a finished game's end screen and its
// review give the exact command that prints its PGN; the review's s no
// longer says there is nothing to save. Its F steps to the player's own
// mistakes (issue 36).
func TestPGNCommandShown(t *testing.T) {
	ts, p := startPlayServer(t)
	_, port, _ := net.SplitHostPort(ts.addr)
	ann := connect(t, ts.addr, newSigner(t), "play", true)
	bob := connect(t, ts.addr, newSigner(t), "play", true)
	enterLobby(t, ann, bob)
	id, err := p.Hub.Start(context.Background(), "ann", "bob", game.TimeControl{Base: 5 * time.Minute}, false)
	if err != nil {
		t.Fatal(err)
	}
	ann.waitFor(t, "Squall · game")
	bob.waitFor(t, "Squall · game")
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		c := ann
		if i%2 == 1 {
			c = bob
		}
		c.send(t, mv, "\r")
	}
	want := "ssh -p " + port + " 127.0.0.1 pgn " + id
	ann.waitFor(t, "Black wins by checkmate")
	ann.waitFor(t, want)
	bob.send(t, "r")
	bob.waitFor(t, "Game review")
	n := len(bob.out.String())
	bob.send(t, "s")
	waitUntil(t, "the review's s to show "+want, func() bool { return strings.Contains(bob.out.String()[n:], want) })
	if strings.Contains(bob.out.String(), "nothing to save yet") {
		t.Errorf("the review's s said: nothing to save yet")
	}
	// F steps to the player's own mistakes: Bob's, Black's (White's g4??
	// is not his to learn from).
	bob.waitFor(t, "accuracy")
	n = len(bob.out.String())
	bob.send(t, "F")
	waitUntil(t, "F to speak of Black's mistakes", func() bool {
		out := bob.out.String()[n:]
		return strings.Contains(out, "of Black to learn from") || strings.Contains(out, "for Black")
	})
}
