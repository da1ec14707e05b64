package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/store/storetest"
)

// TestServeArena (issue 37, acceptance 1): an arena of 16 players at
// 1+0, each a person at an SSH client (arenaPlayer: their own key, the
// game screen read as drawn, moves typed on the move line), held by
// `squall serve --arena NAME 1+0 LENGTH --arena-start TIME` processes on
// a three-node NATS cluster: once on one server, and once on two, the one
// hosting the arena's games (and so pairing it, by lease) killed with
// SIGKILL halfway, while games are in progress: its players ssh again, to
// the other, which takes the games and the pairing over. While both run,
// the standings `ssh host arena NAME` prints are the same on both.
// The games end as the players' plans say (the script's mate at ply 46,
// a resignation, or a draw agreed; a berserk in about a third of them),
// so that the results, streaks, quick draws and berserk points vary.
// Afterwards the log is replayed and every pairing wave checked against
// the rule (arena.Verify), the standings are recomputed from the
// archive's games alone (arena.Check: points, fire, sheets, order, no
// immediate rematch, no player in two games), every decided game is
// archived, every wave's game finished, every player is paused once
// they have left, and every server — the killed one started again, and a
// fresh one on the store — prints the same standings.
//
// By default only the arena on two servers, for a minute (the test then
// takes about a minute and a half); both, for the 10 minutes each, with
// SQUALL_ARENA_LOAD=10m go test ./cmd/squall -run ServeArena -v -timeout 40m.
func TestServeArena(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS cluster and plays two arenas of several minutes")
	}
	length, both := time.Minute, false
	if s := os.Getenv("SQUALL_ARENA_LOAD"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d%time.Minute != 0 || d < time.Minute {
			t.Fatalf("SQUALL_ARENA_LOAD=%q: want whole minutes, e.g. 10m", s)
		}
		length, both = d, true
	}
	if both {
		t.Run("one server", func(t *testing.T) { runArena(t, "Acceptance One", length, 1) })
	}
	t.Run("two servers, one killed halfway", func(t *testing.T) { runArena(t, "Acceptance Two", length, 2) })
}

// arenaStats gathers what the players saw.
type arenaStats struct {
	mu       sync.Mutex
	problems []string
	// retried counts the moves typed again, not shown after 3 s (their
	// server went); games the games the players saw end, sessions their
	// SSH sessions.
	retried, games, sessions int
	// sent is when each game's plies were typed, by game (its players)
	// and ply; toOpponent how long each took from then to the opponent's
	// screen.
	sent       map[string]map[int]time.Time
	toOpponent []time.Duration
}

// sending notes that ply of game id is being sent now.
func (st *arenaStats) sending(id string, ply int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.sent[id] == nil {
		st.sent[id] = map[int]time.Time{}
	}
	st.sent[id][ply] = time.Now()
}

// arrived notes that plies from+1 to to of game id, the opponent's of
// them, reached a player's screen at.
func (st *arenaStats) arrived(id string, from, to, side int, at time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for ply := from + 1; ply <= to; ply++ {
		if sent, ok := st.sent[id][ply]; ok && (ply-1)%2 != side {
			st.toOpponent = append(st.toOpponent, at.Sub(sent))
			delete(st.sent[id], ply)
		}
	}
}

func (st *arenaStats) problem(format string, args ...any) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.problems = append(st.problems, fmt.Sprintf(format, args...))
}

// arenaServer is a `squall serve` process the test started.
type arenaServer struct {
	node string
	cmd  *exec.Cmd
	addr net.Addr
}

