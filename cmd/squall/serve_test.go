package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/store"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitOutput polls out until it matches re or the time runs out.
func waitOutput(t *testing.T, out *lockedBuffer, re *regexp.Regexp, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		// The text as drawn, without its escapes too: a screen styles a
		// move's number apart from its SAN (the move list component).
		s := out.String()
		if m := re.FindString(s); m != "" {
			return m
		}
		if m := re.FindString(ansi.Strip(s)); m != "" {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %v within %v; the terminal showed:\n%s", re, within, out.String())
	return ""
}

// watch opens an SSH terminal (a fresh key, 120×40) on addr running cmd,
// and returns what it shows.
func watch(t *testing.T, addr net.Addr, cmd string) *lockedBuffer {
	t.Helper()
	term, _ := terminal(t, addr, newKey(t), cmd)
	return term
}

// dialSSH connects to the SSH server at addr with key, giving up after
// 10 s (gossh.Dial's timeout is the TCP connection's alone: a server that
// accepts and never answers would hold it for ever).
func dialSSH(addr net.Addr, signer gossh.Signer) (*gossh.Client, error) {
	nc, err := net.DialTimeout("tcp", addr.String(), 5*time.Second)
	if err != nil {
		return nil, err
	}
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	c, chans, reqs, err := gossh.NewClientConn(nc, addr.String(), &gossh.ClientConfig{
		User:            "viewer",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	nc.SetDeadline(time.Time{})
	return gossh.NewClient(c, chans, reqs), nil
}

// newKey is a fresh SSH key.
func newKey(t *testing.T) gossh.Signer {
	t.Helper()
	signer, err := newSigner()
	if err != nil {
		t.Fatal(err)
	}
	return signer
}

// newSigner is a fresh SSH key, for a goroutine without a testing.T.
func newSigner() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return gossh.NewSignerFromKey(priv)
}

// terminal opens an SSH terminal (120×40) on addr with key running cmd,
// and returns what it shows and its keyboard.
func terminal(t *testing.T, addr net.Addr, signer gossh.Signer, cmd string) (*lockedBuffer, io.Writer) {
	t.Helper()
	term := &lockedBuffer{}
	conn, stdin, err := dialTerminal(addr, signer, cmd, term)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return term, stdin
}

// dialTerminal connects to addr with key and runs cmd in a terminal
// (xterm-256color, 120×40) whose output goes to out, answering the
// server's questions to the terminal as a terminal would; closing the
// connection ends it. Without a testing.T, for the scripted players'
// goroutines.
func dialTerminal(addr net.Addr, signer gossh.Signer, cmd string, out io.Writer) (*gossh.Client, io.WriteCloser, error) {
	conn, err := dialSSH(addr, signer)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*gossh.Client, io.WriteCloser, error) {
		conn.Close()
		return nil, nil, err
	}
	sess, err := conn.NewSession()
	if err != nil {
		return fail(err)
	}
	sess.Stdout, sess.Stderr = out, out
	stdin, err := sess.StdinPipe()
	if err != nil {
		return fail(err)
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		return fail(err)
	}
	if err := sess.Start(cmd); err != nil {
		return fail(err)
	}
	// Answer the background-colour and attribute queries as a terminal
	// would; without a reply the server waits for them.
	io.WriteString(stdin, "\x1b]11;rgb:1a1a/1a1a/1a1a\x07\x1b[?62;22c")
	return conn, stdin, nil
}

// TestServeRealEngine runs `squall serve` with the built-in searcher on a
// free port, watches its opening room through an SSH terminal until the
// engine reports a depth, then stops it with SIGINT as Ctrl-C would.
func TestServeRealEngine(t *testing.T) {
	dir := t.TempDir()
	hostKey := filepath.Join(dir, "host")
	addrs := make(chan net.Addr, 1)
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		cmd := serveCommand(func(a net.Addr) { addrs <- a })
		cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--host-key", hostKey, "--hash", "4", "--data", filepath.Join(dir, "store"),
			"--fen", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"})
		cmd.SetOut(&stdout)
		cmd.SetErr(&stderr)
		done <- cmd.Execute()
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("serve stopped at start: %v\n%s", err, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	if fi, err := os.Stat(hostKey); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("host key not made private: %v %v", fi, err)
	}

	term := watch(t, addr, "room main")
	waitOutput(t, term, regexp.MustCompile(`Room main`), 5*time.Second)
	waitOutput(t, term, regexp.MustCompile(`depth [1-9][0-9]*/`), 10*time.Second)
	// The back-rank mate is found at once; the line shows it in SAN.
	waitOutput(t, term, regexp.MustCompile(`#1 +1\. Rd8#`), 10*time.Second)

	// The signal goes to this test process, which the command catches
	// as the command would; the viewer's program must not catch it too.
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(35 * time.Second):
		t.Fatal("serve did not shut down")
	}
	// The server has written its goodbye; the viewer's SSH client may
	// still be reading it.
	waitOutput(t, term, regexp.MustCompile(regexp.QuoteMeta("squall: the server is shutting down: the server is stopping")), 10*time.Second)
	// Drawn by the viewer's program before it quits: it would be missing
	// had the program taken the signal as its own.
	waitOutput(t, term, regexp.MustCompile(regexp.QuoteMeta("Server shutting down: the server is stopping")), 10*time.Second)
	if !strings.Contains(stderr.String(), "connect ") || !strings.Contains(stderr.String(), "role=viewer") {
		t.Errorf("connection log lacks the viewer:\n%s", stderr.String())
	}
}

// TestServeBroadcast starts the in-process server of --broadcast: a viewer
// sees the published game analysed by the built-in engine, and Stop ends
// the viewer's session with the reason.
func TestServeBroadcast(t *testing.T) {
	var log lockedBuffer
	bs, err := startBroadcast("live", []string{"--listen", "127.0.0.1:0", "--host-key", filepath.Join(t.TempDir(), "host"), "--hash", "4"}, &log)
	if err != nil {
		t.Fatal(err)
	}
	if got := bs.WatchCommand(); !regexp.MustCompile(`^ssh -t -p [0-9]+ localhost room live$`).MatchString(got) {
		t.Errorf("watch command %q", got)
	}
	g := engine.Game{Start: chess.NewPosition()}
	p := g.Start.Clone()
	var u chess.Undo
	for _, s := range []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"} {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m, &u)
	}
	if err := bs.Broadcast.Publish(g, len(g.Moves)); err != nil {
		t.Fatal(err)
	}
	term := watch(t, bs.Addr, "room live")
	waitOutput(t, term, regexp.MustCompile(`1\. e4 e5 2\. Qh5 Nc6 3\. Bc4 Nf6`), 5*time.Second)
	waitOutput(t, term, regexp.MustCompile(`#1 +4\. Qxf7#`), 10*time.Second)
	if err := bs.Stop(); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, term, regexp.MustCompile(`the broadcaster has quit`), 2*time.Second)
	if !strings.Contains(log.String(), "role=viewer") {
		t.Errorf("connection log lacks the viewer:\n%s", log.String())
	}
	if err := bs.Broadcast.Publish(g, 0); err == nil {
		t.Error("published after Stop")
	}
}

func TestServeFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--fen", "not a fen"},
		{"--threads", "0"},
		{"--room", "", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"},
		{"extra"},
	} {
		if _, err := parseServeFlags(args); err == nil {
			t.Errorf("%q: accepted", args)
		}
	}
	o, err := parseServeFlags([]string{"--addr", "127.0.0.1:9", "--owner-keys", "k", "--private"})
	if err != nil {
		t.Fatal(err)
	}
	if o.ssh.Listen != "127.0.0.1:9" || o.ssh.OwnersFile != "k" || !o.ssh.Private || o.room != "main" {
		t.Errorf("aliases not applied: %+v", o)
	}
}

// TestServeExport: squall serve export writes the store's archive of
// finished games, and asks before replacing a file.
func TestServeExport(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, store.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	games := []string{"[Event \"a\"]\n\n1. e4 {[%clk 0:03:00]} *\n\n", "[Event \"b\"]\n\n1. d4 *\n\n"}
	for i, g := range games {
		if err := st.ArchiveGame(ctx, fmt.Sprint(i), g); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	out := filepath.Join(t.TempDir(), "archive.pgn")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"serve", "export", "--pgn", out, "--data", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if data, err := os.ReadFile(out); err != nil || string(data) != strings.Join(games, "") || !strings.Contains(stdout.String(), "2 games") {
		t.Errorf("exported %q (%v); said %q", data, err, stdout.String())
	}
	stderr.Reset()
	if code := run([]string{"serve", "export", "--pgn", out, "--data", dir}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "--force") {
		t.Errorf("export over an existing file: exit %d, %q", code, stderr.String())
	}
}

// TestServeExportWhileServing is issue 33's G13: export opened a running
// server's store beside it, with no lock. It is refused, saying why and
// what to do, and the server's store is untouched.
func TestServeExportWhileServing(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), store.Options{Dir: dir}) // the running server's
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := filepath.Join(t.TempDir(), "archive.pgn")
	var stdout, stderr bytes.Buffer
	code := run([]string{"serve", "export", "--pgn", out, "--data", dir}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "in use by another squall serve") || !strings.Contains(stderr.String(), "--nats") {
		t.Errorf("export beside a running server: exit %d, %q", code, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a file was written")
	}
}