// startArenaServer starts `squall serve` as node on the NATS servers
// nats, holding the arena spec ("NAME 1+0 10m") from start. Its SSH
// limits are raised: every player connects from 127.0.0.1, which the
// per-address cap (8 sessions) and rate (1 a second) would refuse.
func startArenaServer(t *testing.T, node string, nats []string, spec string, start time.Time) *arenaServer {
	t.Helper()
	cmd, addr, _ := startServe(t, "--nats", strings.Join(nats, ","), "--nats-replicas", "3",
		"--node", node, "--host-key", filepath.Join(t.TempDir(), "host"), "--room", "", "--analysts", "1", "--analysis-nodes", "20000",
		"--arena", spec, "--arena-start", start.UTC().Format(time.RFC3339),
		"--max-sessions", "100", "--max-sessions-per-addr", "100", "--rate", "100", "--rate-burst", "100")
	return &arenaServer{node: node, cmd: cmd, addr: addr}
}

// printedStandings is what `ssh host arena NAME` prints on the server at
// addr, less its first line (the time left, which moves on).
func printedStandings(addr net.Addr, key gossh.Signer, name string) (string, error) {
	conn, err := dialSSH(addr, key)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	stop := time.AfterFunc(15*time.Second, func() { conn.Close() })
	defer stop.Stop()
	sess, err := conn.NewSession()
	if err != nil {
		return "", err
	}
	out, err := sess.Output("arena " + name)
	if err != nil {
		return "", fmt.Errorf("arena %s: %w: %s", name, err, out)
	}
	_, rest, _ := strings.Cut(string(out), "\n")
	return rest, nil
}