// TestSpectatorDelayFlag is issue 33's F2 at the command: a rated game's
// spectators saw it and its analysis live, --spectator-delay being 0 by
// default. Its default is auto (play.SpectatorDelay's rule: rated games
// behind, casual ones live); a duration is every game's.
func TestSpectatorDelayFlag(t *testing.T) {
	fs := serveCommand(nil).Flags()
	f := fs.Lookup("spectator-delay")
	if f == nil || f.DefValue != "auto" {
		t.Fatalf("--spectator-delay defaults to %q, want auto", f.DefValue)
	}
	for in, want := range map[string]string{"0": "0s", "15s": "15s", "auto": "auto"} {
		if err := fs.Set("spectator-delay", in); err != nil || f.Value.String() != want {
			t.Errorf("--spectator-delay %s: %q, %v", in, f.Value.String(), err)
		}
	}
	if err := fs.Set("spectator-delay", "-5s"); err == nil {
		t.Error("a negative delay accepted")
	}
}

// TestServeKill9: squall serve killed with SIGKILL in the middle of a game
// and started again on its data resumes the game: both players come back
// with their keys to its moves and clocks, and play on.
func TestServeKill9(t *testing.T) {
	dir := t.TempDir()
	start := func() (*exec.Cmd, net.Addr, *lockedBuffer) {
		t.Helper()
		return startServe(t, "--data", filepath.Join(dir, "store"), "--host-key", filepath.Join(dir, "host"), "--room", "")
	}
	type player struct {
		key    gossh.Signer
		screen *lockedBuffer
		keys   io.Writer
	}
	typeLine := func(p *player, s string) {
		for _, r := range s + "\r" {
			io.WriteString(p.keys, string(r))
			time.Sleep(20 * time.Millisecond)
		}
	}
	see := func(p *player, s string) {
		t.Helper()
		waitOutput(t, p.screen, regexp.MustCompile(regexp.QuoteMeta(s)), 20*time.Second)
	}

	srv, addr, _ := start()
	ann, bob := &player{key: newKey(t)}, &player{key: newKey(t)}
	for _, p := range []*player{ann, bob} {
		p.screen, p.keys = terminal(t, addr, p.key, "play")
		see(p, "Choose the handle")
	}
	typeLine(ann, "ann")
	typeLine(bob, "bob")
	see(ann, "Squall · lobby")
	see(bob, "Squall · lobby")
	io.WriteString(ann.keys, "n")
	time.Sleep(50 * time.Millisecond)
	typeLine(ann, "5+0 white")
	see(bob, "5+0  rated")
	typeLine(bob, "")
	see(ann, "Squall · game")
	typeLine(ann, "d4")
	see(bob, "1. d4")
	typeLine(bob, "d5")
	see(ann, "1. d4 d5")
	typeLine(ann, "c4")
	see(bob, "1. d4 d5 2. c4")

	if err := srv.Process.Kill(); err != nil { // SIGKILL: nothing gets to shut down
		t.Fatal(err)
	}
	srv.Wait()
	_, addr, out := start()
	waitOutput(t, out, regexp.MustCompile("resumed 1 games in progress"), 20*time.Second)
	for _, p := range []*player{ann, bob} {
		p.screen, p.keys = terminal(t, addr, p.key, "play")
		see(p, "1. d4 d5 2. c4")
	}
	see(bob, "▶ Black bob")
	typeLine(bob, "e6")
	see(ann, "1. d4 d5 2. c4 e6")
}

// startServe starts `squall serve --listen 127.0.0.1:0 ARGS` as a child
// process (this test binary running main), killed at the test's end if
// it has not ended, and returns it once it listens, with its SSH address
// and what it writes (stdout and stderr).
func startServe(t *testing.T, args ...string) (*exec.Cmd, net.Addr, *lockedBuffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	m := waitOutput(t, out, regexp.MustCompile(`listening on 127\.0\.0\.1:[0-9]+`), 30*time.Second)
	addr, err := net.ResolveTCPAddr("tcp", strings.TrimPrefix(m, "listening on "))
	if err != nil {
		t.Fatal(err)
	}
	return cmd, addr, out
}

// TestServeEnginesNiced: by default serve runs every engine as Squall's
// own binary in a child process at nice 19 (--engine-nice), each of its
// threads, so that analysis never starves the serving of moves; 0 keeps
// the engine in process.
func TestServeEnginesNiced(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the children's nice values from /proc")
	}
	o, err := parseServeFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	before := childNices(t)
	a, err := o.newAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Search(context.Background(), engine.Game{Start: chess.NewPosition()}, engine.Limits{Depth: 3}, nil); err != nil {
		t.Fatal(err)
	}
	var found []int
	for pid, nices := range childNices(t) {
		if _, old := before[pid]; !old {
			found = append(found, pid)
			for _, n := range nices {
				if n != 19 {
					t.Errorf("the engine's process %d has a thread at nice %d: %v", pid, n, nices)
				}
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d new child processes, want the engine's one", len(found))
	}
	o, err = parseServeFlags([]string{"--engine-nice", "0"})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := o.newAnalyzer(); err != nil || b.Name() != a.Name() {
		t.Errorf("--engine-nice 0: %v, %v", b, err)
	} else {
		b.Close()
	}
	if _, err := parseServeFlags([]string{"--engine-nice", "20"}); err == nil {
		t.Error("--engine-nice 20 accepted")
	}
}

// childNices maps each child process of this one to the nice values of
// its threads, from /proc.
func childNices(t *testing.T) map[int][]int {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	kids := map[int][]int{}
	for _, f := range stats {
		fields := procStat(f)
		if len(fields) < 20 || fields[4-3] != strconv.Itoa(os.Getpid()) {
			continue // field 4, the parent
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		tasks, _ := filepath.Glob(filepath.Join(filepath.Dir(f), "task", "*", "stat"))
		for _, task := range tasks {
			if tf := procStat(task); len(tf) >= 20 {
				n, _ := strconv.Atoi(tf[19-3])
				kids[pid] = append(kids[pid], n)
			}
		}
	}
	return kids
}

// procStat is a /proc stat file's fields from the third on (after the
// command's parentheses, which may hold spaces); nil if it cannot be read.
func procStat(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return nil
	}
	return strings.Fields(s[i+2:])
}

// TestArenaFlags: --arena reads NAME CONTROL LENGTH, --arena-start an RFC
// 3339 time or the next HH:MM in UTC; what they cannot be is refused.
func TestArenaFlags(t *testing.T) {
	now := time.Date(2026, 11, 27, 18, 30, 0, 0, time.UTC)
	o := serveOptions{arena: "Hourly Blitz 3+0 30m", arenaStart: "18:00"}
	if err := o.checkArena(now); err != nil {
		t.Fatal(err)
	}
	if s := o.schedule; s.Spec.Name != "Hourly Blitz" || s.Spec.Length != 30*time.Minute || !s.Start.Equal(now.Add(23*time.Hour+30*time.Minute)) {
		t.Fatalf("schedule %+v", s)
	}
	o = serveOptions{arena: "Evening 1+0 1h", arenaStart: "2026-11-27T20:00:00+01:00"}
	if err := o.checkArena(now); err != nil || !o.schedule.Start.Equal(now.Add(30*time.Minute)) {
		t.Fatalf("%+v %v", o.schedule, err)
	}
	o = serveOptions{arena: "Now 1+0 10m"}
	if err := o.checkArena(now); err != nil || !o.schedule.Start.IsZero() {
		t.Fatalf("%+v %v", o.schedule, err)
	}
	for _, bad := range []serveOptions{{arenaStart: "18:00"}, {arena: "1+0 10m"}, {arena: "Fast 0.1+0 10m"}, {arena: "A 1+0 10m", arenaStart: "soon"}} {
		if err := bad.checkArena(now); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