// sameStandings reads the standings through every server of addrs until
// they print the same (the servers follow the store each at its pace),
// for at most within; it returns what they print, or an error saying how
// they differ.
func sameStandings(addrs []net.Addr, key gossh.Signer, name string, within time.Duration) (string, error) {
	deadline := time.Now().Add(within)
	for {
		var texts []string
		var err error
		for _, a := range addrs {
			var s string
			if s, err = printedStandings(a, key, name); err != nil {
				break
			}
			texts = append(texts, s)
		}
		same := err == nil
		for _, s := range texts[min(1, len(texts)):] {
			same = same && s == texts[0]
		}
		if same {
			return texts[0], nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("the servers print other standings:\n%s", strings.Join(texts, "\n----\n"))
			}
			return "", err
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// runArena holds one arena named name on n servers (when there are two,
// the one hosting its games killed halfway) and checks it.
func runArena(t *testing.T, name string, length time.Duration, n int) {
	_, urls := storetest.Cluster(t, 3)
	games := storetest.Open(t, urls, 3) // the cluster has elected its JetStream leader
	// Time for the servers to start and the players to join before the
	// start (they may join later too).
	start := time.Now().Add(12 * time.Second).Truncate(time.Second)
	end := start.Add(length)
	spec := fmt.Sprintf("%s 1+0 %s", name, lengthWords(length))
	natsOf := func(i int) []string { return append(append([]string(nil), urls[i%3:]...), urls[:i%3]...) }
	var servers []*arenaServer
	var addrs []net.Addr
	for i := range n {
		s := startArenaServer(t, string(rune('a'+i)), natsOf(i), spec, start)
		servers, addrs = append(servers, s), append(addrs, s.addr)
	}
	const players = 16
	st, wait := startArenaPlayers(players, func() []net.Addr { return addrs }, end)
	reader := newKey(t)
	var stopped time.Time
	var killed *arenaServer
	compared := 0
	if n == 2 {
		// While both run, the standings read through each are the same.
		for time.Until(start.Add(length/2)) > 3*time.Second {
			time.Sleep(min(5*time.Second, time.Until(start.Add(length/2))-3*time.Second))
			if _, err := sameStandings(addrs, reader, name, 5*time.Second); err != nil {
				t.Errorf("%v into the arena, both servers running: %v", time.Since(start).Round(time.Second), err)
			}
			compared++
		}
		time.Sleep(time.Until(start.Add(length / 2)))
		// The server hosting the arena's games (the one pairing it) is
		// killed while they are some way in.
		host, hosted := "", 0
		storetest.Eventually(t, "games of the arena some way in", func(ctx context.Context) error {
			recs, err := games.Games(ctx)
			if err != nil {
				return err
			}
			host, hosted = "", 0
			for _, r := range recs {
				if r.ArenaName == name && r.End == nil && len(r.Game.Moves) >= 6 {
					host = r.Host
					hosted++
				}
			}
			if hosted == 0 {
				return errors.New("none")
			}
			return nil
		})
		killed = servers[0]
		if host == servers[1].node {
			killed = servers[1]
		}
		if err := killed.cmd.Process.Kill(); err != nil { // SIGKILL: its leases are left to lapse
			t.Fatal(err)
		}
		killed.cmd.Wait()
		stopped = time.Now()
		t.Logf("server %s, hosting the arena's games, killed (SIGKILL) %v into it, while hosting %d of them; until then the standings were the same on both servers at %d readings",
			host, time.Since(start).Round(time.Second), hosted, compared)
	}
	wait()

	// A fresh server on the store (in this process, to read the arena
	// from), the killed one started again, and the one that ran on all
	// print the same standings.
	fresh := openArenaServer(t, "fresh", natsOf(0), spec, start)
	def, err := fresh.Games.Arenas.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	res := checkArena(t, def, fresh.Games, st)
	for _, s := range res.state.Standings {
		if !s.Paused { // every player left, the ones who came back to a game on the other server too
			t.Errorf("%s left and is not paused in the arena", s.Handle)
		}
	}
	all := []net.Addr{fresh.Addr()}
	for _, s := range servers {
		if s == killed {
			s = startArenaServer(t, s.node, natsOf(0), spec, start)
		}
		all = append(all, s.addr)
	}
	final, err := sameStandings(all, reader, name, 30*time.Second)
	if err != nil {
		t.Error(err)
	}
	wavesAfter := 0
	for _, e := range res.log {
		if e.Kind == arena.Pair && !stopped.IsZero() && e.At.After(stopped) {
			wavesAfter++
		}
	}
	if n == 2 && wavesAfter == 0 {
		t.Error("no wave after the server hosting the games was killed: the other did not take the pairing over")
	}
	res.report(t, players, n, st)
	if n == 2 {
		t.Logf("after the kill: %d waves paired by the other server", wavesAfter)
	}
	t.Logf("the standings printed by `ssh host arena %s` on %d servers (%s) are the same:\n%s", name, len(all), serversSaid(n), final)
}

// serversSaid names the servers the final standings were read through.
func serversSaid(n int) string {
	if n == 2 {
		return "both servers, the killed one started again, and a fresh one"
	}
	return "the server and a fresh one"
}

// openArenaServer starts a server in this process on the NATS servers
// nats, holding the arena spec from start as the others do.
func openArenaServer(t *testing.T, node string, nats []string, spec string, start time.Time) *server.Server {
	t.Helper()
	o := serveOptions{threads: 1, hash: 16, natsURL: strings.Join(nats, ","), replicas: 3, node: node,
		arena: spec, arenaStart: start.UTC().Format(time.RFC3339)}
	if err := o.check(); err != nil {
		t.Fatal(err)
	}
	o.ssh.Log, o.ssh.Listen, o.ssh.HostKeyPath = io.Discard, "127.0.0.1:0", filepath.Join(t.TempDir(), "host")
	srv, err := newServer(context.Background(), o, true, t.Output(), t.Output())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background(), "test over") })
	srv.Accept()
	return srv
}

// arenaResult is an arena checked once its players have left.
type arenaResult struct {
	state                              play.ArenaState
	log                                []arena.Event
	games                              []arena.Game
	waves, aborted, berserks, archived int
}

// checkArena waits for arena def's games to finish on g, reports the
// players' problems, and checks the arena: its log replayed makes every
// wave by the rule and the server's standings (arena.Verify), the
// archive's games alone make the standings too (arena.Check), and every
// pairing's game finished, the decided ones archived.
func checkArena(t *testing.T, def arena.Definition, g *server.Games, st *arenaStats) arenaResult {
	t.Helper()
	ctx := context.Background()
	storetest.Eventually(t, "every game of the arena finished", func(context.Context) error {
		s, err := g.Arenas.State(def.ID)
		if err == nil && len(s.Playing) > 0 {
			return fmt.Errorf("%d games in progress", len(s.Playing))
		}
		return err
	})
	for _, p := range st.problems {
		t.Error(p)
	}
	// The log replayed makes every wave by the rule and the server's
	// standings: read until the server has followed the log to its end
	// (the players' last pauses, as their sessions end, may be on their
	// way to it).
	var r arenaResult
	storetest.Eventually(t, "the server's standings the log's", func(ctx context.Context) error {
		var err error
		if r.state, err = g.Arenas.State(def.ID); err != nil {
			return err
		}
		if r.log, err = g.Arenas.Log(ctx, def.ID); err != nil {
			return err
		}
		verified, err := arena.Verify(def, r.log)
		if err != nil {
			t.Fatalf("Verify: %v", err)
		}
		if !reflect.DeepEqual(verified, r.state.Standings) {
			return fmt.Errorf("the log replayed makes other standings than the server's:\n%+v\n%+v", verified, r.state.Standings)
		}
		return nil
	})
	var err error
	if r.games, err = g.Arenas.Games(ctx, def.ID, func(string) { r.archived++ }); err != nil {
		t.Fatal(err)
	}
	if err := arena.Check(def, r.games, r.state.Standings); err != nil {
		t.Errorf("Check against the archive: %v", err)
	}
	paired := 0
	for _, e := range r.log {
		switch e.Kind {
		case arena.Berserk:
			r.berserks++
		case arena.Pair:
			r.waves++
			paired += len(e.Pairs)
		}
	}
	decided := 0
	for _, g := range r.games {
		if g.Result == "*" {
			r.aborted++
		} else {
			decided++
		}
	}
	if len(r.games) != paired || r.archived != decided {
		t.Errorf("%d games paired, %d finished; %d decided, %d archived", paired, len(r.games), decided, r.archived)
	}
	return r
}

// report logs the checked arena: its games, the checks passed, its moves'
// latency, the top of the standings.
func (r arenaResult) report(t *testing.T, players, servers int, st *arenaStats) {
	t.Helper()
	def := r.state.Def
	t.Logf("%s, %v, %d players (SSH clients) on %d servers: %d waves, %d games (%d aborted, %d berserks), %d events; the players saw %d games end, in %d SSH sessions; moves typed again, not shown after 3 s: %d",
		def.Name, def.Length, players, servers, r.waves, len(r.games), r.aborted, r.berserks, len(r.log), st.games, st.sessions, st.retried)
	t.Logf("Verify: every wave is the rule's; Check: the archive's %d games make the standings", len(r.games))
	results := map[string]int{}
	for _, g := range r.games {
		results[g.Result]++
	}
	fire, berserk := 0, 0
	for _, s := range r.state.Standings {
		fire += strings.Count(s.Sheet, "4") + strings.Count(s.Sheet, "5")
		berserk += strings.Count(s.Sheet, "3") + strings.Count(s.Sheet, "5")
	}
	t.Logf("results: White won %d, Black %d, drawn %d, aborted %d; on the sheets, wins doubled by the fire %d, berserk points %d",
		results["1-0"], results["0-1"], results["1/2-1/2"], results["*"], fire, berserk)
	t.Logf("arena player's move typed → opponent's screen: p50 %v, p99 %v (%d moves)", percentile(st.toOpponent, 0.5), percentile(st.toOpponent, 0.99), len(st.toOpponent))
	for _, s := range r.state.Standings[:min(5, len(r.state.Standings))] {
		t.Logf("%3d. %-4s %3d  %-16s +%d =%d -%d fire %v", s.Rank, s.Handle, s.Score, s.Sheet, s.Wins, s.Draws, s.Losses, s.Fire)
	}
}

// lengthWords writes whole minutes as --arena takes them.
func lengthWords(d time.Duration) string { return fmt.Sprintf("%dm", int(d/time.Minute)) }

func fnv64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
